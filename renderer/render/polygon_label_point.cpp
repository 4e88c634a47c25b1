#include "render/polygon_label_point.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace maptune {

namespace {

// Rings as MapServer keeps them: closed, first point repeated at the end.
QList<QPolygonF> closed(const QList<QPolygonF>& rings)
{
    QList<QPolygonF> out;
    for (QPolygonF r : rings) {
        if (r.size() < 2) continue;
        if (r.first() != r.last()) r << r.first();
        out << r;
    }
    return out;
}

std::optional<QPointF> centreOfGravity(const QList<QPolygonF>& rings)
{
    double sx = 0, sy = 0, largest = 0;
    for (const QPolygonF& r : rings) {
        double tsx = 0, tsy = 0, s = 0;
        for (qsizetype j = 0; j + 1 < r.size(); ++j) {
            const double a = r[j].x() * r[j + 1].y() - r[j + 1].x() * r[j].y();
            s += a;
            tsx += (r[j].x() + r[j + 1].x()) * a;
            tsy += (r[j].y() + r[j + 1].y()) * a;
        }
        const double area = std::abs(s / 2);
        if (area > largest) {
            largest = area;
            sx = s > 0 ? tsx : -tsx;
            sy = s > 0 ? tsy : -tsy;
        }
    }
    if (largest == 0) return std::nullopt;
    return QPointF(sx / (6 * largest), sy / (6 * largest));
}

bool inside(QPointF p, const QList<QPolygonF>& rings)
{
    bool in = false;
    for (const QPolygonF& r : rings)
        for (qsizetype i = 0, j = r.size() - 1; i < r.size(); j = i++)
            if (((r[i].y() > p.y()) != (r[j].y() > p.y()))
                && p.x() < (r[j].x() - r[i].x()) * (p.y() - r[i].y()) / (r[j].y() - r[i].y()) + r[i].x())
                in = !in;
    return in;
}

double squareDistanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF d = b - a;
    const double len = d.x() * d.x() + d.y() * d.y();
    double t = len > 0 ? ((p.x() - a.x()) * d.x() + (p.y() - a.y()) * d.y()) / len : 0;
    t = std::clamp(t, 0.0, 1.0);
    const QPointF q = a + d * t - p;
    return q.x() * q.x() + q.y() * q.y();
}

// The scan line at `at` (y when `across`, else x): the middle of its longest
// inside span. `along(p)` is the coordinate the line runs along, `at(p)` the
// one it is fixed in.
std::optional<QPointF> longestSpan(const QList<QPolygonF>& rings, double at, bool across)
{
    auto fixed = [across](QPointF p) { return across ? p.y() : p.x(); };
    auto along = [across](QPointF p) { return across ? p.x() : p.y(); };
    // A line that meets no vertex: halfway between the nearest vertices on
    // either side (MapServer's search, its starting values included).
    double max = at - 1, min = at + 1;
    for (const QPolygonF& r : rings) {
        if (min < at && max >= at) break;
        for (const QPointF& p : r) {
            if (min < at && max >= at) break;
            if (fixed(p) < at) min = fixed(p);
            if (fixed(p) >= at) max = fixed(p);
        }
    }
    for (const QPolygonF& r : rings)
        for (const QPointF& p : r) {
            if (fixed(p) < at && at - fixed(p) < at - min) min = fixed(p);
            if (fixed(p) >= at && fixed(p) - at < max - at) max = fixed(p);
        }
    if (min == max) return std::nullopt;
    const double line = (max + min) / 2;

    std::vector<double> hits;
    for (const QPolygonF& r : rings) {
        QPointF p1 = r.last();
        for (const QPointF& p2 : r) {
            if (line >= std::min(fixed(p1), fixed(p2)) && line <= std::max(fixed(p1), fixed(p2)) && fixed(p1) != fixed(p2)) {
                if (!across && p1.y() == p2.y()) hits.push_back(p1.y());
                else hits.push_back(along(p1) + (line - fixed(p1)) * (along(p2) - along(p1)) / (fixed(p2) - fixed(p1)));
            }
            p1 = p2;
        }
    }
    std::sort(hits.begin(), hits.end());
    double best = 0;
    std::optional<QPointF> out;
    for (size_t i = 0; i < hits.size(); i += 2) {
        const double other = i + 1 < hits.size() ? hits[i + 1] : 0;  // MapServer reads a zeroed slot
        const double len = std::abs(hits[i] - other);
        if (len > best) {
            best = len;
            const double mid = (hits[i] + other) / 2;
            out = across ? QPointF(mid, line) : QPointF(line, mid);
        }
    }
    return out;
}

}  // namespace

std::optional<QPointF> polygonLabelPoint(const QList<QPolygonF>& input, double minDimension)
{
    const QList<QPolygonF> rings = closed(input);
    if (rings.isEmpty()) return std::nullopt;
    QRectF bounds;
    for (const QPolygonF& r : rings) bounds = bounds.united(r.boundingRect());
    if (minDimension > 0 && std::min(bounds.width(), bounds.height()) < minDimension) return std::nullopt;
    const QPointF centre = bounds.center();
    const std::optional<QPointF> gravity = centreOfGravity(rings);
    if (!gravity) return std::nullopt;
    if (inside(*gravity, rings)) {
        double nearest = -1;
        for (const QPolygonF& r : rings)
            for (qsizetype i = 1; i < r.size(); ++i) {
                const double d = squareDistanceToSegment(*gravity, r[i - 1], r[i]);
                if (d < nearest || nearest < 0) nearest = d;
            }
        if (std::sqrt(nearest) > 0.1 * std::max(bounds.width(), bounds.height())) return gravity;
    }
    // MapServer compares the offsets as whole numbers.
    const bool across = std::abs(int(gravity->x()) - int(centre.x())) > std::abs(int(gravity->y()) - int(centre.y()));
    return longestSpan(rings, across ? gravity->y() : gravity->x(), across);
}

}  // namespace maptune
