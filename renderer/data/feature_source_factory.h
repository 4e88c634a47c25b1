#pragma once

#include "data/feature_source.h"
#include "mapfile/map_def.h"

#include <memory>

namespace maptune {

// Resolves a path from a mapfile: absolute stays, else relative to SHAPEPATH
// (itself relative to the mapfile folder), falling back to the mapfile folder.
QString resolveDataPath(const MapDef& map, const QString& path);

// Opens the source a vector layer reads from: inline FEATUREs, OGR (shapefiles,
// GeoPackage, GeoJSON, ... via DATA or CONNECTIONTYPE OGR). Null + message
// naming the layer and file on failure.
std::unique_ptr<FeatureSource> openFeatureSource(const MapDef& map, const LayerDef& layer, QString* error);

}  // namespace maptune
