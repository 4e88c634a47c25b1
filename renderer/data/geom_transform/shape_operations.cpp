#include "data/geom_transform/shape_operations.h"

#include "data/geom_transform/centerline_graph.h"
#include "data/geom_transform/geos_geometry.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace maptune::shapeops {

namespace {

Geometry ringOf(const Geometry& g, int part)
{
    Geometry out;
    out.type = Geometry::Type::Polygon;
    out.xy.assign(g.xy.begin() + 2 * g.partStart[part], g.xy.begin() + 2 * g.partEnd(part));
    out.partStart = {0};
    return out;
}

bool allFinite(const Geometry& g)
{
    return std::all_of(g.xy.begin(), g.xy.end(), [](double v) { return std::isfinite(v); });
}

// One GEOS operation on one input: an empty input gives an empty result.
// Coordinates that are not finite never reach GEOS (it is not safe with them).
Result<Geometry> throughGeos(const Geometry& g, const QString& function,
                             const std::function<GEOSGeometry*(GEOSContextHandle_t, const GEOSGeometry*)>& op)
{
    if (g.isEmpty()) return Geometry();
    if (!allFinite(g)) return Error(QString());
    const GeosGeometry in = toGeos(g);
    if (!in) return Error(QString());
    const GeosGeometry out(op(geosForThread(), in.get()));
    if (!out) return Error(QStringLiteral("%1(): GEOS library error.").arg(function));
    return fromGeos(out.get());
}

struct Point {
    double x, y;
};

double distance(const Point& a, const Point& b)
{
    return std::hypot(b.x - a.x, b.y - a.y);
}

using Line = std::vector<Point>;

std::vector<Line> linesOf(const Geometry& g)
{
    std::vector<Line> out;
    for (int p = 0; p < g.partCount(); ++p) {
        Line line;
        for (int i = g.partStart[p]; i < g.partEnd(p); ++i) line.push_back({g.xy[2 * i], g.xy[2 * i + 1]});
        out.push_back(std::move(line));
    }
    return out;
}

Geometry geometryOf(Geometry::Type type, const std::vector<Line>& lines)
{
    Geometry out;
    out.type = type;
    for (const Line& line : lines) {
        out.partStart.push_back(out.pointCount());
        for (const Point& p : line) out.xy.push_back(p.x), out.xy.push_back(p.y);
    }
    return out;
}

// The window of `size` (odd) points centred on each point of a line in turn
// (mapsmoothing.c's lineWindow): a ring wraps round, an open line has no
// window near its ends.
class LineWindow {
public:
    LineWindow(const Line& line, int size) : m_line(line), m_size(std::max(1, size)), m_half(m_size / 2)
    {
        const qsizetype n = qsizetype(line.size());
        m_ring = n >= 2 && std::abs(line.front().x - line.back().x) < 1e-12 && std::abs(line.front().y - line.back().y) < 1e-12;
        m_points.resize(size_t(m_size));
    }
    bool isRing() const { return m_ring; }
    int half() const { return m_half; }
    // The window at `pos`: false when it does not fit (then only point(0) is set).
    bool at(int pos)
    {
        const int n = int(m_line.size());
        m_points[size_t(m_half)] = m_line[size_t(pos)];
        for (int i = 0; i < m_half; ++i) {
            int before = pos - (i + 1), after = pos + (i + 1);
            if (before < 0 && m_ring) before = n - (i + 2);
            if (after >= n && m_ring) after = 1 + (after - n);
            if (before < 0 || after >= n) return false;
            m_points[size_t(m_half - (i + 1))] = m_line[size_t(before)];
            m_points[size_t(m_half + (i + 1))] = m_line[size_t(after)];
        }
        return true;
    }
    // Offset from the window's centre, -half..half.
    const Point& point(int offset) const { return m_points[size_t(m_half + offset)]; }

private:
    const Line& m_line;
    int m_size, m_half;
    bool m_ring = false;
    std::vector<Point> m_points;
};

// Points added either side of each vertex where the path bends back on
// itself (or everywhere when forced), so that averaging keeps the turn.
std::vector<Line> addTurnPoints(const std::vector<Line>& lines, bool force)
{
    constexpr int kWindow = 5;
    std::vector<Line> out;
    for (const Line& line : lines) {
        Line made;
        LineWindow w(line, kWindow);
        for (int pos = 0; pos < int(line.size()); ++pos) {
            const bool fits = w.at(pos);
            if (w.isRing() && pos == int(line.size()) - 1) {
                made.push_back(made.front());
                continue;
            }
            if (!fits) {
                made.push_back(line[size_t(pos)]);
                continue;
            }
            bool turn = force;
            if (!force) {
                double path = 0;
                for (int k = -w.half() + 1; k <= w.half(); ++k) path += distance(w.point(k - 1), w.point(k));
                turn = path / distance(w.point(-w.half()), w.point(w.half())) > 1.3;
            }
            const Point p = line[size_t(pos)];
            if (turn) made.push_back({(p.x + w.point(-1).x) / 2, (p.y + w.point(-1).y) / 2});
            made.push_back(p);
            if (turn) made.push_back({(p.x + w.point(1).x) / 2, (p.y + w.point(1).y) / 2});
        }
        out.push_back(std::move(made));
    }
    return out;
}

std::vector<Line> averaged(const std::vector<Line>& lines, int size)
{
    std::vector<Line> out;
    for (const Line& line : lines) {
        const int n = int(line.size());
        if (n < 3) {
            out.push_back(line);
            continue;
        }
        int ws = std::min(size, n - 1);
        if (ws < 1) ws = 1;
        if (ws % 2 == 0) --ws;
        LineWindow w(line, ws);
        // Weights halve with each step from the centre.
        std::vector<double> weight(size_t(2 * w.half() + 1));
        double sum = 0;
        for (int k = -w.half(); k <= w.half(); ++k) sum += weight[size_t(k + w.half())] = std::ldexp(1.0, -std::abs(k));
        Line made;
        for (int pos = 0; pos < n; ++pos) {
            if (!w.at(pos)) {
                made.push_back(line[size_t(pos)]);
                continue;
            }
            double sx = 0, sy = 0;
            for (int k = -w.half(); k <= w.half(); ++k) {
                sx += w.point(k).x * weight[size_t(k + w.half())];
                sy += w.point(k).y * weight[size_t(k + w.half())];
            }
            made.push_back({sx / sum, sy / sum});
        }
        out.push_back(std::move(made));
    }
    return out;
}

}  // namespace

std::vector<bool> outerRings(const Geometry& g)
{
    std::vector<bool> outer(size_t(g.partCount()), true);
    for (int i = 0; i < g.partCount(); ++i) {
        const int s = g.partStart[i];
        int inside = 0;
        for (int j = 0; j < g.partCount(); ++j)
            if (j != i && containsPoint(ringOf(g, j), g.xy[2 * s], g.xy[2 * s + 1])) ++inside;
        outer[size_t(i)] = inside % 2 == 0;
    }
    return outer;
}

Result<Geometry> buffer(const Geometry& g, double width)
{
    // GEOS 3.11 crashes on a NaN width, makes no sense of an infinite one,
    // and leaks when a vast one (2.5^772) overflows inside it: no map is
    // a trillion units across.
    if (!(std::abs(width) <= 1e12)) return Error(QString());
    return throughGeos(g, QStringLiteral("msGEOSBuffer"), [width](GEOSContextHandle_t h, const GEOSGeometry* in) {
        return GEOSBuffer_r(h, in, width, 30);
    });
}

Result<Geometry> simplify(const Geometry& g, double tolerance)
{
    if (!std::isfinite(tolerance)) return Error(QString());
    return throughGeos(g, QStringLiteral("msGEOSSimplify"), [tolerance](GEOSContextHandle_t h, const GEOSGeometry* in) {
        return GEOSSimplify_r(h, in, tolerance);
    });
}

Result<Geometry> simplifyPreservingTopology(const Geometry& g, double tolerance)
{
    if (!std::isfinite(tolerance)) return Error(QString());
    return throughGeos(g, QStringLiteral("msGEOSTopologyPreservingSimplify"), [tolerance](GEOSContextHandle_t h, const GEOSGeometry* in) {
        return GEOSTopologyPreserveSimplify_r(h, in, tolerance);
    });
}

Result<Geometry> difference(const Geometry& a, const Geometry& b)
{
    if (b.isEmpty()) return a;
    if (!allFinite(b)) return Error(QString());
    const GeosGeometry other = toGeos(b);
    if (!other) return Error(QString());
    return throughGeos(a, QStringLiteral("msGEOSDifference"), [&other](GEOSContextHandle_t h, const GEOSGeometry* in) {
        return GEOSDifference_r(h, in, other.get());
    });
}

Result<Geometry> densify(const Geometry& g, double tolerance)
{
    if (g.type != Geometry::Type::Polygon && g.type != Geometry::Type::Line) return Error(QString());
    if (!(tolerance > 0)) return Error(QString());
    // MapServer has no bound; a tolerance tiny against the shape would fill
    // the memory of a worker that serves everyone.
    double added = 0;
    for (const Line& line : linesOf(g))
        for (size_t j = 0; j + 1 < line.size(); ++j) added += std::floor(distance(line[j], line[j + 1]) / tolerance);
    if (!(added <= kMaxDensifiedPoints))
        return Error(QStringLiteral("msDensify(): a tolerance of %1 would add more than %2 points to the shape")
                         .arg(tolerance).arg(kMaxDensifiedPoints));
    std::vector<Line> out;
    for (const Line& line : linesOf(g)) {
        Line made;
        for (size_t j = 0; j + 1 < line.size(); ++j) {
            const Point a = line[j], b = line[j + 1];
            made.push_back(a);
            const double d = distance(a, b);
            if (d > tolerance) {
                const int n = int(std::floor(d / tolerance));
                const double step = d / (n + 1);
                for (int k = 0; k < n; ++k) {
                    const double c = (k + 1) * step / d;
                    made.push_back({a.x + c * (b.x - a.x), a.y + c * (b.y - a.y)});
                }
            }
        }
        if (!line.empty()) made.push_back(line.back());
        out.push_back(std::move(made));
    }
    return geometryOf(g.type, out);
}

Result<Geometry> generalize(const Geometry& g, double tolerance)
{
    if (g.partCount() < 1) return g;
    Geometry out;
    out.type = g.type;
    out.partStart = {0};
    const int end = g.partEnd(0);
    if (end == 0) return out;
    double x0 = g.xy[0], y0 = g.xy[1];
    out.xy = {x0, y0};
    const double sq = tolerance * tolerance;
    for (int i = 1; i < end; ++i) {
        const double x = g.xy[2 * i], y = g.xy[2 * i + 1];
        if (i == end - 1 || (x - x0) * (x - x0) + (y - y0) * (y - y0) >= sq) {
            out.xy.push_back(x), out.xy.push_back(y);
            x0 = x, y0 = y;
        }
    }
    return out;
}

Result<Geometry> smoothSia(const Geometry& g, int size, int iterations, const QString& preprocessing)
{
    size = std::max(size, 3);
    iterations = std::clamp(iterations, 1, kMaxSmoothingIterations);
    std::vector<Line> lines = linesOf(g);
    if (preprocessing.compare(QLatin1String("all"), Qt::CaseInsensitive) == 0) lines = addTurnPoints(lines, true);
    else if (preprocessing.compare(QLatin1String("angle"), Qt::CaseInsensitive) == 0) lines = addTurnPoints(lines, false);
    // MapServer's second pass averages the original again: n iterations
    // smooth n - 1 times (once for one or two).
    const int passes = iterations <= 2 ? 1 : iterations - 1;
    for (int i = 0; i < passes; ++i) lines = averaged(lines, size);
    return geometryOf(g.type, lines);
}

Result<Geometry> rings(const Geometry& g, bool outer)
{
    if (g.type != Geometry::Type::Polygon) return Error(QString());
    const std::vector<bool> isOuter = outerRings(g);
    Geometry out;
    out.type = Geometry::Type::Polygon;
    for (int p = 0; p < g.partCount(); ++p) {
        if (isOuter[size_t(p)] != outer) continue;
        out.partStart.push_back(out.pointCount());
        out.xy.insert(out.xy.end(), g.xy.begin() + 2 * g.partStart[p], g.xy.begin() + 2 * g.partEnd(p));
    }
    return out;
}

Result<Geometry> centerline(const Geometry& g)
{
    if (g.type != Geometry::Type::Polygon)
        return Error(QStringLiteral("msGEOSCenterline(): GEOS library error. Centerlines can only be computed for polygon shapes."));
    if (!allFinite(g)) return Error(QString());
    // One shortest-path search per leaf of the skeleton: quadratic in the vertices.
    if (g.pointCount() > kMaxCenterlineVertices)
        return Error(QStringLiteral("msGEOSCenterline(): GEOS library error. The polygon has %1 vertices, more than the %2 "
                                    "a centerline is computed for; densify it less.").arg(g.pointCount()).arg(kMaxCenterlineVertices));
    std::vector<double> path = longestSkeletonPath(g);
    if (path.empty())
        return Error(QStringLiteral("msGEOSCenterline(): GEOS library error. Centerline generation failed, try densifying the shapes."));
    Geometry out;
    out.type = Geometry::Type::Line;
    out.xy = std::move(path);
    out.partStart = {0};
    return out;
}

}  // namespace maptune::shapeops
