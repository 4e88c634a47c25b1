#include "data/geometry_relate.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

struct Segment {
    double ax, ay, bx, by;
};

// Calls f(segment) for each edge of a line or ring part; a ring's closing
// edge is included (polygon rings may or may not repeat their first vertex).
template <typename F>
bool anyEdge(const Geometry& g, F&& f)
{
    const bool closeRings = g.type == Geometry::Type::Polygon;
    for (int part = 0; part < g.partCount(); ++part) {
        const int s = g.partStart[part], e = g.partEnd(part);
        for (int i = s + 1; i < e; ++i)
            if (f(Segment{g.xy[2 * i - 2], g.xy[2 * i - 1], g.xy[2 * i], g.xy[2 * i + 1]})) return true;
        if (closeRings && e - s > 2 && f(Segment{g.xy[2 * (e - 1)], g.xy[2 * (e - 1) + 1], g.xy[2 * s], g.xy[2 * s + 1]}))
            return true;
    }
    return false;
}

double cross(double ax, double ay, double bx, double by, double cx, double cy)
{
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

bool onSegment(double ax, double ay, double bx, double by, double px, double py)
{
    return std::min(ax, bx) <= px && px <= std::max(ax, bx) && std::min(ay, by) <= py && py <= std::max(ay, by);
}

bool segmentsCross(const Segment& p, const Segment& q)
{
    const double d1 = cross(q.ax, q.ay, q.bx, q.by, p.ax, p.ay);
    const double d2 = cross(q.ax, q.ay, q.bx, q.by, p.bx, p.by);
    const double d3 = cross(p.ax, p.ay, p.bx, p.by, q.ax, q.ay);
    const double d4 = cross(p.ax, p.ay, p.bx, p.by, q.bx, q.by);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
    if (d1 == 0 && onSegment(q.ax, q.ay, q.bx, q.by, p.ax, p.ay)) return true;
    if (d2 == 0 && onSegment(q.ax, q.ay, q.bx, q.by, p.bx, p.by)) return true;
    if (d3 == 0 && onSegment(p.ax, p.ay, p.bx, p.by, q.ax, q.ay)) return true;
    if (d4 == 0 && onSegment(p.ax, p.ay, p.bx, p.by, q.bx, q.by)) return true;
    return false;
}

double pointSegmentDistance(double px, double py, const Segment& s)
{
    const double dx = s.bx - s.ax, dy = s.by - s.ay;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - s.ax) * dx + (py - s.ay) * dy) / len2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(px - (s.ax + t * dx), py - (s.ay + t * dy));
}

double segmentDistance(const Segment& p, const Segment& q)
{
    if (segmentsCross(p, q)) return 0;
    return std::min({pointSegmentDistance(p.ax, p.ay, q), pointSegmentDistance(p.bx, p.by, q),
                     pointSegmentDistance(q.ax, q.ay, p), pointSegmentDistance(q.bx, q.by, p)});
}

bool anyVertexInside(const Geometry& g, const Geometry& area)
{
    for (int i = 0; i < g.pointCount(); ++i)
        if (containsPoint(area, g.xy[2 * i], g.xy[2 * i + 1])) return true;
    return false;
}

bool hasEdges(const Geometry& g)
{
    return g.type == Geometry::Type::Line || g.type == Geometry::Type::Polygon;
}

}  // namespace

Geometry rectGeometry(const Rect& r)
{
    Geometry g;
    g.type = Geometry::Type::Polygon;
    g.xy = {r.minx, r.miny, r.minx, r.maxy, r.maxx, r.maxy, r.maxx, r.miny, r.minx, r.miny};
    g.partStart = {0};
    return g;
}

bool intersectsPolygon(const Geometry& shape, const Geometry& area)
{
    if (shape.isEmpty() || area.isEmpty()) return false;
    if (anyVertexInside(shape, area)) return true;
    if (shape.type == Geometry::Type::Polygon && anyVertexInside(area, shape)) return true;
    if (!hasEdges(shape)) return false;
    return anyEdge(shape, [&](const Segment& s) { return anyEdge(area, [&](const Segment& t) { return segmentsCross(s, t); }); });
}

double distanceBetween(const Geometry& a, const Geometry& b)
{
    if (a.isEmpty() || b.isEmpty()) return HUGE_VAL;
    if (b.type == Geometry::Type::Polygon && intersectsPolygon(a, b)) return 0;
    if (a.type == Geometry::Type::Polygon && intersectsPolygon(b, a)) return 0;
    double best = HUGE_VAL;
    // Points (and one-point parts) against the other's vertices and edges.
    auto pointsAgainst = [&best](const Geometry& points, const Geometry& other) {
        for (int i = 0; i < points.pointCount(); ++i) best = std::min(best, distanceToPoint(other, points.xy[2 * i], points.xy[2 * i + 1]));
    };
    if (!hasEdges(a) || !hasEdges(b)) {
        if (!hasEdges(a)) pointsAgainst(a, b);
        else pointsAgainst(b, a);
        return best;
    }
    anyEdge(a, [&](const Segment& s) {
        anyEdge(b, [&](const Segment& t) {
            best = std::min(best, segmentDistance(s, t));
            return best == 0;
        });
        return best == 0;
    });
    return best;
}

}  // namespace maptune
