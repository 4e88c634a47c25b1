#pragma once
// Polygons filled with a HATCH symbol (msHatchPolygon): parallel lines SIZE
// pixels apart at ANGLE, WIDTH wide (dashed by PATTERN), one of them through
// the map's coordinate origin so that neighbouring polygons' (and tiles')
// hatches line up, clipped to the polygon and filled with the polygon gamma.

#include <QColor>
#include <QLineF>
#include <QList>
#include <QPainter>
#include <QPolygonF>
#include <QRectF>

namespace maptune {

class HatchFill {
public:
    // The hatch's centre lines over `bounds` (pixels), grown by the lines'
    // reach, as createHatch lays them; `origin`: the pixel a line goes through
    // (MapServer's image refpt: the map's 0, 0).
    static QList<QLineF> lines(const QRectF& bounds, double spacing, double angle, double width, QPointF origin = {});

    static void fill(QPainter& p, const QList<QPolygonF>& rings, double spacing, double width, const QList<double>& pattern,
                     double angle, const QColor& color, QPointF origin);
};

}  // namespace maptune
