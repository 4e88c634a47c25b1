#pragma once
// MapServer's raw-data image mode through msResampleGDALToMap(): band
// values, not colours, resampled onto a view. UVRASTER samples its arrows
// from such a grid.

#include "core/result.h"
#include "raster/geo_transform.h"
#include "raster/resample_plan.h"

#include <cstdint>
#include <vector>

namespace maptune {

struct LayerDef;
struct MapView;
class Crs;
class ProcessingOptions;

struct RawRaster {
    int width = 0, height = 0;
    std::vector<std::vector<float>> bands;  // one row-major plane per band asked for
    std::vector<uint8_t> valid;             // per pixel: set where a source pixel reached it

    bool isValid(size_t pixel) const { return valid[pixel] != 0; }
};

// The image's raw data type (OUTPUTFORMAT IMAGEMODE BYTE, INT16, FLOAT32):
// MapServer loads the raster in it and narrows each resampled value to it.
enum class RawStorage { Float32, Int16, Byte };

struct RawBandsRequest {
    GDALDatasetH dataset = nullptr;
    std::vector<int> bands;                      // 1-based band numbers
    const LayerDef* layer = nullptr;             // OFFSITE
    const ProcessingOptions* options = nullptr;  // NODATA, load options
    Resample mode = Resample::Average;
    RawStorage storage = RawStorage::Float32;
};

// A value read into `storage` as GDAL converts it (rounded half away from
// zero, clamped, NaN as 0 for the integer types).
float storedAs(double v, RawStorage storage);

class RawBandResampler {
public:
    // A view-sized grid; all pixels invalid when nothing overlaps.
    static Result<RawRaster> render(const RawBandsRequest& request, const GeoTransform& srcGt, const Crs& srcCrs,
                                    const MapView& view);
    // Without resampling (msDrawRasterLayerGDAL_RawMode's own window): the
    // source window read at the size it covers on the view, GDAL's nearest.
    static Result<RawRaster> read(const RawBandsRequest& request, const GeoTransform& srcGt, const MapView& view);
};

}  // namespace maptune
