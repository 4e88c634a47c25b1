#include "render/hatch_fill.h"

#include "render/polygon_fill.h"

#include <QPainterPath>
#include <QPainterPathStroker>

#include <cmath>

namespace maptune {

QList<QLineF> HatchFill::lines(const QRectF& bounds, double spacing, double angle, double width, QPointF origin)
{
    QList<QLineF> out;
    if (!(spacing > 0) || bounds.isEmpty()) return out;
    // The box the lines cover: the bounds grown by half a diagonal width.
    const double grow = width * 0.7072;
    const int w = int(bounds.width() + grow * 2) + 1, h = int(bounds.height() + grow * 2) + 1;
    const double ox = bounds.left() - grow, oy = bounds.top() - grow;
    // The first line at or after the box's corner (`corner`: its distance
    // from the origin's line).
    const auto first = [spacing](double corner) {
        double r = spacing - std::fmod(corner, spacing);
        if (corner < 0) r -= spacing;
        return r;
    };
    angle = std::fmod(angle, 360.0);
    if (angle < 0) angle += 360;
    if (angle >= 180) angle -= 180;
    if (angle == 0) {
        for (double y = first(oy - origin.y()); y < h; y += spacing) out << QLineF(ox, oy + y, ox + w, oy + y);
        return out;
    }
    if (angle == 90) {
        for (double x = first(ox - origin.x()); x < w; x += spacing) out << QLineF(ox + x, oy, ox + x, oy + h);
        return out;
    }
    // Lines r = x cos(theta) + y sin(theta) in the box, cut by its sides.
    const double theta = (90 - angle) * M_PI / 180;
    const double ct = std::cos(theta);
    double st = std::sin(theta);
    const bool steep = angle >= 90;  // laid upside down, then flipped
    const double reference = origin.x() * ct + origin.y() * st;
    const double r0 = first((steep ? ox * ct + (oy + h) * st : ox * ct + oy * st) - reference);
    if (steep) st = -st;
    const double rmax = std::sqrt(double(w) * w + double(h) * h);
    for (double r = r0; r < rmax; r += spacing) {
        QList<QPointF> cut;
        if (const double y = r / st; y >= 0 && y <= h) cut << QPointF(0, y);
        if (const double y = (r - w * ct) / st; y >= 0 && y <= h) cut << QPointF(w, y);
        if (cut.size() < 2)
            if (const double x = r / ct; x >= 0 && x <= w) cut << QPointF(x, 0);
        if (cut.size() < 2)
            if (const double x = (r - h * st) / ct; x >= 0 && x <= w) cut << QPointF(x, h);
        if (cut.size() < 2 || cut[0] == cut[1]) continue;
        if (steep) cut[0].setY(h - cut[0].y()), cut[1].setY(h - cut[1].y());
        out << QLineF(cut[0] + QPointF(ox, oy), cut[1] + QPointF(ox, oy));
    }
    return out;
}

void HatchFill::fill(QPainter& p, const QList<QPolygonF>& rings, double spacing, double width, const QList<double>& pattern,
                     double angle, const QColor& color, QPointF origin)
{
    if (!color.isValid() || rings.isEmpty() || !(width > 0)) return;
    QPainterPath area;
    area.setFillRule(Qt::OddEvenFill);
    for (const QPolygonF& ring : rings) area.addPolygon(ring);
    QPainterPath hatch;
    for (const QLineF& l : lines(area.boundingRect(), spacing, angle, width, origin)) {
        hatch.moveTo(l.p1());
        hatch.lineTo(l.p2());
    }
    if (hatch.isEmpty()) return;
    QPainterPathStroker stroker;
    stroker.setWidth(width);
    stroker.setCapStyle(Qt::FlatCap);
    if (pattern.size() > 1) {
        QList<qreal> dashes;  // Qt counts dashes in widths
        for (qsizetype i = 0; i + 1 < pattern.size(); i += 2) dashes << pattern[i] / width << pattern[i + 1] / width;
        stroker.setDashPattern(dashes);
    }
    QPainterPath strokes = stroker.createStroke(hatch);
    strokes.setFillRule(Qt::WindingFill);
    PolygonFill::fill(p, strokes.intersected(area), color);
}

}  // namespace maptune
