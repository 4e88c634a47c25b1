#pragma once
// What `maptune-cli explain` shows for a PostGIS layer: the SELECT a GetMap
// would run (parameters apart), the database's EXPLAIN (ANALYZE, BUFFERS)
// plan, and plain warnings when the plan does not use a spatial index or the
// column's SRID differs from DATA's `using srid`.

#include "mapfile/map_def.h"

#include <QStringList>

namespace maptune {

struct PostgisExplain {
    QString sql;
    QStringList params;
    QString plan;
    QStringList warnings;
    QString error;           // nothing else is valid when set
    bool ok() const { return error.isEmpty(); }
};

// `attributes` as a draw asks for them; `bbox` in the layer's CRS (invalid: none).
PostgisExplain explainPostgisLayer(const LayerDef& layer, const QStringList& attributes, const Rect& bbox);

// What a draw of `mapBox` (map CRS) would send for the layer: the box in the
// layer's CRS and the attributes its classes ask for, then explained.
PostgisExplain explainPostgisView(const MapDef& map, const LayerDef& layer, const Rect& mapBox);

// Looks for a spatial index use in a text plan; exposed for tests.
bool planUsesIndex(const QString& plan);

}  // namespace maptune
