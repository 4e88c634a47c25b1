#pragma once
// Where a layer's data lies. layerExtent: what OWS capabilities advertise
// (msOWSGetLayerExtent: wms_extent / ows_extent metadata, EXTENT, else the
// data's own), in the layer's CRS. layerExtentInMapCrs: the same, else the
// bounds of its features (inline FEATUREs know no extent), reprojected to
// the map's PROJECTION and padded so that a single point or a line gets
// some room -- "zoom to layer". Both may open data: not on a UI thread.

#include "data/engine_context.h"
#include "mapfile/map_def.h"

#include <optional>

namespace maptune {

std::optional<Rect> layerExtent(const MapDef& map, const LayerDef& layer, const EngineContext& context);
std::optional<Rect> layerExtentInMapCrs(const MapDef& map, const LayerDef& layer, const EngineContext& context,
                                        QString* error);

}  // namespace maptune
