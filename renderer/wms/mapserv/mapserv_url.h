#pragma once
// mapserv URLs the workbench hands out and takes in: "Copy as mapserv URL"
// writes the canvas's view as a mode=map request (MAPEXT, MAPSIZE, LAYERS),
// and "Open request…" turns any pasted mapserv or WMS URL back into the query
// that the open map answers.

#include "core/rect.h"
#include "core/result.h"

#include <QStringList>

namespace maptune {

struct MapservView {
    Rect edges;            // the image's outer edges, in the map's CRS
    int width = 0, height = 0;
    QStringList layers;    // to switch on; empty: as the mapfile says
};

// BASE?[map=MAPPATH&]mode=map&mapext=...&mapsize=W+H[&layers=a+b]. MAPEXT
// is mapserv's centre-to-centre extent, so the URL draws the same pixels.
QString mapservUrl(const QString& base, const QString& mapPath, const MapservView& view);

// The query string of a pasted URL (or a bare query string), its map=
// dropped: the request is replayed against the open map and never names
// another file. An error when nothing is left to ask.
Result<QByteArray> replayQuery(const QString& pasted);

}  // namespace maptune
