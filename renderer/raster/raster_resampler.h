#pragma once
// MapServer's msResampleGDALToMap(): used when the raster is rotated or
// south-up, when layer and map CRS differ, or when PROCESSING RESAMPLE is
// given. Loads the needed source window (at OVERSAMPLE_RATIO times the map
// resolution) into RGBA, then samples it for every map pixel through a
// map-pixel -> source-pixel transform (GDAL's GenImgProj transformer when
// reprojecting).

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
    // Returns a view-sized image, or an image with isNull() when nothing
    // overlaps. srcCrs/dstCrs may be invalid (then no reprojection).
    static Result<QImage> render(const RasterSource& source, const GeoTransform& srcGt, const Crs& srcCrs,
                                 const MapView& view, LayerTrace& trace);
};

}  // namespace maptune
