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

// Map pixel/line -> raster pixel/line as msResampleGDALToMap() computes it:
// the map's geotransform (msMapComputeGeotransform, from the pixel-centre
// extent over width - 1 pixels), PROJ when the CRSs differ (this thread's
// cached operation), the inverse of the raster's geotransform; apply()
// interpolates along rows as msApproxTransformer does (0.333 px), so that
// a pixel on an edge lands on the same side of it as in MapServer.
class PixelTransform {
public:
    PixelTransform(const GeoTransform& srcGt, const Crs& srcCrs, const MapView& view);

    bool failed() const { return m_failed; }
    // In place; ok[i] false where the point does not transform.
    void apply(int n, double* x, double* y, int* ok) const;
    // Without the approximation (msProjTransformer itself).
    void applyExact(int n, double* x, double* y, int* ok) const;

private:
    bool approximate(int n, double* x, double* y, int* ok) const;
    void rotate(const MapView& view);

    GeoTransform m_dstGt, m_inv;
    std::shared_ptr<CoordinateTransform> m_toSrc;
    bool m_failed = false;
};

// The dataset window to read, the size to read it at, and the geotransform
// of the image read (MapServer's adjusted adfSrcGeoTransform, #1715 fit included).
struct LoadPlan {
    RasterWindow window;
    GeoTransform loadedGt;
};

// nullopt when the view does not overlap the raster (sx x sy pixels).
// `t` transforms to the dataset's own pixels.
std::optional<LoadPlan> planLoad(const PixelTransform& t, const GeoTransform& srcGt, int sx, int sy, const MapView& view,
                                 const ProcessingOptions& options);

enum class Resample { Nearest, Bilinear, Average };
// PROCESSING RESAMPLE, NEAREST unless BILINEAR or AVERAGE.
Resample resampleMode(const ProcessingOptions& options, Resample fallback = Resample::Nearest);

}  // namespace maptune
