#include "wms/vector_tile_geometry.h"

#include "data/geom_transform/shape_operations.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

enum Command : std::uint32_t { MoveTo = 1, LineTo = 2, ClosePath = 7 };

std::uint32_t command(Command id, std::uint32_t count) { return (id & 0x7) | (count << 3); }
std::uint32_t zigzag(long n) { return std::uint32_t((n << 1) ^ (n >> 31)); }
// MS_NINT: halves away from zero.
long nearest(double v) { return v >= 0 ? long(v + 0.5) : long(v - 0.5); }

// C's (int) cast as x86 performs it: toward zero, and INT_MIN for what does
// not fit (a vertex far outside a small tile), without the undefined behaviour.
double truncated(double v)
{
    if (!(v > -2147483649.0 && v < 2147483648.0)) return -2147483648.0;
    return double(int(v));
}

Rect boundsOf(const std::vector<TileLine>& lines)
{
    Rect b{0, 0, -1, -1};
    bool first = true;
    for (const TileLine& l : lines)
        for (const TilePoint& p : l) {
            if (first) b = {p.x, p.y, p.x, p.y};
            first = false;
            b.minx = std::min(b.minx, p.x), b.maxx = std::max(b.maxx, p.x);
            b.miny = std::min(b.miny, p.y), b.maxy = std::max(b.maxy, p.y);
        }
    return b;
}

bool within(const Rect& b, const Rect& r) { return b.maxx <= r.maxx && b.minx >= r.minx && b.maxy <= r.maxy && b.miny >= r.miny; }

// Twice the triangle's area over its longest side: its height.
double triangleHeight(const TileLine& ring)
{
    double s = 0, base = 0;
    for (size_t i = 0; i + 1 < ring.size(); ++i) {
        s += ring[i].x * ring[i + 1].y - ring[i + 1].x * ring[i].y;
        base = std::max(base, std::hypot(ring[i + 1].x - ring[i].x, ring[i + 1].y - ring[i].y));
    }
    return std::abs(s / base);
}

// The shoelace sum accumulated in an int, as mapmvt.c does; > 0 is
// clockwise in tile coordinates (y down).
int ringDirection(const TileLine& ring)
{
    if (ring.size() < 4) return 0;
    int sum = 0;
    for (size_t i = 0; i + 1 < ring.size(); ++i) sum = int(sum + (ring[i].x * ring[i + 1].y - ring[i + 1].x * ring[i].y));
    return sum > 0 ? 1 : sum < 0 ? -1 : 0;
}

// Reversed between the closing points.
void reverseRing(TileLine& ring)
{
    if (ring.size() > 3) std::reverse(ring.begin() + 1, ring.end() - 1);
}

std::vector<TileLine> toTile(const Geometry& g, TileGeometryType type, const Rect& bbox, int extent)
{
    const double sx = extent / bbox.width(), sy = extent / bbox.height();
    std::vector<TileLine> lines;
    std::vector<bool> outer;
    if (type == TileGeometryType::Polygon) outer = shapeops::outerRings(g);
    for (int part = 0; part < std::max(1, g.partCount()); ++part) {
        const int from = g.partCount() ? g.partStart[size_t(part)] : 0, to = g.partCount() ? g.partEnd(part) : g.pointCount();
        TileLine line;
        for (int i = from; i < to; ++i) {
            const TilePoint p{truncated((g.xy[size_t(2 * i)] - bbox.minx) * sx),
                              extent - truncated((g.xy[size_t(2 * i + 1)] - bbox.miny) * sy)};
            if (line.empty() || p.x != line.back().x || p.y != line.back().y) line.push_back(p);
        }
        lines.push_back(std::move(line));
    }
    if (type != TileGeometryType::Polygon) return lines;
    // The first ring must be an outer one: a bubble sort, outer rings first, when it is not.
    if (!outer.empty() && !outer[0])
        for (size_t i = 0; i + 1 < lines.size(); ++i)
            for (size_t j = 0; j + 1 < lines.size() - i; ++j)
                if (outer[j] < outer[j + 1]) {
                    std::vector<bool>::swap(outer[j], outer[j + 1]);
                    std::swap(lines[j], lines[j + 1]);
                }
    for (size_t i = 0; i < lines.size(); ++i) {
        TileLine& ring = lines[i];
        if (ring.size() == 4 && triangleHeight(ring) < 1) {
            ring.clear();
            continue;
        }
        const int direction = ringDirection(ring);
        if (direction == 0) ring.clear();
        else if ((outer[i] && direction != 1) || (!outer[i] && direction != -1)) reverseRing(ring);
    }
    return lines;
}

}  // namespace

// One axis of Sutherland-Cohen: a1/a2 are the coordinates clipped to
// [min, max], b1/b2 the other axis; false when the segment misses.
static bool clipAxis(double& a1, double& b1, double& a2, double& b2, double min, double max)
{
    if ((a1 < min && a2 < min) || (a1 > max && a2 > max)) return false;
    auto side = [&](double v) { return v < min ? -1 : v > max ? 1 : 0; };
    const int c1 = side(a1), c2 = side(a2);
    for (int s : {-1, 1}) {
        if (c1 != s && c2 != s) continue;
        const double edge = s < 0 ? min : max;
        const double b = b1 + (edge - a1) * ((b2 - b1) / (a2 - a1));
        if (c1 == s) a1 = edge, b1 = b;
        else a2 = edge, b2 = b;
    }
    return true;
}

// Sutherland-Cohen on one segment, against x then y; false when it misses.
static bool clipSegment(double& x1, double& y1, double& x2, double& y2, const Rect& r)
{
    return clipAxis(x1, y1, x2, y2, r.minx, r.maxx) && clipAxis(y1, x1, y2, x2, r.miny, r.maxy);
}

std::vector<TileLine> clipPolylineRect(const std::vector<TileLine>& lines, const Rect& rect)
{
    if (lines.empty() || within(boundsOf(lines), rect)) return lines;
    std::vector<TileLine> out;
    for (const TileLine& in : lines) {
        if (in.empty()) continue;
        TileLine line;
        double x1 = in[0].x, y1 = in[0].y;
        for (size_t j = 1; j < in.size(); ++j) {
            double x2 = in[j].x, y2 = in[j].y;
            if (clipSegment(x1, y1, x2, y2, rect)) {
                if (line.empty()) line.push_back({x1, y1});
                line.push_back({x2, y2});
                // The segment left the rectangle: the line goes on in a new part.
                if (x2 != in[j].x || y2 != in[j].y) out.push_back(std::exchange(line, {}));
            }
            x1 = in[j].x, y1 = in[j].y;
        }
        if (!line.empty()) out.push_back(std::move(line));
    }
    return out;
}

// Liang-Barsky as MapServer modifies it: each ring walked segment by segment,
// corners of the rectangle added where a segment passes outside one.
std::vector<TileLine> clipPolygonRect(const std::vector<TileLine>& rings, const Rect& rect)
{
    constexpr double kNearZero = 1.0e-30;
    if (rings.empty() || within(boundsOf(rings), rect)) return rings;
    std::vector<TileLine> out;
    for (const TileLine& in : rings) {
        TileLine line;
        for (size_t i = 0; i + 1 < in.size(); ++i) {
            const double x1 = in[i].x, y1 = in[i].y, x2 = in[i + 1].x, y2 = in[i + 1].y;
            double dx = x2 - x1, dy = y2 - y1;
            if (dx == 0) dx = x1 > rect.minx ? -kNearZero : kNearZero;
            if (dy == 0) dy = y1 > rect.miny ? -kNearZero : kNearZero;
            const double xin = dx > 0 ? rect.minx : rect.maxx, xout = dx > 0 ? rect.maxx : rect.minx;
            const double yin = dy > 0 ? rect.miny : rect.maxy, yout = dy > 0 ? rect.maxy : rect.miny;
            const double tinx = (xin - x1) / dx, tiny = (yin - y1) / dy;
            const double tin1 = tinx < tiny ? tinx : tiny, tin2 = tinx < tiny ? tiny : tinx;
            if (!(1 >= tin1)) continue;
            if (0 < tin1) line.push_back({xin, yin});
            if (!(1 >= tin2)) continue;
            const double toutx = (xout - x1) / dx, touty = (yout - y1) / dy;
            const double tout = toutx < touty ? toutx : touty;
            if (!(0 < tin2 || 0 < tout)) continue;
            if (tin2 <= tout) {
                if (0 < tin2) line.push_back(tinx > tiny ? TilePoint{xin, y1 + tinx * dy} : TilePoint{x1 + tiny * dx, yin});
                if (1 > tout) line.push_back(toutx < touty ? TilePoint{xout, y1 + toutx * dy} : TilePoint{x1 + touty * dx, yout});
                else line.push_back({x2, y2});
            } else {
                line.push_back(tinx > tiny ? TilePoint{xin, yout} : TilePoint{xout, yin});
            }
        }
        if (line.empty()) continue;
        line.push_back(line.front());  // closed again
        out.push_back(std::move(line));
    }
    return out;
}

std::vector<std::uint32_t> encodeTileGeometry(const Geometry& g, TileGeometryType type, const Rect& bbox, int extent, int buffer)
{
    std::vector<TileLine> lines = toTile(g, type, bbox, extent);
    if (lines.empty()) return {};
    const double margin = buffer * 16.0;
    const Rect tile{-margin, -margin, extent + margin, extent + margin};
    if (type == TileGeometryType::Polygon) lines = clipPolygonRect(lines, tile);
    else if (type == TileGeometryType::Line) lines = clipPolylineRect(lines, tile);
    const Rect b = boundsOf(lines);
    if (lines.empty() || (type != TileGeometryType::Point && b.minx == b.maxx && b.miny == b.maxy)) return {};

    std::vector<std::uint32_t> out;
    long lastx = 0, lasty = 0;
    auto vertex = [&](const TilePoint& p) {
        const long x = nearest(p.x), y = nearest(p.y);
        out.push_back(zigzag(x - lastx));
        out.push_back(zigzag(y - lasty));
        lastx = x, lasty = y;
    };
    if (type == TileGeometryType::Point) {
        std::uint32_t count = 0;
        for (const TileLine& l : lines) count += std::uint32_t(l.size());
        if (count == 0) return {};
        out.push_back(command(MoveTo, count));
        for (const TileLine& l : lines)
            for (const TilePoint& p : l) vertex(p);
        return out;
    }
    const size_t minimum = type == TileGeometryType::Line ? 2 : 4;
    for (const TileLine& l : lines) {
        if (l.size() < minimum) continue;  // a malformed part
        const size_t count = type == TileGeometryType::Line ? l.size() : l.size() - 1;  // a ring's closing point is implied
        for (size_t j = 0; j < count; ++j) {
            if (j == 0) out.push_back(command(MoveTo, 1));
            else if (j == 1) out.push_back(command(LineTo, std::uint32_t(count - 1)));
            vertex(l[j]);
        }
        if (type == TileGeometryType::Polygon) out.push_back(command(ClosePath, 1));
    }
    return out;
}

}  // namespace maptune
