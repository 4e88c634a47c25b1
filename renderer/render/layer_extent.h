#pragma once
// Where a layer's data lies. layerExtent: what OWS capabilities advertise
// (msOWSGetLayerExtent: wms_extent / ows_extent metadata, EXTENT, else the
// data's own), in the layer's CRS. layerExtentInMapCrs: the same, else the
// bounds of its features (inline FEATUREs know no extent), reprojected to
// the map's PROJECTION and padded so that a single point or a line gets
// some room -- "zoom to layer". Both may open data: not on a UI thread.
// layerExtentInMapCrs tells an extent that is simply unknown (no EXTENT, no
// features: an empty optional) from one that could not be found (data that
// does not open or query, a box that does not reproject: the error).

#include "core/result.h"
#include "data/engine_context.h"
#include "mapfile/map_def.h"

#include <optional>

namespace maptune {

std::optional<Rect> layerExtent(const MapDef& map, const LayerDef& layer, const EngineContext& context);
Result<std::optional<Rect>> layerExtentInMapCrs(const MapDef& map, const LayerDef& layer,
                                                const EngineContext& context);

}  // namespace maptune
