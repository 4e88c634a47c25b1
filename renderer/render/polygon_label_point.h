#pragma once
// Where MapServer labels a polygon (msPolygonLabelPoint): the centre of
// gravity of its largest ring when that lies inside, away from the edges
// (more than a tenth of the larger side); otherwise the middle of the
// longest inside span of a scan line through it -- across when the centre
// of gravity is off the bounding box's centre more sideways than up or
// down, else along. Nothing when no span is found or the polygon is
// smaller than `minDimension` on a side.

#include <QList>
#include <QPolygonF>

#include <optional>

namespace maptune {

std::optional<QPointF> polygonLabelPoint(const QList<QPolygonF>& rings, double minDimension = 0);

}  // namespace maptune
