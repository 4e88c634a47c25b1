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

struct RawBandsRequest {
    GDALDatasetH dataset = nullptr;
    std::vector<int> bands;                      // 1-based band numbers
    const LayerDef* layer = nullptr;             // OFFSITE
    const ProcessingOptions* options = nullptr;  // NODATA, load options
    Resample mode = Resample::Average;
};

class RawBandResampler {
public:
    // A view-sized grid; all pixels invalid when nothing overlaps.
    static Result<RawRaster> render(const RawBandsRequest& request, const GeoTransform& srcGt, const Crs& srcCrs,
                                    const MapView& view);
};

}  // namespace maptune
