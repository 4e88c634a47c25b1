#pragma once
// Semantic checks on a parsed map: what MapServer would reject or silently get
// wrong at draw time (unknown SRS, missing data, undefined symbols, ...).

#include "mapfile/diagnostic.h"
#include "mapfile/map_def.h"

namespace maptune {

// Problems as errors and warnings, in map order. Touches the file system (DATA,
// symbol images) and PROJ; safe to call from any thread.
Diagnostics validateMap(const MapDef& map);

// The PROJ definition string of a PROJECTION block: "EPSG:4326" for
// "init=epsg:4326", "+proj=... +type=crs" for parameter lists, the text itself
// for a single "EPSG:n"/WKT line; "" for AUTO or an empty block.
QString projString(const ProjectionDef& projection, const QString& baseDir = {});

}  // namespace maptune
