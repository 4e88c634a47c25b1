#pragma once
// A map in a raw OUTPUTFORMAT (GDAL/<driver> with IMAGEMODE BYTE, INT16 or
// FLOAT32): the raster layers' band values, not colours, written through
// GDAL with the map's georeferencing (msDrawMap into a raw image, then
// msSaveImageGDAL). Other layer types draw nothing in raw mode and are
// reported as skipped.

#include "encode/gdal_writer.h"
#include "encode/output_format.h"
#include "geo/map_view.h"
#include "render/map_renderer.h"

namespace maptune {

// Georeferencing as msSaveImageGDAL writes it for a view.
Georeference georeferenceFor(const MapView& view, double resolution);

void renderRawMap(const PreparedMap& prepared, const QList<int>& layers, const MapView& view, const ImageFormat& format,
                  const CancelToken& cancel, RenderResult& result);

}  // namespace maptune
