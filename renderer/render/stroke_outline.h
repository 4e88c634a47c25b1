#pragma once
// Outlines of wide strokes with round joins and caps, built directly: runs
// of gently turning segments become mitred strips (with half-disc caps at
// the two ends of a line), sharp turns get a round wedge on their outer
// side; all wound the same way and filled with the non-zero rule. Building
// it costs a few multiplications per vertex, where QPainterPathStroker
// computes an arc (atan2, sincos, Béziers) for every join — it was 70% of
// the time of a road map.

#include "render/polygon_sink.h"

#include <QList>
#include <QPainterPath>
#include <QPolygonF>

namespace maptune {

class StrokeOutline {
public:
    // `roundCaps` false: butt caps (no discs at the two ends of each part).
    static QPainterPath round(const QList<QPolygonF>& parts, double width, bool roundCaps = true);
    // The same outline, polygon by polygon (each clockwise, for the non-zero rule).
    static void round(const QList<QPolygonF>& parts, double width, bool roundCaps, PolygonSink& sink);
    // Open lines of width <= 1 as AGG strokes them: butt caps, bevel joins.
    static void hairline(const QList<QPolygonF>& parts, double width, PolygonSink& sink);
    // Vertices of the polygonal disc used for a given stroke width, as AGG's
    // arc approximation would pick (more for wider strokes).
    static int discVertices(double width);

private:
    static void build(const QList<QPolygonF>& parts, double width, bool roundCaps, bool roundJoins, PolygonSink& sink);
};

}  // namespace maptune
