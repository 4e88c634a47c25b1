#include "render/chart_layer.h"

#include "encode/vector_surface.h"
#include "mapfile/processing.h"
#include "render/polygon_label_point.h"
#include "render/stroke_painter.h"
#include "render/style_resolver.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace maptune {

namespace {

// The numbers at the start of `text`, as successive sscanf("%lf")s read them.
QList<double> leadingNumbers(const QString& text)
{
    QList<double> out;
    const QByteArray bytes = text.toLatin1();
    const char* at = bytes.constData();
    for (;;) {
        char* end = nullptr;
        const double v = std::strtod(at, &end);
        if (end == at) break;
        out << v;
        at = end;
    }
    return out;
}

double nearestInt(double v) { return v >= 0 ? std::floor(v + 0.5) : std::ceil(v - 0.5); }

Error keyError(const char* key) { return Error(QStringLiteral("cannot read PROCESSING \"%1\": not a number").arg(QLatin1String(key))); }

}  // namespace

Result<ChartSettings> ChartSettings::fromLayer(const LayerDef& layer)
{
    const ProcessingOptions options(layer.processing);
    ChartSettings s;
    const QString type = options.value(QStringLiteral("CHART_TYPE"), QStringLiteral("PIE"));
    if (type.compare(QLatin1String("PIE"), Qt::CaseInsensitive) == 0) s.type = Type::Pie;
    else if (type.compare(QLatin1String("BAR"), Qt::CaseInsensitive) == 0) s.type = Type::Bar;
    else if (type.compare(QLatin1String("VBAR"), Qt::CaseInsensitive) == 0) s.type = Type::VBar;
    else return Error(QStringLiteral("unknown CHART_TYPE \"%1\": PIE, BAR or VBAR").arg(type));

    const std::optional<QString> size = options.value(QStringLiteral("CHART_SIZE"));
    const QList<double> sizes = size ? leadingNumbers(*size) : QList<double>();
    if (size && sizes.isEmpty()) return keyError("CHART_SIZE");
    if (!sizes.isEmpty()) s.width = s.height = sizes[0];
    if (s.type == Type::Bar && sizes.size() >= 2) s.height = sizes[1];

    if (s.type == Type::Pie && !size) {
        if (const std::optional<QString> range = options.value(QStringLiteral("CHART_SIZE_RANGE"))) {
            SizeRange r;
            const QString trimmed = range->trimmed();
            const qsizetype space = trimmed.indexOf(QLatin1Char(' '));
            r.attribute = trimmed.left(space);
            if (space > 0) {
                const QList<double> v = leadingNumbers(trimmed.mid(space));
                if (v.size() < 4)
                    return Error(QStringLiteral("PROCESSING \"CHART_SIZE_RANGE\" needs an attribute and four numbers "
                                                "(smallest and largest diameter, smallest and largest value)"));
                r.minDiameter = v[0];
                r.maxDiameter = v[1];
                r.minValue = v[2];
                r.maxValue = v[3];
                r.exponent = v.value(4, 0);
            }
            s.sizeRange = r;
        }
    }
    if (const std::optional<QString> scale = options.value(QStringLiteral("CHART_SCALE"))) {
        const QList<double> v = leadingNumbers(*scale);
        if (v.isEmpty()) return keyError("CHART_SCALE");
        s.scale = v[0];
    }
    for (auto [key, target] : {std::pair{"CHART_BAR_MAXVAL", &s.barMax}, std::pair{"CHART_BAR_MINVAL", &s.barMin}}) {
        if (const std::optional<QString> v = options.value(QLatin1String(key))) {
            const QList<double> n = leadingNumbers(*v);
            if (n.isEmpty()) return keyError(key);
            *target = n[0];
        }
    }
    s.classCount = int(layer.classes.size());
    if (s.type == Type::Bar && s.classCount == 0) return Error(QStringLiteral("a BAR chart needs a CLASS per bar"));
    if (s.barMax && s.barMin && *s.barMin >= *s.barMax)
        return Error(QStringLiteral("PROCESSING \"CHART_BAR_MINVAL\" must be less than \"CHART_BAR_MAXVAL\""));
    return s;
}

double ChartSettings::pieDiameter(double value) const
{
    if (!sizeRange) return width;
    const SizeRange& r = *sizeRange;
    if (r.minDiameter < 0) return value;
    if (value <= r.minValue) return r.minDiameter;
    if (value >= r.maxValue) return r.maxDiameter;
    double t = (value - r.minValue) / (r.maxValue - r.minValue);
    if (r.exponent > 0) t = std::pow(t, 1.0 / r.exponent);
    return nearestInt(r.minDiameter + t * (r.maxDiameter - r.minDiameter));
}

ChartPainter::ChartPainter(const ChartSettings& settings, const MapView& view, QImage& canvas)
    : m_settings(settings), m_view(view), m_canvas(canvas)
{
}

std::optional<QPointF> ChartPainter::placement(const Geometry& g, double w, double h) const
{
    if (g.isEmpty()) return std::nullopt;
    // MapServer measures from the first pixel's centre.
    const auto toPixel = [this](double x, double y) { return QPointF(m_view.toPixelX(x) - 0.5, m_view.toPixelY(y) - 0.5); };
    std::optional<QPointF> at;
    switch (g.type) {
    case Geometry::Type::Point: at = toPixel(g.xy[0], g.xy[1]); break;
    case Geometry::Type::Line: {
        // The segment after the middle vertex, or before it when that is the last.
        const int n = g.partEnd(0);
        const int middle = n / 2;
        if (middle < 1) return std::nullopt;
        const int first = middle + 1 < n ? middle : middle - 1;
        at = toPixel((g.xy[size_t(2 * first)] + g.xy[size_t(2 * first + 2)]) / 2,
                     (g.xy[size_t(2 * first + 1)] + g.xy[size_t(2 * first + 3)]) / 2);
        break;
    }
    case Geometry::Type::Polygon: {
        QList<QPolygonF> rings;
        for (int p = 0; p < g.partCount(); ++p) {
            QPolygonF ring;
            for (int i = g.partStart[size_t(p)]; i < g.partEnd(p); ++i) ring << QPointF(g.xy[size_t(2 * i)], g.xy[size_t(2 * i + 1)]);
            rings << ring;
        }
        if (const std::optional<QPointF> c = polygonLabelPoint(rings, -1)) at = toPixel(c->x(), c->y());
        break;
    }
    case Geometry::Type::None: break;
    }
    if (!at) return std::nullopt;
    const bool fits = at->x() - w / 2 > 0 && at->x() + w / 2 < m_view.width && at->y() - h / 2 > 0 && at->y() + h / 2 < m_view.height;
    return fits ? at : std::nullopt;
}

void ChartPainter::fill(const QPolygonF& ring, const StyleDef& style, const StyleResolver& resolver, const QStringList& values)
{
    const ResolvedStyle r = resolver.resolve(style, values);
    QPainter p(VectorSurface::deviceFor(m_canvas));
    p.setRenderHint(QPainter::Antialiasing);
    if (r.color.isValid()) StrokePainter::fillRings(p, {ring}, r.color);
    if (r.outline.isValid()) StrokePainter::stroke(p, {ring}, StyleResolver::linePen(r.outline, r.width, style, 1, VectorSurface::isVector(p)), true);
}

namespace {

// agg::arc with approximation scale 1, counter-clockwise in the image's
// y-down frame (so clockwise on screen), from the centre and back.
QPolygonF pieSlice(QPointF c, double radius, double startDeg, double endDeg)
{
    QPolygonF ring;
    ring << c;
    const double a1 = startDeg * M_PI / 180, a2 = endDeg * M_PI / 180;
    const double da = std::acos(radius / (radius + 0.125)) * 2;
    double angle = a1;
    while (angle < a2 - da / 4) {
        ring << QPointF(c.x() + std::cos(angle) * radius, c.y() + std::sin(angle) * radius);
        angle += da;
    }
    ring << QPointF(c.x() + std::cos(a2) * radius, c.y() + std::sin(a2) * radius) << c;
    return ring;
}

QPolygonF rectangle(double x0, double y0, double x1, double y1)
{
    return QPolygonF({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}, {x0, y0}});
}

}  // namespace

Status ChartPainter::draw(const Geometry& geometry, const QList<Slice>& slices, double sizeValue,
                          const StyleResolver& resolver, const QStringList& values)
{
    if (slices.isEmpty()) return {};
    switch (m_settings.type) {
    case ChartSettings::Type::Pie: {
        const double diameter = m_settings.pieDiameter(sizeValue);
        double total = 0;
        for (const Slice& s : slices) {
            if (s.value < 0) return Error(QStringLiteral("cannot draw pie charts for negative values"));
            total += s.value;
        }
        const std::optional<QPointF> c = placement(geometry, diameter, diameter);
        if (!c) return {};
        double start = 0;
        for (const Slice& s : slices) {
            if (s.value == 0) continue;  // nothing to draw, and an outline would show
            const double angle = s.value * 360.0 / total;
            QPointF centre = *c;
            // OFFSET x pulls the slice out of the pie along its bisector.
            const double offset = s.style->offsetX.value;
            if (offset > 0) centre += QPointF(offset * std::cos((-start - (start + angle)) * M_PI / 360.0),
                                              -offset * std::sin((-start - (start + angle)) * M_PI / 360.0));
            fill(pieSlice(centre, diameter / 2, start, start + angle), *s.style, resolver, values);
            start += angle;
        }
        return {};
    }
    case ChartSettings::Type::VBar: {
        double height = 0;
        QList<double> v;
        for (const Slice& s : slices) {
            v << s.value * m_settings.scale;
            height += v.back();
        }
        const double barWidth = m_settings.width;
        const std::optional<QPointF> c = placement(geometry, barWidth, height);
        if (!c) return {};
        double cur = c->y() + height / 2;
        const double left = c->x() - barWidth / 2;
        for (qsizetype i = 0; i < slices.size(); ++i) {
            fill(rectangle(left, cur, left + barWidth, cur - v[i]), *slices[i].style, resolver, values);
            cur -= v[i];
        }
        return {};
    }
    case ChartSettings::Type::Bar: break;
    }
    const double width = m_settings.width, height = m_settings.height;
    const std::optional<QPointF> c = placement(geometry, width, height);
    if (!c) return {};
    const double top = c->y() - height / 2, bottom = c->y() + height / 2, left = c->x() - width / 2;
    double shapeMax = slices[0].value, shapeMin = slices[0].value;
    for (const Slice& s : slices) {
        shapeMax = std::max(shapeMax, s.value);
        shapeMin = std::min(shapeMin, s.value);
    }
    // Given bounds, or the values' own with the origin always shown.
    double upper = m_settings.barMax.value_or(std::max(shapeMax, 0.0));
    double lower = m_settings.barMin.value_or(std::min(shapeMin, 0.0));
    if (upper == lower) {
        upper += 0.5;
        lower -= 0.5;
    }
    const double perValue = height / (upper - lower);
    const double origin = bottom + lower * perValue;
    const double originClipped = std::clamp(origin, top, bottom);
    const double barWidth = width / std::max(1, m_settings.classCount);
    double x = left;
    for (const Slice& s : slices) {
        const double y = std::clamp(origin - s.value * perValue, top, bottom);
        if (y != originClipped) {
            if (s.value > 0) fill(rectangle(x, y, x + barWidth - 1, originClipped), *s.style, resolver, values);
            else fill(rectangle(x, originClipped, x + barWidth - 1, y), *s.style, resolver, values);
        }
        x += barWidth;
    }
    return {};
}

}  // namespace maptune
