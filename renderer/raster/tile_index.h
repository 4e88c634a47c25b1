#pragma once
// TILEINDEX: a vector dataset (usually a shapefile) whose features give the
// raster tiles of a layer in their TILEITEM attribute (and optionally their
// CRS in the TILESRS attribute).

#include "core/result.h"

#include <QList>
#include <QString>

namespace maptune {

struct MapView;

class TileIndex {
public:
    struct Tile {
        QString location;  // as written in the index
        QString srs;       // TILESRS value, empty when not given / null
    };
    // Tiles whose footprint intersects the view (the view extent is
    // reprojected to the index CRS when both are known).
    static Result<QList<Tile>> query(const QString& path, const QString& tileItem, const QString& tileSrsItem,
                                     const MapView& view);
};

}  // namespace maptune
