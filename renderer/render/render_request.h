#pragma once
// What to draw: everything optional falls back to the mapfile, as map2img does.

#include "geo/crs.h"
#include "mapfile/map_def.h"
#include "render/query_highlight.h"
#include "trace/cancel_token.h"
#include "trace/trace.h"

#include <QByteArray>
#include <QImage>
#include <QStringList>

#include <memory>
#include <optional>

namespace maptune {

struct RenderRequest {
    // Image edges in the request CRS (a WMS BBOX). Unset: the map EXTENT,
    // which is a centre-to-centre extent as in MapServer.
    std::optional<Rect> bbox;
    // A centre-to-centre extent like `map2img -e` / the mapfile EXTENT.
    std::optional<Rect> centerExtent;
    int width = -1;                    // -1: MAP SIZE
    int height = -1;
    std::optional<Crs> crs;            // unset: the map's PROJECTION
    // Layer names or GROUP names to switch on (case-insensitive); others
    // that are not STATUS DEFAULT are switched off. Empty: as the mapfile says.
    QStringList layers;
    bool layersGiven = false;
    // Indexes into MapDef::layers to draw in exactly this order, each as if
    // switched on (WMS GetMap: the STATUS DEFAULT layers, then LAYERS' order).
    // Set, it replaces `layers`.
    std::optional<QList<int>> layerOrder;
    QString format;                    // OUTPUTFORMAT name, built-in name or MIME type; empty: IMAGETYPE
    std::optional<bool> transparent;
    std::optional<Color> background;
    bool encode = true;                // false: image only (canvas previews)
    // A query map: the layers with selected features draw as its style says.
    std::shared_ptr<const QueryHighlight> query;
    CancelToken cancel;
};

struct RenderResult {
    QImage image;                      // ARGB32_Premultiplied
    QByteArray bytes;                  // encoded, when requested
    QString mimeType;
    Trace trace;
    QString error;                     // the whole render failed (bad request)
    QStringList warnings;              // layers that failed, ignored PROCESSING keys, ...
    bool ok() const { return error.isEmpty(); }
};

}  // namespace maptune
