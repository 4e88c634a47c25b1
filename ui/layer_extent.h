#pragma once
// "Zoom to layer": a layer's extent in the map CRS. What capabilities would
// advertise (wms_extent, EXTENT, the data's own extent), else the bounds of
// its features (inline FEATUREs know no extent), reprojected to the map's
// PROJECTION and padded so that a single point or a line gets some room.
// May open data: call it off the UI thread.

#include "mapfile/map_def.h"

#include <optional>

namespace maptune {

std::optional<Rect> layerExtentInMapCrs(const MapDef& map, const LayerDef& layer, QString* error);

}  // namespace maptune
