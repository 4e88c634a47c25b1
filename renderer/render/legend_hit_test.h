#pragma once
// A content-dependent legend's hit test (MapServer's msHitTestMap): the
// classes of a layer that would draw a feature inside a box -- features the
// layer's source returns for the box whose geometry meets it, that pass the
// FILTER, classified as for drawing.

#include "data/engine_context.h"
#include "geo/crs.h"
#include "mapfile/map_def.h"

#include <QSet>

#include <optional>

namespace maptune {

// `box` in `crs` (invalid: the layer's own). nullopt when the layer cannot be
// read: the caller then lists every class, as if nothing were known.
std::optional<QSet<int>> legendClassesHit(const MapDef& map, const EngineContext& context, const LayerDef& layer,
                                          const Rect& box, const Crs& crs);

}  // namespace maptune
