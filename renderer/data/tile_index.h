#pragma once
// TILEINDEX: a vector dataset (usually a shapefile) whose features give the
// raster tiles of a layer in their TILEITEM attribute (and optionally their
// CRS in the TILESRS attribute).

#include "core/result.h"
#include "mapfile/map_def.h"

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
    // reprojected to the index CRS when both are known). With `filterOf`,
    // only index features that pass that layer's FILTER: MapServer applies a
    // raster layer's FILTER (a WMS TIME filter, say) to its tile index.
    static Result<QList<Tile>> query(const QString& path, const QString& tileItem, const QString& tileSrsItem,
                                     const MapView& view, const LayerDef* filterOf = nullptr);
    // The index a layer's TILEINDEX names: a file (as DATA resolves), or
    // another layer of the map by NAME, whose DATA then is the index.
    static QString path(const MapDef& map, const LayerDef& layer);
};

}  // namespace maptune
