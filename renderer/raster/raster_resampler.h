#pragma once
// MapServer's msResampleGDALToMap(): used when the raster is rotated or
// south-up, when layer and map CRS differ, or when PROCESSING RESAMPLE is
// given. Loads the needed source window (at OVERSAMPLE_RATIO times the map
// resolution) into RGBA, then samples it for every map pixel through a
// map-pixel -> source-pixel transform (raster/resample_plan).

#include "core/result.h"
#include "raster/geo_transform.h"
#include "raster/raster_composer.h"

#include <QImage>
#include <QString>

#include <optional>

namespace maptune {

struct MapView;
class Crs;

class RasterResampler {
public:
    // Draws onto `target` (the view's size; premultiplied ARGB32 is blended
    // into directly, with MapServer's arithmetic). srcCrs may be invalid
    // (then no reprojection).
    static Status render(const RasterSource& source, const GeoTransform& srcGt, const Crs& srcCrs, const MapView& view,
                         LayerTrace& trace, QImage& target);
};

}  // namespace maptune
