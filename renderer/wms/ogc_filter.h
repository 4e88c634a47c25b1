#pragma once
// OGC Filter Encoding (1.0 and 1.1) as a WMS GetMap FILTER carries it,
// turned into what a layer already knows how to apply: the comparisons
// become a MapServer expression (written from the parsed values, quoted and
// escaped, so request text never reaches the expression as syntax), the
// spatial operators become RequestSpatialFilterDefs. A spatial operator may
// stand alone or inside the top-level And; inside Or or Not it is refused.

#include "mapfile/layer_def.h"

#include <QString>

#include <optional>

namespace maptune {

struct OgcFilter {
    QString expression;  // a logical MapServer expression; empty: no attribute condition
    QList<RequestSpatialFilterDef> spatial;
    QString error;       // set: the filter is refused, with the reason
};

// `defaultCrs`: the CRS of geometries without srsName (the request's),
// `swapDefaultAxes`: whether their coordinates come latitude first (WMS
// 1.3.0 with a CRS such as EPSG:4326).
OgcFilter parseOgcFilter(const QString& xml, const QString& defaultCrs, bool swapDefaultAxes);

}  // namespace maptune
