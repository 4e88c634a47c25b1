#pragma once
// Outlines of wide strokes with round joins and caps, built directly: one
// quad per segment plus a polygonal disc per vertex, all wound the same way
// and filled with the non-zero rule. The union is exactly the round-joined,
// round-capped stroke; building it costs a few multiplications per vertex,
// where QPainterPathStroker computes an arc (atan2, sincos, Béziers) for
// every join — it was 70% of the time of a road map.

#include <QList>
#include <QPainterPath>
#include <QPolygonF>

namespace maptune {

class StrokeOutline {
public:
    // `roundCaps` false: butt caps (no discs at the two ends of each part).
    static QPainterPath round(const QList<QPolygonF>& parts, double width, bool roundCaps = true);
    // Vertices of the polygonal disc used for a given stroke width, as AGG's
    // arc approximation would pick (more for wider strokes).
    static int discVertices(double width);
};

}  // namespace maptune
