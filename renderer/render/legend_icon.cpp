#include "render/legend_icon.h"

#include "encode/vector_surface.h"
#include "render/label_cache.h"
#include "render/legend_layout.h"
#include "render/stroke_painter.h"
#include "render/style_resolver.h"
#include "render/scale_range.h"
#include "render/style_geom_transform.h"
#include "render/symbol_painter.h"

#include <QDir>
#include <QImage>
#include <QPainterPath>

namespace maptune {

namespace {

const SymbolDef* symbolOf(const MapDef& map, const StyleDef& s)
{
    if (!s.symbolName.isEmpty()) return map.symbol(s.symbolName);
    // SYMBOL n: index into the symbol set, 0 being MapServer's implicit default.
    if (s.symbolIndex > 0 && s.symbolIndex <= map.symbols.size()) return &map.symbols[s.symbolIndex - 1];
    return nullptr;
}

QColor qcolor(const ColorOrAttr& c, double opacity)
{
    if (!c.color.isSet()) return {};
    return QColor(c.color.r, c.color.g, c.color.b, int(std::lround(c.color.a * opacity)));
}

bool styleInScale(const StyleDef& s, double scaleDenom)
{
    return inQueryScaleRange(s.minScaleDenom, s.maxScaleDenom, scaleDenom);
}

StyleGeomTransform::Kind transformOf(const StyleDef& s)
{
    const Result<StyleGeomTransform> t = StyleGeomTransform::parse(s.geomTransform);
    return t ? t->kind : StyleGeomTransform::Kind::None;
}

MarkerStyle markerOf(const MapDef& map, const StyleDef& s)
{
    MarkerStyle m;
    m.symbol = symbolOf(map, s);
    m.size = s.size.value > 0 ? s.size.value : 1;
    m.angle = s.angle.value;
    m.width = s.width.value;
    m.fill = qcolor(s.color, s.opacity.value / 100.0);
    m.outline = qcolor(s.outlineColor, s.opacity.value / 100.0);
    m.outlineWidth = s.outlineWidth.value;
    m.baseDir = map.baseDir();
    if (m.symbol && !m.symbol->font.isEmpty()) m.fontPath = map.fonts.value(m.symbol->font, {});
    return m;
}

// MS_NINT(width / 2.0): markers sit on a whole pixel of the key.
QPointF keyCentre(const QRect& key)
{
    return QPointF(key.x() + std::lround(key.width() / 2.0), key.y() + std::lround(key.height() / 2.0));
}

// A STYLE GEOMTRANSFORM on the key's shape (msDrawTransformedShape).
void drawTransformed(QPainter& p, const MapDef& map, const StyleDef& s, StyleGeomTransform::Kind kind,
                     const QList<QPolygonF>& shape, const QRect& key)
{
    using Kind = StyleGeomTransform::Kind;
    const QSize image(key.right() + 1, key.bottom() + 1);
    if (kind == Kind::BBox) {
        const QColor fill = qcolor(s.color, s.opacity.value / 100.0);
        QPainterPath box;
        box.addPolygon(boundingBoxRing(shape, image, std::max(s.width.value, s.size.value) + 3));
        if (fill.isValid()) p.fillPath(box, fill);
        return;
    }
    const MarkerStyle m = markerOf(map, s);
    for (const TransformMarker& t : transformMarkers(kind, shape, image, s.angleAuto)) {
        MarkerStyle at = m;
        if (t.angle) at.angle = *t.angle;
        SymbolPainter::drawMarker(p, t.at, at);
    }
}

// KEYIMAGE scaled to fit the key, keeping its aspect ratio, centred (#3296).
bool drawKeyImage(QPainter& p, const MapDef& map, const ClassDef& cls, const QRect& key)
{
    QImage img(QDir(map.baseDir()).absoluteFilePath(cls.keyImage));
    if (img.isNull()) return false;
    const double sx = img.width(), sy = img.height();
    const double size = key.width() / sx < key.height() / sy ? sy * (key.width() / sx) : key.height();
    const QSizeF drawn(sx * size / sy, size);
    const QPointF centre(key.x() + key.width() / 2.0, key.y() + key.height() / 2.0);
    p.save();
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.drawImage(QRectF(centre - QPointF(drawn.width() / 2, drawn.height() / 2), drawn), img);
    p.restore();
    return true;
}

void strokeZigzag(QPainter& p, const QPainterPath& path, const QColor& c, double width, const StyleDef& s)
{
    if (VectorSurface* surface = VectorSurface::of(p)) return surface->strokeLine(p, path, StyleResolver::linePen(c, width, s, 1, true));
    QPen pen(c, width);
    // AGG strokes hairlines with butt caps and bevel joins, whatever LINECAP/LINEJOIN say.
    const bool hair = width <= 1;
    pen.setCapStyle(hair || s.lineCap == LineCap::Butt ? Qt::FlatCap
                    : s.lineCap == LineCap::Square   ? Qt::SquareCap
                                                     : Qt::RoundCap);
    pen.setJoinStyle(hair || s.lineJoin == LineJoin::Bevel || s.lineJoin == LineJoin::None ? Qt::BevelJoin
                     : s.lineJoin == LineJoin::Miter                                       ? Qt::MiterJoin
                                                                                           : Qt::RoundJoin);
    // Exact-area coverage of the stroke outline, as AGG (Qt's thin pens come out lighter).
    QPainterPath outline = QPainterPathStroker(pen).createStroke(path);
    outline.setFillRule(Qt::WindingFill);
    p.fillPath(outline, c);
}

void drawZigzag(QPainter& p, const MapDef& map, const ClassDef& cls, const QRect& key, double scaleDenom)
{
    // The offset keeps the first style's stroke inside the key.
    const double offset = cls.styles.isEmpty() ? 1 : cls.styles[0].width.value / 2;
    const double x = key.x(), y = key.y(), w = key.width(), h = key.height();
    const QPolygonF zigzag{{x + offset, y + h - offset},
                           {x + std::round(w / 3.0) - 1, y + offset},
                           {x + std::round(2.0 * w / 3.0) - 1, y + h - offset},
                           {x + w - offset, y + offset}};
    QPainterPath path;
    path.addPolygon(zigzag);
    using Kind = StyleGeomTransform::Kind;
    for (const StyleDef& s : cls.styles) {
        if (!styleInScale(s, scaleDenom)) continue;
        const Kind kind = transformOf(s);
        if (kind != Kind::None && kind != Kind::LabelPoint && kind != Kind::LabelPoly) {
            drawTransformed(p, map, s, kind, {zigzag}, key);
            continue;
        }
        const double opacity = s.opacity.value / 100.0;
        // OUTLINEWIDTH: the line drawn wider in OUTLINECOLOR first.
        const QColor outline = qcolor(s.outlineColor, opacity);
        if (s.outlineWidth.value > 0 && outline.isValid())
            strokeZigzag(p, path, outline, s.width.value + 2 * s.outlineWidth.value, s);
        const QColor c = qcolor(s.color, opacity);
        if (!c.isValid() || s.width.value <= 0) continue;
        strokeZigzag(p, path, c, s.width.value, s);
    }
}

void drawMarkers(QPainter& p, const MapDef& map, const ClassDef& cls, const QRect& key, double scaleDenom)
{
    const QPointF centre(key.x() + key.width() / 2.0, key.y() + key.height() / 2.0);
    for (const StyleDef& s : cls.styles)
        if (styleInScale(s, scaleDenom)) SymbolPainter::drawMarker(p, centre, markerOf(map, s));
}

void drawBox(QPainter& p, const MapDef& map, const ClassDef& cls, const QRect& key, double scaleDenom)
{
    const QRectF box(key.x(), key.y(), key.width(), key.height());
    using Kind = StyleGeomTransform::Kind;
    for (const StyleDef& s : cls.styles) {
        if (!styleInScale(s, scaleDenom)) continue;
        const Kind kind = transformOf(s);
        if (kind != Kind::None && kind != Kind::LabelPoint && kind != Kind::LabelPoly) {
            drawTransformed(p, map, s, kind, {QPolygonF(box)}, key);
            continue;
        }
        const QColor fill = qcolor(s.color, s.opacity.value / 100.0);
        const QColor outline = qcolor(s.outlineColor, s.opacity.value / 100.0);
        if (VectorSurface::isVector(p)) {
            // msDrawLegendIcon's box, on the pixel centres, filled and outlined as any polygon.
            const QPolygonF ring(box.adjusted(0.5, 0.5, -0.5, -0.5));
            if (fill.isValid()) StrokePainter::fillRings(p, {ring}, fill);
            if (outline.isValid()) StrokePainter::stroke(p, {ring}, StyleResolver::linePen(outline, s.width.value, s, 1, true), false);
            continue;
        }
        if (fill.isValid()) p.fillRect(box, fill);
        if (outline.isValid()) {
            const double w = std::max(s.width.value, 1.0);
            p.setPen(QPen(outline, w));
            p.setBrush(Qt::NoBrush);
            p.drawRect(box.adjusted(w / 2, w / 2, -w / 2, -w / 2));
        }
    }
}

// The label styles drawn at the key's centre; whether there was one.
bool drawLabelPoints(QPainter& p, const MapDef& map, const ClassDef& cls, const QRect& key, double scaleDenom)
{
    if (scaleDenom <= 0) return false;
    bool any = false;
    for (const LabelDef& l : cls.labels) {
        if (!inDrawScaleRange(l.minScaleDenom, l.maxScaleDenom, scaleDenom)) continue;
        for (const StyleDef& s : l.styles)
            if (transformOf(s) == StyleGeomTransform::Kind::LabelPoint) {
                SymbolPainter::drawMarker(p, keyCentre(key), markerOf(map, s));
                any = true;
            }
    }
    return any;
}

// "Az" in the first label's font, colour and outline, KEYSIZE high less one
// pixel, centred on the key: the key of a class that only labels.
void drawTextSample(QPainter& p, const MapDef& map, const ClassDef& cls, const QRect& key)
{
    LabelDef label = cls.labels.first();
    label.size.value = key.height() - 1;
    const double rf = map.defResolution > 0 ? map.resolution / map.defResolution : 1;
    const LegendText text = blockLabelText(map, label, rf);
    const TextPath path = text.layout(QStringLiteral("Az"));
    if (path.isEmpty()) return;
    if (VectorSurface::isVector(p))
        return TextPainter::drawVector(p, TextPainter::place(path, keyCentre(key) - path.bounds.center(), 0), text.ink);
    QImage sample(key.size(), QImage::Format_ARGB32_Premultiplied);
    sample.fill(Qt::transparent);
    const QPointF centre = keyCentre(key) - key.topLeft();
    TextPainter::draw(sample, path, centre - path.bounds.center(), 0, text.ink);
    p.drawImage(key.topLeft(), sample);
}

}  // namespace

void drawLegendIcon(QPainter& p, const MapDef& map, const LayerDef& layer, const ClassDef& cls, const QRect& key,
                    double scaleDenom)
{
    p.save();
    p.setClipRect(key);
    if (cls.keyImage.isEmpty() || !drawKeyImage(p, map, cls, key)) {
        if (layer.type == LayerType::Line)
            drawZigzag(p, map, cls, key, scaleDenom);
        else if (layer.type == LayerType::Point)
            drawMarkers(p, map, cls, key, scaleDenom);
        else
            drawBox(p, map, cls, key, scaleDenom);
    }
    const bool labelMarker = drawLabelPoints(p, map, cls, key, scaleDenom);
    if (cls.styles.isEmpty() && !labelMarker && !cls.labels.isEmpty()) drawTextSample(p, map, cls, key);
    if (map.legend.outlineColor.isSet()) {
        const Color& c = map.legend.outlineColor;
        p.setPen(QPen(QColor(c.r, c.g, c.b), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(key).adjusted(0.5, 0.5, -0.5, -0.5));
    }
    p.restore();
}

}  // namespace maptune
