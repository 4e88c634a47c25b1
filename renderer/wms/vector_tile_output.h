#pragma once
// GetMap (and mapserv mode=map / mode=tile) as a Mapbox vector tile, byte for
// byte as MapServer's MVT writer (mapmvt.c) packs it: one tile layer per drawn
// POINT, LINE or POLYGON layer whose source overlaps the request, every
// feature the layer would draw (FILTER and class as for an image) with the
// items of gml_include_items as tags, typed by gml_<item>_type, and its
// geometry on the EXTENT grid clipped to EDGE_BUFFER pixels around the tile.

#include "core/result.h"
#include "render/prepared_map.h"
#include "trace/cancel_token.h"

#include <QByteArray>

#include <optional>

namespace maptune {

struct VectorTileFormat {
    QString mimeType;
    int extent = 4096;    // FORMATOPTION EXTENT
    int edgeBuffer = 10;  // FORMATOPTION EDGE_BUFFER, in pixels
};

// The MVT format `format` names: "mvt", "mvtxprotobuf", their MIME types, or
// an OUTPUTFORMAT whose DRIVER is MVT (by name or MIME type, the map's first).
std::optional<VectorTileFormat> findVectorTileFormat(const MapDef& map, const QString& format);

// The extent mapmvt.c puts on the tile's grid, from a request's image edges
// (WMS BBOX, a mode=tile tile): the pixel-centre extent MapServer keeps,
// widened again by half a cell of MS_CELLSIZE, x's cell on both axes.
Rect vectorTileBoxFromEdges(const Rect& edges, int width, int height);

struct VectorTileRequest {
    Rect box;           // one of the two above, in `crs`
    Crs crs;
    QList<int> layers;  // drawing order
    double scaleDenom = 0;
    CancelToken cancel;
    VectorTileFormat format;
};

Result<QByteArray> writeVectorTile(const PreparedMap& map, const VectorTileRequest& request);

}  // namespace maptune
