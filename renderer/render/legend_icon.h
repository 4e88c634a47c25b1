#pragma once
// The key of one class in a legend (msDrawLegendIcon): its KEYIMAGE, else its
// styles drawn on a zigzag line (LINE layers), a marker at the centre (POINT)
// or a box (POLYGON, RASTER and the rest); STYLE GEOMTRANSFORMs on that
// shape. At a scale (`scaleDenom` > 0: mode=legend, embedded legends) styles
// and labels out of scale are left out and the label styles with
// GEOMTRANSFORM labelpnt are drawn at the centre; a class with no style
// and no such marker shows "Az" in its first label's font.

#include "mapfile/map_def.h"

#include <QPainter>
#include <QRect>

namespace maptune {

void drawLegendIcon(QPainter& p, const MapDef& map, const LayerDef& layer, const ClassDef& cls, const QRect& key,
                    double scaleDenom = 0);

}  // namespace maptune
