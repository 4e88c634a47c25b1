#pragma once
// `maptune-cli check` for PostGIS layers: when the database can be reached,
// warn about a geometry column without a GiST index (every draw would read
// the whole table) or a table that does not exist.

#include "mapfile/map_def.h"

#include <QStringList>

namespace maptune {

// Formatted like mapfile diagnostics ("FILE:LINE:COL: warning: layer 'x': ...");
// empty for layers that are not PostGIS or have nothing to report.
QStringList postgisLayerWarnings(const MapDef& map, const LayerDef& layer);

}  // namespace maptune
