#include "render/label_footprint.h"

#include <algorithm>

namespace maptune {

namespace {

// Whether some edge normal of `a` separates the two polygons.
bool separatedByEdgeOf(const QPolygonF& a, const QPolygonF& b)
{
    const qsizetype n = a.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QPointF e = a[(i + 1) % n] - a[i];
        const QPointF axis(-e.y(), e.x());
        if (axis.isNull()) continue;
        auto project = [&](const QPolygonF& p, double& lo, double& hi) {
            lo = hi = QPointF::dotProduct(p.first(), axis);
            for (const QPointF& q : p) {
                const double d = QPointF::dotProduct(q, axis);
                lo = std::min(lo, d);
                hi = std::max(hi, d);
            }
        };
        double aLo, aHi, bLo, bHi;
        project(a, aLo, aHi);
        project(b, bLo, bHi);
        if (aHi <= bLo || bHi <= aLo) return true;
    }
    return false;
}

}  // namespace

void LabelFootprint::add(const QPolygonF& box)
{
    if (box.isEmpty()) return;
    QPolygonF open = box;
    if (open.size() > 1 && open.first() == open.last()) open.removeLast();
    const QRectF r = open.boundingRect();
    m_boxes << open;
    m_boxBounds << r;
    m_bounds = m_bounds.isNull() ? r : m_bounds.united(r);
}

bool LabelFootprint::convexOverlap(const QPolygonF& a, const QPolygonF& b)
{
    if (a.isEmpty() || b.isEmpty()) return false;
    return !separatedByEdgeOf(a, b) && !separatedByEdgeOf(b, a);
}

bool LabelFootprint::intersects(const LabelFootprint& other) const
{
    if (!m_bounds.intersects(other.m_bounds)) return false;
    for (qsizetype i = 0; i < m_boxes.size(); ++i) {
        if (!m_boxBounds[i].intersects(other.m_bounds)) continue;
        for (qsizetype j = 0; j < other.m_boxes.size(); ++j)
            if (m_boxBounds[i].intersects(other.m_boxBounds[j]) && convexOverlap(m_boxes[i], other.m_boxes[j]))
                return true;
    }
    return false;
}

bool segmentsIntersect(const QLineF& s, const QLineF& t)
{
    const QPointF r = s.p2() - s.p1(), q = t.p2() - t.p1(), d = t.p1() - s.p1();
    const double denom = r.x() * q.y() - r.y() * q.x();
    const double cross = d.x() * r.y() - d.y() * r.x();
    if (denom == 0) {
        if (cross != 0) return false;  // parallel, apart
        // Collinear: do the projections on s overlap?
        const double len = QPointF::dotProduct(r, r);
        if (len == 0) return s.p1() == t.p1() || s.p1() == t.p2();
        const double a = QPointF::dotProduct(d, r) / len, b = QPointF::dotProduct(t.p2() - s.p1(), r) / len;
        return std::max(a, b) >= 0 && std::min(a, b) <= 1;
    }
    const double u = (d.x() * q.y() - d.y() * q.x()) / denom;
    const double v = cross / denom;
    return u >= 0 && u <= 1 && v >= 0 && v <= 1;
}

bool LabelFootprint::crossedBy(const QLineF& segment) const
{
    const QRectF box = QRectF(segment.p1(), segment.p2()).normalized();
    if (!m_bounds.intersects(box.adjusted(-1e-9, -1e-9, 1e-9, 1e-9))) return false;
    for (const QPolygonF& b : m_boxes)
        for (qsizetype i = 0; i < b.size(); ++i)
            if (segmentsIntersect(segment, QLineF(b[i], b[(i + 1) % b.size()]))) return true;
    return false;
}

}  // namespace maptune
