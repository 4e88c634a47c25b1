#include "render/contour_outline.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace maptune {

namespace {

constexpr double kMiterLimit = 4.0;        // math_stroke's miter_limit
constexpr double kInnerMiterLimit = 1.01;  // and inner_miter_limit

double length(QPointF v) { return std::sqrt(v.x() * v.x() + v.y() * v.y()); }

std::optional<QPointF> crossing(QPointF a1, QPointF a2, QPointF b1, QPointF b2)
{
    const double den = (a2.x() - a1.x()) * (b2.y() - b1.y()) - (a2.y() - a1.y()) * (b2.x() - b1.x());
    if (std::abs(den) < 1e-14) return std::nullopt;
    const double t = ((a1.y() - b1.y()) * (b2.x() - b1.x()) - (a1.x() - b1.x()) * (b2.y() - b1.y())) / den;
    return a1 + (a2 - a1) * t;
}

// The offset of the join at v1 between edges v0-v1 and v1-v2 (calc_join).
void join(QPolygonF& out, QPointF v0, QPointF v1, QPointF v2, double len1, double len2, double d)
{
    const QPointF n1 = QPointF(v1.y() - v0.y(), -(v1.x() - v0.x())) * (d / len1);
    const QPointF n2 = QPointF(v2.y() - v1.y(), -(v2.x() - v1.x())) * (d / len2);
    const QPointF p1 = v1 + n1, p2 = v1 + n2;
    // AGG's cross_product(v0, v1, v2): positive where the contour turns
    // towards the offset side, which makes the join an inner one.
    const double cross = (v2.x() - v1.x()) * (v1.y() - v0.y()) - (v2.y() - v1.y()) * (v1.x() - v0.x());
    const std::optional<QPointF> xi = crossing(v0 + n1, p1, p2, v2 + n2);
    if (cross > 1e-14) {
        // Inner join: the crossing, unless it lies too far (then a bevel).
        const double limit = std::max(std::min(len1, len2) / d, kInnerMiterLimit);
        if (xi && length(*xi - v1) <= d * limit) out << *xi;
        else out << p1 << p2;
        return;
    }
    const double bevel = length((p1 + p2) / 2 - v1);
    if (d - bevel < d / 1024) {  // nearly straight on: one point does
        out << (xi ? *xi : p1);
        return;
    }
    if (!xi) {
        const QPointF e1 = (v1 - v0) * (d / len1), e2 = (v2 - v1) * (d / len2);
        out << p1 + e1 * kMiterLimit << p2 - e2 * kMiterLimit;
        return;
    }
    const double reach = length(*xi - v1), limit = d * kMiterLimit;
    if (reach <= limit) {
        out << *xi;
        return;
    }
    // Past the limit: the miter cut square at the limit.
    const double t = (limit - bevel) / (reach - bevel);
    out << p1 + (*xi - p1) * t << p2 + (*xi - p2) * t;
}

}  // namespace

QList<QPolygonF> ContourOutline::offset(const QList<QPolygonF>& contours, double distance)
{
    QList<QPolygonF> out;
    for (const QPolygonF& contour : contours) {
        // Coincident points dropped, the closing one too (vertex_sequence).
        QPolygonF v;
        v.reserve(contour.size());
        for (const QPointF& p : contour)
            if (v.isEmpty() || length(p - v.last()) > 1e-14) v << p;
        while (v.size() > 1 && length(v.first() - v.last()) <= 1e-14) v.removeLast();
        const qsizetype n = v.size();
        if (n < 3) continue;
        QPolygonF ring;
        ring.reserve(n + 8);
        for (qsizetype i = 0; i < n; ++i) {
            const QPointF v0 = v[(i + n - 1) % n], v1 = v[i], v2 = v[(i + 1) % n];
            join(ring, v0, v1, v2, length(v1 - v0), length(v2 - v1), distance);
        }
        out << ring;
    }
    return out;
}

}  // namespace maptune
