#include "render/graticule_source.h"

#include "data/list_cursor.h"
#include "geo/coordinate_transform.h"
#include "geo/map_projection.h"

#include <QRegularExpression>

#include <cmath>

namespace maptune {

namespace {

constexpr int kDefaultSubdivisions = 256;  // segments per line
constexpr int kDefaultTicks = 16;          // lines wanted per axis when no interval is set

QString unquoted(QString s)
{
    if (s.size() >= 2 && (s.front() == QLatin1Char('"') || s.front() == QLatin1Char('\'')) && s.back() == s.front())
        s = s.mid(1, s.size() - 2);
    return s;
}

Feature lineFeature(qint64 id, std::vector<double> xy, QString text = {})
{
    Feature f;
    f.id = id;
    f.geometry.type = Geometry::Type::Line;
    f.geometry.xy = std::move(xy);
    f.geometry.partStart = {0};
    f.values = {QString()};
    f.text = std::move(text);
    return f;
}

}  // namespace

std::optional<GraticuleSettings> GraticuleSettings::fromLayer(const LayerDef& layer)
{
    for (const ExtraProperty& e : layer.extras) {
        if (e.keyword != QLatin1String("GRID")) continue;
        GraticuleSettings s;
        for (qsizetype i = 0; i + 1 < e.args.size(); i += 2) {
            const QString key = e.args[i].toUpper();
            const QString value = unquoted(e.args[i + 1]);
            if (key == QLatin1String("LABELFORMAT")) s.labelFormat = value;
            else if (key == QLatin1String("MININTERVAL")) s.minInterval = value.toDouble();
            else if (key == QLatin1String("MAXINTERVAL")) s.maxInterval = value.toDouble();
            else if (key == QLatin1String("MINSUBDIVIDE")) s.minSubdivide = value.toInt();
            else if (key == QLatin1String("MAXSUBDIVIDE")) s.maxSubdivide = value.toInt();
            else if (key == QLatin1String("MINARCS")) s.minArcs = value.toInt();
            else if (key == QLatin1String("MAXARCS")) s.maxArcs = value.toInt();
        }
        return s;
    }
    return std::nullopt;
}

Result<QString> GraticuleSettings::format(double value) const
{
    const int degrees = int(value);
    const double rest = std::abs(value - degrees);
    const int minutes = int(rest * 60.0);
    if (labelFormat == QLatin1String("DDMMSS"))
        return QString::asprintf("%3d %02d %02d", degrees, minutes, int((rest - minutes / 60.0) * 3600.0));
    if (labelFormat == QLatin1String("DDMM")) return QString::asprintf("%3d %02d", degrees, minutes);
    if (labelFormat == QLatin1String("DD")) return QString::asprintf("%3d", degrees);
    // A number format of the user's: exactly one floating-point conversion,
    // checked before it reaches printf.
    static const QRegularExpression safe(QStringLiteral("^(?:[^%]|%%)*%[-+ #0]{0,4}\\d{0,2}(?:\\.\\d{1,2})?[eEfFgG](?:[^%]|%%)*$"));
    const QString f = labelFormat.isEmpty() ? QStringLiteral("%5.2g") : labelFormat;
    if (f.size() > 64 || !safe.match(f).hasMatch())
        return Error(QStringLiteral("GRID LABELFORMAT '%1': use DD, DDMM, DDMMSS or one number conversion such as %g").arg(labelFormat));
    return QString::asprintf(f.toUtf8().constData(), value);
}

GraticuleAxis graticuleAxis(double min, double max, double interval, int ticks)
{
    const double range = max - min;
    if (range < 0) return {min, max, 0};
    if (range == 0) return {std::ceil(max) - 1, std::ceil(max), 1};
    double inc = std::pow(10.0, std::ceil(std::log10(range / 10)));
    if (interval > 0) inc = interval;
    // An extent that should end on a line (0..2000 by 500) may come back
    // from the pixel grid a rounding error off: within a billionth of the
    // interval counts as on it.
    const double slack = inc * 1e-9;
    double top = double(qint64(max / inc)) * inc;
    if (top < max - slack) top += inc;
    double bottom = top;
    int count = 0;
    do {
        ++count;
        bottom -= inc;
    } while (bottom > min + slack);
    if (ticks <= 0) ticks = kDefaultTicks;
    while (count < ticks) {
        inc /= 2;
        count *= 2;
    }
    return {bottom, top, inc};
}

GraticuleSource::GraticuleSource(GraticuleSettings settings, std::optional<Crs> layerCrs, bool labelled,
                                 std::function<QSizeF(const QString&)> measure)
    : m_settings(std::move(settings)), m_crs(std::move(layerCrs)), m_labelled(labelled), m_measure(std::move(measure))
{
}

Result<std::unique_ptr<FeatureCursor>> GraticuleSource::query(const FeatureQuery& q)
{
    const QStringList fields{QStringLiteral("Graticule")};
    if (!q.view || q.view->width < 1 || q.view->height < 1) return std::unique_ptr<FeatureCursor>(new ListCursor(fields, {}));
    const FeatureQuery::View& view = *q.view;
    const int W = view.width, H = view.height;
    const double cell = view.extent.width() / W, cellY = view.extent.height() / H;
    // MapServer's map extent: the corner pixels' centres.
    Rect mapRect{view.extent.minx + cell / 2, view.extent.miny + cellY / 2, view.extent.maxx - cell / 2, view.extent.maxy - cellY / 2};

    std::shared_ptr<CoordinateTransform> toLayer, toMap;
    const bool project = view.crs.isValid() && m_crs && *m_crs != view.crs;
    Rect rect = mapRect;
    if (project) {
        auto there = CoordinateTransform::forThread(view.crs, *m_crs);
        auto back = CoordinateTransform::forThread(*m_crs, view.crs);
        if (!there || !back) return Error(QStringLiteral("GRID: ") + (there ? back.message() : there.message()));
        toLayer = std::move(there).value();
        toMap = std::move(back).value();
        rect = projectRect(view.crs, *m_crs, mapRect);
        if (!rect.isValid() || !std::isfinite(rect.width()) || !std::isfinite(rect.height()))
            return std::unique_ptr<FeatureCursor>(new ListCursor(fields, {}));
    }

    const GraticuleSettings& s = m_settings;
    double interval = s.minInterval > 0 ? s.minInterval : s.maxInterval > 0 ? s.maxInterval : 0;
    const int ticks = s.maxArcs > 0 ? s.maxArcs : s.minArcs;
    GraticuleAxis lon = graticuleAxis(rect.minx, rect.maxx, interval, ticks);
    GraticuleAxis lat = graticuleAxis(rect.miny, rect.maxy, interval, ticks);
    if (interval > 0) lon.interval = lat.interval = interval;
    if (lon.interval <= 0 || lat.interval <= 0) return std::unique_ptr<FeatureCursor>(new ListCursor(fields, {}));
    // A view thousands of intervals wide gets no grid rather than a flood.
    if ((lon.max - lon.min) / lon.interval > 10000 || (lat.max - lat.min) / lat.interval > 10000)
        return Error(QStringLiteral("GRID: the interval is too small for this view"));
    const int segments = s.minSubdivide > 0 && s.maxSubdivide > 0 ? std::min(s.maxSubdivide, 4096) : kDefaultSubdivisions;

    // The map's edges in the layer's CRS, as two-point lines (Web Mercator
    // clamped to its valid width first).
    const bool webMercatorToDegrees = project && view.crs.authId() == QLatin1String("EPSG:3857") && m_crs->isGeographic();
    Rect edges = mapRect;
    if (webMercatorToDegrees) {
        edges.minx = std::max(edges.minx, -20037508.0);
        edges.maxx = std::min(edges.maxx, 20037508.0);
    }
    // A corner off the layer's domain (past an orthographic globe's horizon)
    // keeps its map coordinates, as msProjectPointEx leaves a point it
    // cannot transform; the crossings below then run along the edge anyway.
    const auto inLayer = [&](double x, double y) {
        double lx = x, ly = y;
        if (toLayer && toLayer->transform(&lx, &ly, 1) != 0) return QPointF(x, y);
        return QPointF(lx, ly);
    };
    const QPointF bottomL = inLayer(edges.minx, edges.miny), bottomR = inLayer(edges.maxx, edges.miny);
    const QPointF topL = inLayer(edges.minx, edges.maxy), topR = inLayer(edges.maxx, edges.maxy);
    const QPointF leftB = bottomL, leftT = topL, rightB = bottomR, rightT = topR;

    // A layer point in the map's CRS; nullopt where it does not transform.
    const auto inMap = [&](QPointF p) -> std::optional<QPointF> {
        double x = p.x(), y = p.y();
        if (toMap && toMap->transform(&x, &y, 1) != 0) return std::nullopt;
        if (!std::isfinite(x) || !std::isfinite(y)) return std::nullopt;
        return QPointF(x, y);
    };
    // msProjectShapeEx on the label's two points: one past the horizon is
    // replaced by the horizon point between them; both, and there is none.
    const auto segmentInMap = [&](QPointF p0, QPointF p1) -> std::optional<std::pair<QPointF, QPointF>> {
        std::optional<QPointF> a = inMap(p0), b = inMap(p1);
        if (!a && !b) return std::nullopt;
        if (!a) a = toMap ? horizonPoint(*toMap, p1, p0) : std::nullopt;
        if (!b) b = toMap ? horizonPoint(*toMap, p0, p1) : std::nullopt;
        if (!a || !b) return std::nullopt;
        return std::pair{*a, *b};
    };
    const auto toPixel = [&](QPointF m) {
        return QPointF(std::round((m.x() - mapRect.minx) / cell), std::round((mapRect.maxy - m.y()) / cellY));
    };
    const auto pixelToMap = [&](QPointF px) { return QPointF(mapRect.minx + px.x() * cell, mapRect.maxy - px.y() * cellY); };
    const auto toLayerPoint = [&](QPointF m) {
        double x = m.x(), y = m.y();
        if (toLayer) toLayer->transform(&x, &y, 1);
        return QPointF(x, y);
    };

    QList<Feature> features;
    qint64 id = 0;
    enum class Side { Bottom, Top, Left, Right };
    // _AdjustLabelPosition: the label's two points (`p0`, `p1`, in the
    // layer's CRS) moved to pixels, stretched from the edge inward by twice
    // the label's size plus 5 px, and back; the line's own coordinate kept.
    const auto labelSegment = [&](QPointF p0, QPointF p1, Side side, double value) -> Result<void> {
        Result<QString> text = s.format(value);
        if (!text) return text.error();
        const auto inMapPair = segmentInMap(p0, p1);
        if (!inMapPair) return {};
        // A point that comes back unchanged did not transform (MapServer's
        // "poor man detection" between geographic and projected systems).
        if (project && m_crs->isGeographic() != view.crs.isGeographic() && inMapPair->first == p0) return {};
        QPointF a = toPixel(inMapPair->first), b = toPixel(inMapPair->second);
        const QSizeF size = m_measure(*text);
        const double reachY = std::abs(size.height()) * 2 + 5, reachX = std::abs(size.width()) * 2 + 5;
        switch (side) {
        case Side::Bottom: b.setY(H), a.setY(H - reachY); break;
        case Side::Top: b.setY(0), a.setY(reachY); break;
        case Side::Left: a.setX(0), b.setX(reachX); break;
        case Side::Right: b.setX(W), a.setX(W - reachX); break;
        }
        QPointF ma = pixelToMap(a), mb = pixelToMap(b);
        // Web Mercator to degrees: a left or right label kept inside the
        // projection's valid width.
        if (webMercatorToDegrees && side == Side::Left && ma.x() < -20037508) {
            mb.setX(-20037508 + (mb.x() - ma.x()));
            ma.setX(-20037508);
        }
        if (webMercatorToDegrees && side == Side::Right && mb.x() > 20037508) {
            ma.setX(20037508 - (mb.x() - ma.x()));
            mb.setX(20037508);
        }
        QPointF la = toLayerPoint(ma), lb = toLayerPoint(mb);
        if (side == Side::Bottom || side == Side::Top) la.setX(p0.x()), lb.setX(p0.x());
        else la.setY(p0.y()), lb.setY(p0.y());
        if (!std::isfinite(la.x() + la.y() + lb.x() + lb.y())) return {};
        features << lineFeature(id++, {la.x(), la.y(), lb.x(), lb.y()}, *text);
        return {};
    };
    // Where an edge (a straight line in the layer's CRS) meets the line at
    // `v`, measured from the edge's first point -- but from its second
    // point's height for the top edge, as msGraticuleLayerNextShape does.
    const auto crossing = [](QPointF e0, QPointF e1, double v, bool vertical, bool fromSecond) {
        if (vertical) {
            const double t = std::abs((v - e0.x()) / (e1.x() - e0.x()));
            return QPointF(v, (e1.y() - e0.y()) * t + (fromSecond ? e1.y() : e0.y()));
        }
        const double t = std::abs((v - e0.y()) / (e1.y() - e0.y()));
        return QPointF((e1.x() - e0.x()) * t + e0.x(), v);
    };

    // Meridians (vertical: x fixed, labelled at the bottom and top edges),
    // then parallels (labelled at the left and right edges).
    for (const bool vertical : {true, false}) {
        const GraticuleAxis& along = vertical ? lon : lat;
        const GraticuleAxis& across = vertical ? lat : lon;
        const QPointF edge0a = vertical ? bottomL : leftB, edge0b = vertical ? bottomR : leftT;
        const QPointF edge1a = vertical ? topL : rightB, edge1b = vertical ? topR : rightT;
        for (int i = 0;; ++i) {
            const double v = along.min + i * along.interval;
            if (v > along.max + along.interval * 1e-9) break;
            if (m_labelled) {
                // Each label line is one step of the arc long, running inward
                // from the bottom or left edge, outward to the top or right.
                const double step = (across.max - across.min) / segments;
                const QPointF start = crossing(edge0a, edge0b, v, vertical, false);
                const QPointF end = crossing(edge1a, edge1b, v, vertical, vertical);
                const QPointF along = vertical ? QPointF(0, step) : QPointF(step, 0);
                if (auto r = labelSegment(start, start + along, vertical ? Side::Bottom : Side::Left, v); !r) return r.error();
                if (auto r = labelSegment(end - along, end, vertical ? Side::Top : Side::Right, v); !r) return r.error();
            }
            std::vector<double> xy;
            xy.reserve(size_t(segments + 1) * 2);
            for (int k = 0; k <= segments; ++k) {
                const double w = across.min + (across.max - across.min) * k / segments;
                xy.insert(xy.end(), {vertical ? v : w, vertical ? w : v});
            }
            features << lineFeature(id++, std::move(xy));
        }
    }
    return std::unique_ptr<FeatureCursor>(new ListCursor(fields, std::move(features)));
}

}  // namespace maptune
