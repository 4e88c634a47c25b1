#include "render/stroke_outline.h"

#include <cmath>
#include <vector>

namespace maptune {

namespace {

// Signed area sign of a small polygon (maths orientation: > 0 counter-clockwise).
double signedArea2(const QPointF* pts, int n)
{
    double a = 0;
    for (int i = 0, j = n - 1; i < n; j = i++) a += (pts[j].x() * pts[i].y()) - (pts[i].x() * pts[j].y());
    return a;
}

// Every subpath is added clockwise (negative area) so that overlaps add up
// under the non-zero rule instead of cancelling.
void addClockwise(PolygonSink& sink, std::vector<QPointF>& pts)
{
    const int n = int(pts.size());
    if (n < 3) return;
    if (signedArea2(pts.data(), n) > 0) std::reverse(pts.begin(), pts.end());
    sink.addPolygon(pts.data(), n);
}

class PathSink : public PolygonSink {
public:
    QPainterPath path;
    void addPolygon(const QPointF* pts, int n) override
    {
        path.moveTo(pts[0]);
        for (int i = 1; i < n; ++i) path.lineTo(pts[i]);
        path.closeSubpath();
    }
};

}  // namespace

int StrokeOutline::discVertices(double width)
{
    // agg::arc: da = acos(r / (r + 0.125 / scale)) * 2; vertices = 2*pi / da.
    const double r = width / 2;
    if (r <= 0) return 0;
    const double da = std::acos(r / (r + 0.125)) * 2;
    return std::clamp(int(std::ceil(2 * M_PI / da)), 8, 256);
}

QPainterPath StrokeOutline::round(const QList<QPolygonF>& parts, double width, bool roundCaps)
{
    PathSink sink;
    sink.path.setFillRule(Qt::WindingFill);
    round(parts, width, roundCaps, sink);
    return sink.path;
}

void StrokeOutline::round(const QList<QPolygonF>& parts, double width, bool roundCaps, PolygonSink& path)
{
    build(parts, width, roundCaps, true, path);
}

void StrokeOutline::hairline(const QList<QPolygonF>& parts, double width, PolygonSink& sink)
{
    build(parts, width, false, false, sink);
}

void StrokeOutline::build(const QList<QPolygonF>& parts, double width, bool roundCaps, bool roundJoins,
                          PolygonSink& path)
{
    const double r = width / 2;
    if (r <= 0) return;
    // The same few widths repeat for every feature of a layer: keep their
    // discs and rotation steps (a handful of entries, searched linearly).
    struct Shape {
        double width;
        std::vector<QPointF> disc;
        double stepCos, stepSin;
    };
    thread_local std::vector<Shape> shapes;
    const Shape* shape = nullptr;
    for (const Shape& sh : shapes)
        if (sh.width == width) shape = &sh;
    if (!shape) {
        if (shapes.size() >= 32) shapes.clear();
        Shape sh{width, {}, 0, 0};
        const int count = discVertices(width);
        for (int i = 0; i < count; ++i) {
            const double a = 2 * M_PI * i / count;
            sh.disc.emplace_back(r * std::cos(a), r * std::sin(a));
        }
        sh.stepCos = std::cos(2 * M_PI / count);
        sh.stepSin = std::sin(2 * M_PI / count);
        shapes.push_back(std::move(sh));
        shape = &shapes.back();
    }
    const std::vector<QPointF>& disc = shape->disc;
    const double stepCos = shape->stepCos, stepSin = shape->stepSin;
    // Reused by every call on this thread: a road map strokes thousands of
    // short lines, and growing three vectors for each was a third of its mallocs.
    thread_local std::vector<QPointF> poly, left, right;
    poly.clear(), left.clear(), right.clear();
    auto addDisc = [&](const QPointF& c) {
        poly.clear();
        for (const QPointF& d : disc) poly.push_back(c + d);
        addClockwise(path, poly);
    };
    // The round join at `c` between segments with unit normals n1 -> n2: only
    // the wedge on the outer side of the turn, walked in disc-sized steps.
    auto addJoin = [&](const QPointF& c, QPointF n1, QPointF n2, double turn) {
        // Outer side: opposite to the turn direction.
        if (turn > 0) n1 = -n1, n2 = -n2;
        if (!roundJoins) {
            poly.assign({c, c + n1 * r, c + n2 * r});
            addClockwise(path, poly);
            return;
        }
        const double dirSign = turn > 0 ? 1 : -1;  // rotate from n1 towards n2
        poly.clear();
        poly.push_back(c);
        QPointF v = n1;
        poly.push_back(c + v * r);
        for (int guard = 0; guard < 256; ++guard) {
            const QPointF next(v.x() * stepCos - dirSign * v.y() * stepSin, dirSign * v.x() * stepSin + v.y() * stepCos);
            // Stop once the next step would pass n2.
            const double before = v.x() * n2.y() - v.y() * n2.x();
            const double after = next.x() * n2.y() - next.y() * n2.x();
            if ((before > 0) != (after > 0) || before == 0) break;
            v = next;
            poly.push_back(c + v * r);
        }
        poly.push_back(c + n2 * r);
        addClockwise(path, poly);
    };
    for (const QPolygonF& part : parts) {
        if (part.isEmpty()) continue;
        if (part.size() == 1) {
            if (roundCaps) addDisc(part.first());
            continue;
        }
        // Runs of gently turning segments become one strip polygon (left
        // offsets forward, right offsets back, mitred at the joins): a few
        // edges per run for the rasteriser instead of a quad per segment. A
        // sharp turn ends the run and gets a round wedge on its outer side.
        left.clear(), right.clear();
        QPointF prevNormal, prevPoint, startPoint, startNormal;
        double prevLen = 0;
        bool havePrev = false, firstRun = true;
        // Half a disc round `c` from c + n*r to c - n*r, bulging along the
        // direction (n.y, -n.x): a round cap as part of the strip's outline.
        auto addCap = [&](const QPointF& c, const QPointF& n) {
            const QPointF d(n.y(), -n.x());
            double cs = stepCos, sn = stepSin;
            while (sn > 1e-9) {
                poly.push_back(c + (n * cs + d * sn) * r);
                const double nextCos = cs * stepCos - sn * stepSin;
                sn = sn * stepCos + cs * stepSin;
                cs = nextCos;
            }
        };
        auto emitRun = [&](bool lastRun) {
            poly.assign(left.begin(), left.end());
            if (lastRun && roundCaps) addCap(prevPoint, prevNormal);
            poly.insert(poly.end(), right.rbegin(), right.rend());
            if (firstRun && roundCaps) addCap(startPoint, -startNormal);
            firstRun = false;
            addClockwise(path, poly);
            left.clear();
            right.clear();
        };
        const qsizetype last = part.size() - 1;
        for (qsizetype i = 1; i <= last; ++i) {
            const QPointF a = part[i - 1], b = part[i];
            const double dx = b.x() - a.x(), dy = b.y() - a.y();
            const double len = std::sqrt(dx * dx + dy * dy);
            if (len <= 0) continue;
            const QPointF n(-dy / len, dx / len);
            if (!havePrev) {
                startPoint = a, startNormal = n;
                left.push_back(a + n * r);
                right.push_back(a - n * r);
            } else {
                const double turn = prevNormal.x() * n.y() - prevNormal.y() * n.x();
                const double dot = prevNormal.x() * n.x() + prevNormal.y() * n.y();
                // tan of half the turn: how far the inner mitre reaches back along the segments.
                const double tanHalf = std::abs(turn) / (1 + dot);
                const bool gentle = dot > 0.866 && r * tanHalf < 0.5 * std::min(len, prevLen);
                if (gentle) {
                    const QPointF bis = prevNormal + n;
                    const double bisLen = std::sqrt(bis.x() * bis.x() + bis.y() * bis.y());
                    const QPointF m = bis / bisLen;
                    const double mitre = r / (m.x() * n.x() + m.y() * n.y());
                    left.push_back(a + m * mitre);
                    right.push_back(a - m * mitre);
                } else {
                    left.push_back(a + prevNormal * r);
                    right.push_back(a - prevNormal * r);
                    emitRun(false);
                    addJoin(a, prevNormal, n, turn);
                    left.push_back(a + n * r);
                    right.push_back(a - n * r);
                }
            }
            prevNormal = n;
            prevPoint = b;
            prevLen = len;
            havePrev = true;
        }
        if (havePrev) {
            left.push_back(prevPoint + prevNormal * r);
            right.push_back(prevPoint - prevNormal * r);
            emitRun(true);
        } else if (roundCaps) {
            addDisc(part.first());  // every point the same: a dot
        }
    }
}

}  // namespace maptune
