#pragma once
// Point queries on RASTER layers as MapServer's msRasterQueryByPoint: the
// pixels whose centres lie near the query point become point "features" with
// the items x, y, value_0.., value_list, class (classified layers), red,
// green, blue — values formatted like msRASTERLayerGetShape (%.8g).

#include "core/result.h"
#include "data/feature_source.h"
#include "expr/feature_classifier.h"
#include "geo/crs.h"
#include "mapfile/map_def.h"

#include <memory>
#include <optional>

namespace maptune {

struct RasterQueryResult {
    QStringList fields;
    QList<Feature> features;   // one point per pixel, in the map (request) CRS
};

struct RasterQueryPoint {
    double x = 0, y = 0;       // in mapCrs
    double cellSize = 0;       // map units per output pixel (PIXELS tolerance)
    int maxResults = 1;        // 1: the single nearest pixel (MS_SINGLE)
    std::optional<double> tolerancePixels;  // mapserv's RADIUS: overrides the layer's TOLERANCE
    // The layer's class expressions as prepared; null: compiled for this query.
    std::shared_ptr<const LayerExpressions> expressions;
};

Result<RasterQueryResult> queryRasterLayer(const MapDef& map, const LayerDef& layer, const Crs& mapCrs,
                                           const RasterQueryPoint& point);

}  // namespace maptune
