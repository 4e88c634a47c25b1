#pragma once
// Perpendicular line offsets (STYLE OFFSET x -99 / x -999), computed as
// MapServer does: GEOS offset curves on pixel coordinates (4 segments per
// quadrant, mitre joins limited to 1.5 x the offset).

#include <QList>
#include <QPolygonF>

namespace maptune {

class LineOffset {
public:
    static constexpr double SingleSided = -99;   // OFFSET x -99: one curve at x
    static constexpr double DoubleSided = -999;  // OFFSET x -999: curves at +x/2 and -x/2

    // Each part offset by `offset` pixels (positive: to the left of the
    // direction of travel in a y-up frame, i.e. GEOS's convention on pixel
    // coordinates). A part GEOS cannot offset is kept as it is.
    static QList<QPolygonF> offset(const QList<QPolygonF>& parts, double offset);
    // Dispatches on OFFSET's y value: -99, -999, or a plain translation.
    static QList<QPolygonF> apply(const QList<QPolygonF>& parts, double offsetX, double offsetY);
};

}  // namespace maptune
