#pragma once

#include "data/feature_source.h"
#include "mapfile/map_def.h"
#include "mapfile/map_paths.h"

#include <memory>

namespace maptune {

// Opens the source a vector layer reads from: inline FEATUREs, OGR (shapefiles,
// GeoPackage, GeoJSON, ... via DATA or CONNECTIONTYPE OGR). Null + message
// naming the layer and file on failure.
std::unique_ptr<FeatureSource> openFeatureSource(const MapDef& map, const LayerDef& layer, QString* error);

}  // namespace maptune
