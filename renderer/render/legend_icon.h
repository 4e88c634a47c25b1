#pragma once
// The key of one class in a legend (msDrawLegendIcon): its KEYIMAGE, else its
// styles drawn on a zigzag line (LINE layers), a marker at the centre (POINT)
// or a box (POLYGON, RASTER and the rest).

#include "mapfile/map_def.h"

#include <QPainter>
#include <QRect>

namespace maptune {

void drawLegendIcon(QPainter& p, const MapDef& map, const LayerDef& layer, const ClassDef& cls, const QRect& key);

}  // namespace maptune
