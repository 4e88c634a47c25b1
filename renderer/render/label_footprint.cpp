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

}  // namespace maptune
