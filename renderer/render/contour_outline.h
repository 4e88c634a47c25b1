#pragma once
// AGG's conv_contour, which MapServer draws text halos with: each closed
// contour offset by a distance to the left of its direction of travel (in
// image coordinates, y down), mitred joins (limit 4) outside, inner joins
// at the offset lines' crossing. TrueType outlines wind so that this grows
// the glyphs; filled non-zero, the result is the halo.

#include <QList>
#include <QPolygonF>

namespace maptune {

class ContourOutline {
public:
    static QList<QPolygonF> offset(const QList<QPolygonF>& contours, double distance);
};

}  // namespace maptune
