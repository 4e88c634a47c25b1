#pragma once

#include "core/result.h"
#include "data/engine_context.h"
#include "data/feature_source.h"
#include "mapfile/map_def.h"
#include "mapfile/map_paths.h"

#include <memory>

namespace maptune {

// Opens the source a vector layer reads from: inline FEATUREs, OGR (shapefiles,
// GeoPackage, GeoJSON, ... via DATA or CONNECTIONTYPE OGR), PostGIS through
// the context's pool. On failure an error naming the layer and file; never null.
Result<std::unique_ptr<FeatureSource>> openFeatureSource(const MapDef& map, const LayerDef& layer,
                                                         const EngineContext& context);

}  // namespace maptune
