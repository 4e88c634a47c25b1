#pragma once
// What MapServer's msResampleGDALToMap() settles before it samples: the
// map-pixel -> dataset-pixel transform, the dataset window the view needs
// and the size that window is loaded at. Shared by the RGBA resampler and
// the raw-band one (UVRASTER).

#include "core/result.h"
#include "raster/geo_transform.h"
#include "raster/raster_composer.h"

#include <memory>
#include <optional>

namespace maptune {

struct MapView;
class Crs;
class CoordinateTransform;
class ProcessingOptions;

// Map pixel/line -> dataset pixel/line, through PROJ when reprojecting:
// GDAL's approximating transformer (0.125 px, as MapServer's warp) over our
// own base transformer, which uses this thread's cached PROJ operation --
// GDAL's GenImgProj transformer would look the operation up in proj.db on
// every request, a tenth of a 256-pixel tile's time.
class PixelTransform {
public:
    PixelTransform(const GeoTransform& srcGt, const Crs& srcCrs, const MapView& view);
    ~PixelTransform();
    PixelTransform(const PixelTransform&) = delete;
    PixelTransform& operator=(const PixelTransform&) = delete;

    bool failed() const { return m_failed; }
    // In place; ok[i] false where the point does not transform.
    void apply(int n, double* x, double* y, int* ok) const;

private:
    static int base(void* arg, int dstToSrc, int n, double* x, double* y, double* z, int* ok);
    void rotate(const MapView& view);

    GeoTransform m_srcGt, m_dstGt, m_inv, m_dstInv;
    std::shared_ptr<CoordinateTransform> m_toSrc, m_toDst;
    void* m_approx = nullptr;
    bool m_failed = false;
};

// The dataset window to read and the size to read it at; loaded pixel
// coordinates are (dataset - x0) * fx, (dataset - y0) * fy.
struct LoadPlan {
    RasterWindow window;
    double x0 = 0, y0 = 0, fx = 1, fy = 1;
};

// nullopt when the view does not overlap the raster (sx x sy pixels).
std::optional<LoadPlan> planLoad(const PixelTransform& t, const GeoTransform& srcGt, int sx, int sy, const MapView& view,
                                 const ProcessingOptions& options);

enum class Resample { Nearest, Bilinear, Average };
// PROCESSING RESAMPLE, NEAREST unless BILINEAR or AVERAGE.
Resample resampleMode(const ProcessingOptions& options, Resample fallback = Resample::Nearest);

}  // namespace maptune
