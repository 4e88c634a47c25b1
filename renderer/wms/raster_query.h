#pragma once
// Point queries on RASTER layers as MapServer's msRasterQueryByPoint: the
// pixels whose centres lie near the query point become point "features" with
// the items x, y, value_0.., value_list, class (classified layers), red,
// green, blue — values formatted like msRASTERLayerGetShape (%.8g).

#include "data/feature_source.h"
#include "geo/crs.h"
#include "mapfile/map_def.h"

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
};

std::optional<RasterQueryResult> queryRasterLayer(const MapDef& map, const LayerDef& layer, const Crs& mapCrs,
                                                  const RasterQueryPoint& point, QString* error);

}  // namespace maptune
