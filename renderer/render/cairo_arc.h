#pragma once
// A full ellipse as cairo_arc builds it (cairo-arc.c): the circle split into
// two halves, each into as many Bézier segments as cairo's 0.1-pixel
// tolerance needs for the ellipse's major axis. MapServer's SVG output draws
// ellipse symbols this way, so our SVG writes the same curves.

#include <QPainterPath>

namespace maptune {

struct CairoArc {
    // Centred on the origin, radii rx (x) and ry (y), starting at (rx, 0).
    static QPainterPath ellipse(double rx, double ry);
    // The number of segments cairo uses for `angle` radians of a circle
    // whose major axis is `majorRadius` pixels.
    static int segmentsNeeded(double angle, double majorRadius);
};

}  // namespace maptune
