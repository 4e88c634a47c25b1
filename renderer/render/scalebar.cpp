#include "render/scalebar.h"

#include "encode/vector_surface.h"
#include "render/embed_position.h"
#include "render/label_cache.h"
#include "render/legend_layout.h"
#include "render/text_painter.h"

#include <QPainter>

#include <cmath>

namespace maptune {

namespace {

constexpr int kHMargin = 3, kVMargin = 3;  // HMARGIN / VMARGIN of mapscale.c
constexpr int kShrinkStep = 5;

QString unitText(const QString& units)
{
    const QString u = units.toUpper();
    if (u == QLatin1String("INCHES")) return QStringLiteral("in");
    if (u == QLatin1String("FEET")) return QStringLiteral("ft");
    if (u == QLatin1String("METERS")) return QStringLiteral("m");
    if (u == QLatin1String("KILOMETERS")) return QStringLiteral("km");
    if (u == QLatin1String("DD")) return QStringLiteral("dd");
    if (u == QLatin1String("NAUTICALMILES")) return QStringLiteral("nm");
    return QStringLiteral("mi");  // MILES, the default
}

QString gFormat(double v)
{
    return QString::asprintf("%g", v);
}

LabelDef scalebarLabel(const MapDef& map)
{
    return map.scalebar.label.value_or(LabelDef{});
}

using BarText = LegendText;

QString extra(const ScalebarDef& s, const char* keyword, int arg = 0)
{
    for (const ExtraProperty& e : s.extras)
        if (e.keyword.compare(QLatin1String(keyword), Qt::CaseInsensitive) == 0 && e.args.size() > arg) return e.args[arg];
    return {};
}

void fillRect(QImage& image, const QRectF& r, const Color& c)
{
    if (!c.isSet()) return;
    QPainter p(VectorSurface::deviceFor(image));
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(r, QColor(c.r, c.g, c.b, c.a));
}

// A 1-pixel outline on the pixel centres, so that it is crisp as MapServer's.
void outlineRect(QImage& image, const QRectF& r, const Color& c)
{
    if (!c.isSet()) return;
    QPainter p(VectorSurface::deviceFor(image));
    QPen pen(QColor(c.r, c.g, c.b, c.a), 1);
    pen.setJoinStyle(Qt::MiterJoin);
    p.setPen(pen);
    p.drawRect(r.translated(0.5, 0.5));
}

void line(QImage& image, QPointF a, QPointF b, const Color& c)
{
    if (!c.isSet()) return;
    QPainter p(VectorSurface::deviceFor(image));
    p.setPen(QPen(QColor(c.r, c.g, c.b, c.a), 1, Qt::SolidLine, Qt::FlatCap));
    p.drawLine(a + QPointF(0.5, 0.5), b + QPointF(0.5, 0.5));
}

// A label at `anchor`: centred on it (CC), or for the last one, right of it
// and moved back left by half its length in digits (mapscale.c).
void drawLabel(QImage& image, const BarText& text, const QString& s, QPointF anchor, double shiftLeft)
{
    const TextPath path = text.layout(s);
    if (path.isEmpty()) return;
    const double w = path.bounds.width(), h = path.bounds.height();
    const QPointF corner = shiftLeft > 0 ? QPointF(anchor.x() + 2 - shiftLeft, anchor.y() + h / 2)
                                         : QPointF(anchor.x() - w / 2, anchor.y() + h / 2);
    const QPointF origin = corner - QPointF(path.bounds.left(), path.bounds.bottom());
    TextPainter::draw(image, path, origin, 0, text.ink);
}

}  // namespace

double roundScalebarInterval(double d)
{
    if (d <= 0) return 0;
    if (d < .001) return std::lround(d * 10000) / 10000.0;
    if (d < .01) return std::lround(d * 1000) / 1000.0;
    if (d < .1) return std::lround(d * 100) / 100.0;
    if (d < 1) return std::lround(d * 10) / 10.0;
    if (d < 100) return double(std::lround(d));
    const double magnitude = std::pow(10.0, std::floor(std::log10(d)) - 1);
    return std::lround(d / magnitude) * magnitude;
}

QImage drawScalebar(const MapDef& map, const MapView& view, VectorSurface* vector)
{
    const ScalebarDef& sb = map.scalebar;
    const double cell = view.width > 0 ? view.cellSizeX() : 0;
    if (!(cell > 0) || sb.intervals <= 0 || sb.sizeX <= 0) return {};
    const double rf = view.defResolution > 0 ? view.resolution / view.defResolution : 1;
    const BarText text = blockLabelText(map, scalebarLabel(map), rf);
    const TextPath digits = text.layout(QStringLiteral("0123456789"));
    const double fw = digits.bounds.width() / 10, fh = digits.bounds.height();

    const QString units = sb.units.isEmpty() ? QStringLiteral("MILES") : sb.units;
    const double mapUnitsPerBarUnit = inchesPerUnit(effectiveUnits(map, view.crs)) / inchesPerUnit(units);
    const QString unit = unitText(units);
    // Shorten the bar until it and its last label fit.
    double dsx = sb.sizeX - 2 * kHMargin, step = 0;
    int isx = 0, sx = 0;
    QString last;
    do {
        step = roundScalebarInterval(dsx * cell * mapUnitsPerBarUnit / sb.intervals);
        isx = int(std::lround(step / mapUnitsPerBarUnit / cell));
        last = gFormat(sb.intervals * step);
        sx = sb.intervals * isx + int(std::lround((1.5 + last.size() / 2.0 + unit.size()) * fw));
        dsx -= kShrinkStep;
    } while (sx > sb.sizeX - 2 * kHMargin && dsx > 0);

    const int height = 2 * kVMargin + int(std::lround(0.8 * fh)) + int(fh) + sb.sizeY - 5;
    QImage image(sb.sizeX, std::max(1, height), QImage::Format_ARGB32_Premultiplied);
    const Color bg = sb.imageColor;
    image.fill(sb.transparent || !bg.isSet() ? QColor(Qt::transparent) : QColor(bg.r, bg.g, bg.b));
    std::optional<VectorSurface::Binding> binding;
    if (vector) {
        vector->setSize(image.size());
        vector->setBackground(sb.transparent || !bg.isSet() ? std::nullopt : std::optional<QColor>(QColor(bg.r, bg.g, bg.b)));
        binding.emplace(image, *vector);
    }

    const QString align = extra(sb, "ALIGN").toUpper();
    int ox = int(std::lround((sb.sizeX - sx) / 2.0 + fw / 2));
    if (align == QLatin1String("LEFT")) ox = kHMargin;
    else if (align == QLatin1String("RIGHT")) ox = int(std::lround(sb.sizeX - sx + fw));
    const int oy = kVMargin;
    const double labelY = oy + sb.sizeY + std::lround(0.8 * fh);

    if (sb.style == 1) {
        line(image, QPointF(ox, oy), QPointF(ox + sb.intervals * isx, oy), sb.color);
        for (int j = 0; j <= sb.intervals; ++j)
            line(image, QPointF(ox + j * isx, oy), QPointF(ox + j * isx, oy + sb.sizeY), sb.color);
    } else {
        for (int j = 0; j < sb.intervals; ++j) {
            const QRectF box(ox + j * isx, oy, isx, sb.sizeY);
            fillRect(image, box.translated(0.5, 0.5), j % 2 == 0 ? sb.color : sb.backgroundColor);
            outlineRect(image, box, sb.outlineColor);
        }
    }
    for (int j = 0; j < sb.intervals; ++j)
        drawLabel(image, text, gFormat(j * step), QPointF(ox + j * isx, labelY), 0);
    const QString lastLabel = last + QLatin1Char(' ') + unit;
    drawLabel(image, text, lastLabel, QPointF(ox + sb.intervals * isx, labelY), std::lround(last.size() * fw / 2));
    return image;
}

QRect embedScalebar(QImage& canvas, const MapDef& map, const MapView& view)
{
    if (!map.scalebar.present || map.scalebar.status.compare(QLatin1String("EMBED"), Qt::CaseInsensitive) != 0) return {};
    VectorSurface* surface = VectorSurface::boundTo(canvas);
    VectorSurface drawn{QSize()};
    const QImage bar = drawScalebar(map, view, surface ? &drawn : nullptr);
    if (bar.isNull()) return {};
    const QPoint offset(extra(map.scalebar, "OFFSET", 0).toInt(), extra(map.scalebar, "OFFSET", 1).toInt());
    const QPoint at = embedTopLeft(canvas.size(), bar.size(), map.scalebar.position, offset);
    if (surface) {
        surface->append(drawn, at);
        return QRect(at, bar.size());
    }
    QPainter p(&canvas);
    p.drawImage(at, bar);
    return QRect(at, bar.size());
}

}  // namespace maptune
