#include "data/geom_transform/centerline_graph.h"

#include "data/geom_transform/geos_geometry.h"

#include <QHash>

#include <cmath>
#include <limits>
#include <queue>

namespace maptune::shapeops {

namespace {

struct Edge {
    double x0, y0, x1, y1;
};

std::vector<Edge> voronoiEdges(const Geometry& polygon)
{
    GEOSContextHandle_t h = geosForThread();
    Geometry sites = polygon;
    sites.type = Geometry::Type::Point;
    sites.partStart = {0};
    const GeosGeometry in = toGeos(sites);
    if (!in) return {};
    const GeosGeometry diagram(GEOSVoronoiDiagram_r(h, in.get(), nullptr, 0.0, 1));
    if (!diagram) return {};
    std::vector<Edge> out;
    const int n = GEOSGetNumGeometries_r(h, diagram.get());
    for (int i = 0; i < n; ++i) {
        const GEOSCoordSequence* seq = GEOSGeom_getCoordSeq_r(h, GEOSGetGeometryN_r(h, diagram.get(), i));
        unsigned size = 0;
        if (!seq || !GEOSCoordSeq_getSize_r(h, seq, &size) || size < 2) continue;
        Edge e{};
        GEOSCoordSeq_getXY_r(h, seq, 0, &e.x0, &e.y0);
        GEOSCoordSeq_getXY_r(h, seq, 1, &e.x1, &e.y1);
        out.push_back(e);
    }
    return out;
}

// Both ends inside the polygon and no crossing with its boundary.
bool inside(const Edge& e, const Geometry& polygon)
{
    if (!containsPoint(polygon, e.x0, e.y0) || !containsPoint(polygon, e.x1, e.y1)) return false;
    for (int p = 0; p < polygon.partCount(); ++p)
        for (int i = polygon.partStart[p] + 1; i < polygon.partEnd(p); ++i) {
            const double* a = &polygon.xy[size_t(2 * (i - 1))];
            if (segmentsIntersect(e.x0, e.y0, e.x1, e.y1, a[0], a[1], a[2], a[3])) return false;
        }
    return true;
}

struct Graph {
    std::vector<double> x, y;
    std::vector<int> degree;
    std::vector<std::vector<std::pair<int, double>>> next;

    int node(double px, double py)
    {
        const auto key = std::make_pair(px, py);
        if (auto it = index.find(key); it != index.end()) {
            ++degree[size_t(*it)];
            return *it;
        }
        const int id = int(x.size());
        index.insert(key, id);
        x.push_back(px), y.push_back(py), degree.push_back(1), next.emplace_back();
        return id;
    }
    QHash<std::pair<double, double>, int> index;
};

struct Path {
    std::vector<int> nodes;
    double length = -1;
};

// Dijkstra from `from`; the path to the farthest node (the first of equals).
Path longestShortestPath(const Graph& g, int from)
{
    const size_t n = g.x.size();
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    std::vector<int> prev(n, -1);
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
    dist[size_t(from)] = 0;
    open.push({0, from});
    while (!open.empty()) {
        const auto [d, u] = open.top();
        open.pop();
        if (d > dist[size_t(u)]) continue;
        for (const auto& [v, w] : g.next[size_t(u)])
            if (d + w < dist[size_t(v)]) {
                dist[size_t(v)] = d + w;
                prev[size_t(v)] = u;
                open.push({dist[size_t(v)], v});
            }
    }
    Path out;
    int far = from;
    for (size_t i = 0; i < n; ++i)
        if (std::isfinite(dist[i]) && out.length < dist[i]) out.length = dist[i], far = int(i);
    for (int i = far; i != -1; i = prev[size_t(i)]) out.nodes.insert(out.nodes.begin(), i);
    return out;
}

}  // namespace

bool segmentsIntersect(double ax, double ay, double bx, double by, double cx, double cy, double dx, double dy)
{
    const double numerator = (ay - cy) * (dx - cx) - (ax - cx) * (dy - cy);
    const double denominator = (bx - ax) * (dy - cy) - (by - ay) * (dx - cx);
    if (denominator == 0 && numerator == 0) {  // collinear: do they overlap?
        if (ay == cy)
            return (ax >= std::min(cx, dx) && ax <= std::max(cx, dx)) || (bx >= std::min(cx, dx) && bx <= std::max(cx, dx));
        return (ay >= std::min(cy, dy) && ay <= std::max(cy, dy)) || (by >= std::min(cy, dy) && by <= std::max(cy, dy));
    }
    if (denominator == 0) return false;  // parallel
    const double r = numerator / denominator;
    if (r < 0 || r > 1) return false;
    const double s = ((ay - cy) * (bx - ax) - (ax - cx) * (by - ay)) / denominator;
    return s >= 0 && s <= 1;
}

std::vector<double> longestSkeletonPath(const Geometry& polygon)
{
    Graph g;
    for (const Edge& e : voronoiEdges(polygon)) {
        if (!inside(e, polygon)) continue;
        const int a = g.node(e.x0, e.y0), b = g.node(e.x1, e.y1);
        const double w = std::hypot(e.x1 - e.x0, e.y1 - e.y0);
        g.next[size_t(a)].push_back({b, w});
        g.next[size_t(b)].push_back({a, w});
    }
    Path best;
    for (int i = 0; i < int(g.x.size()); ++i) {
        if (g.degree[size_t(i)] != 1) continue;
        // A leaf that ends the best path so far cannot give a longer one.
        if (!best.nodes.empty() && best.nodes.back() == i) continue;
        Path p = longestShortestPath(g, i);
        if (best.nodes.empty() || p.length > best.length) best = std::move(p);
    }
    std::vector<double> out;
    for (int n : best.nodes) out.push_back(g.x[size_t(n)]), out.push_back(g.y[size_t(n)]);
    return out;
}

}  // namespace maptune::shapeops
