#include "render/style_geom_transform.h"

#include <QRectF>

#include <cmath>

namespace maptune {

namespace {

// calcOrientation: the direction from a to b in MapServer's marker angles.
double orientation(const QPointF& a, const QPointF& b)
{
    return (std::atan2(b.x() - a.x(), b.y() - a.y()) - M_PI / 2) * 180.0 / M_PI;
}

// calcMidAngle: the direction of the sum of both segments, the first
// stretched to the second's length.
double midAngle(const QPointF& p1, const QPointF& p2, const QPointF& p3)
{
    const QPointF d12 = p2 - p1, d23 = p3 - p2;
    const double l12 = std::hypot(d12.x(), d12.y()), l23 = std::hypot(d23.x(), d23.y());
    const QPointF start = l12 > 0 ? p2 - d12 * (l23 / l12) : p2;
    return orientation(start, p3);
}

bool onImage(const QPointF& p, const QSize& image)
{
    return p.x() >= 0 && p.x() <= image.width() && p.y() >= 0 && p.y() <= image.height();
}

// msGetPolygonCentroid: the centre of the outline, each segment weighted by its length.
std::optional<QPointF> outlineCentroid(const QList<QPolygonF>& parts)
{
    double wx = 0, wy = 0, total = 0;
    for (const QPolygonF& part : parts)
        for (qsizetype i = 1; i < part.size(); ++i) {
            const double len = std::hypot(part[i].x() - part[i - 1].x(), part[i].y() - part[i - 1].y());
            wx += len * (part[i].x() + part[i - 1].x()) / 2;
            wy += len * (part[i].y() + part[i - 1].y()) / 2;
            total += len;
        }
    if (total == 0) return std::nullopt;
    return QPointF(wx / total, wy / total);
}

}  // namespace

Result<StyleGeomTransform> StyleGeomTransform::parse(const QString& text)
{
    StyleGeomTransform out;
    const QString t = text.trimmed();
    if (t.isEmpty()) return out;
    if (t.startsWith(QLatin1Char('('))) {
        Result<ShapeExpression> e = ShapeExpression::parse(t);
        if (!e) return Error(QStringLiteral("GEOMTRANSFORM %1: %2").arg(t, e.message()));
        out.kind = Kind::Expression;
        out.expression = std::move(e).value();
        return out;
    }
    static const struct {
        const char* name;
        Kind kind;
    } kNames[] = {{"start", Kind::Start},        {"end", Kind::End},           {"vertices", Kind::Vertices},
                  {"bbox", Kind::BBox},          {"labelpnt", Kind::LabelPoint}, {"labelpoly", Kind::LabelPoly},
                  {"labelcenter", Kind::LabelCenter}, {"centroid", Kind::Centroid}};
    for (const auto& n : kNames)
        if (t.startsWith(QLatin1String(n.name), Qt::CaseInsensitive)) {
            out.kind = n.kind;
            return out;
        }
    return Error(QStringLiteral("GEOMTRANSFORM \"%1\" is not a transform MapServer knows (start, end, vertices, bbox, "
                                "centroid, labelpnt, labelpoly, labelcenter or a (expression))").arg(t));
}

QList<TransformMarker> transformMarkers(StyleGeomTransform::Kind kind, const QList<QPolygonF>& parts, const QSize& image,
                                        bool autoAngle)
{
    using Kind = StyleGeomTransform::Kind;
    QList<TransformMarker> out;
    for (const QPolygonF& line : parts) {
        const qsizetype n = line.size();
        if (n == 0) continue;
        if (kind == Kind::Start || kind == Kind::End) {
            const QPointF p = kind == Kind::Start ? line.first() : line.last();
            if (!onImage(p, image)) continue;
            TransformMarker m{p, std::nullopt};
            if (autoAngle && n > 1) m.angle = kind == Kind::Start ? orientation(line[0], line[1]) : orientation(line[n - 2], line[n - 1]);
            out << m;
        } else if (kind == Kind::Vertices) {
            for (qsizetype i = 1; i + 1 < n; ++i) {
                if (!onImage(line[i], image)) continue;
                TransformMarker m{line[i], std::nullopt};
                if (autoAngle) m.angle = midAngle(line[i - 1], line[i], line[i + 1]);
                out << m;
            }
        }
    }
    if (kind == Kind::Centroid)
        if (const auto c = outlineCentroid(parts)) out << TransformMarker{*c, std::nullopt};
    return out;
}

QPolygonF boundingBoxRing(const QList<QPolygonF>& parts, const QSize& image, double padding)
{
    QRectF b;
    for (const QPolygonF& part : parts) b = b.isNull() ? part.boundingRect() : b.united(part.boundingRect());
    const double minx = std::max(b.left(), -padding), maxx = std::min(b.right(), image.width() + padding);
    const double miny = std::max(b.top(), -padding), maxy = std::min(b.bottom(), image.height() + padding);
    return QPolygonF({{minx, miny}, {minx, maxy}, {maxx, maxy}, {maxx, miny}, {minx, miny}});
}

Geometry geometryFromParts(Geometry::Type type, const QList<QPolygonF>& parts)
{
    Geometry g;
    g.type = type;
    for (const QPolygonF& part : parts) {
        if (part.isEmpty()) continue;
        if (type != Geometry::Type::Point || g.partStart.empty()) g.partStart.push_back(g.pointCount());
        for (const QPointF& p : part) g.xy.push_back(p.x()), g.xy.push_back(p.y());
    }
    return g;
}

QList<QPolygonF> partsFromGeometry(const Geometry& g)
{
    QList<QPolygonF> out;
    for (int p = 0; p < g.partCount(); ++p) {
        QPolygonF part;
        for (int i = g.partStart[p]; i < g.partEnd(p); ++i) part << QPointF(g.xy[2 * i], g.xy[2 * i + 1]);
        out << part;
    }
    return out;
}

}  // namespace maptune
