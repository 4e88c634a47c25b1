#pragma once
// Polygon fills with AGG's coverage gamma. MapServer rasterises polygons
// through agg::gamma_linear(0, GAMMA) (GAMMA defaults to 0.75), so edge
// pixels covered by 75% or more are fully opaque and the rest are scaled up.
// Qt's rasteriser computes the same exact-area coverage; this remaps it.

#include <QColor>
#include <QPainter>
#include <QPainterPath>

namespace maptune {

class PolygonFill {
public:
    static constexpr double DefaultGamma = 0.75;
    // Fills `path` (in the painter's current coordinates) with `color`.
    static void fill(QPainter& p, const QPainterPath& path, const QColor& color, double gamma = DefaultGamma);
};

}  // namespace maptune
