#pragma once
// Draws a RASTER layer the way MapServer 8's msDrawRasterLayerGDAL() does:
// window read through GDAL at output resolution (GDAL picks the overview),
// PROCESSING BANDS/SCALE/LUT/NODATA/RESAMPLE, OFFSITE, alpha and mask bands,
// raster classes, reprojection, TILEINDEX, then OPACITY on compositing.

#include "geo/map_view.h"
#include "mapfile/map_def.h"
#include "trace/cancel_token.h"
#include "trace/trace.h"

#include <QImage>
#include <QStringList>

namespace maptune {

class RasterLayerRenderer {
public:
    // Draws `layer` onto `canvas` (Format_ARGB32_Premultiplied, view.width x
    // view.height) with source-over compositing and the layer's OPACITY.
    // On failure returns false with trace.error naming the layer and the file
    // ("layer 'ortho': cannot open data/x.tif: ..."). Fills trace.openMs,
    // readMs, lutMs, drawMs, totalMs and pixels. GDALAllRegister() must have run.
    static bool render(const MapDef& map, const LayerDef& layer, const MapView& view, QImage& canvas,
                       LayerTrace& trace, const CancelToken& cancel);

    // PROCESSING problems MapServer keeps silent about (unknown or repeated keys).
    static QStringList warnings(const LayerDef& layer);

    // DATA (or a tile path) resolved like MapServer: absolute, else relative
    // to SHAPEPATH (itself relative to the mapfile directory), else to the
    // mapfile directory.
    static QString resolvePath(const MapDef& map, const QString& data);
    // The directory relative paths of `map` resolve against.
    static QString mapDirectory(const MapDef& map);
};

}  // namespace maptune
