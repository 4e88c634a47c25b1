#include "render/legend_icon.h"

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

void drawZigzag(QPainter& p, const ClassDef& cls, const QRect& key)
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
    for (const StyleDef& s : cls.styles) {
        const QColor c = qcolor(s.color, s.opacity.value / 100.0);
        if (!c.isValid() || s.width.value <= 0) continue;
        QPen pen(c, s.width.value);
        // AGG strokes hairlines with butt caps and bevel joins, whatever LINECAP/LINEJOIN say.
        const bool hair = s.width.value <= 1;
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
}

void drawMarkers(QPainter& p, const MapDef& map, const ClassDef& cls, const QRect& key)
{
    const QPointF centre(key.x() + key.width() / 2.0, key.y() + key.height() / 2.0);
    for (const StyleDef& s : cls.styles) {
        MarkerStyle m;
        m.symbol = symbolOf(map, s);
        m.size = s.size.value > 0 ? s.size.value : 1;
        m.angle = s.angle.value;
        m.width = s.width.value;
        m.fill = qcolor(s.color, s.opacity.value / 100.0);
        m.outline = qcolor(s.outlineColor, s.opacity.value / 100.0);
        m.outlineWidth = s.outlineWidth.value;
        m.baseDir = map.baseDir();
        SymbolPainter::drawMarker(p, centre, m);
    }
}

void drawBox(QPainter& p, const ClassDef& cls, const QRect& key)
{
    const QRectF box(key.x(), key.y(), key.width(), key.height());
    for (const StyleDef& s : cls.styles) {
        const QColor fill = qcolor(s.color, s.opacity.value / 100.0);
        const QColor outline = qcolor(s.outlineColor, s.opacity.value / 100.0);
        if (fill.isValid()) p.fillRect(box, fill);
        if (outline.isValid()) {
            const double w = std::max(s.width.value, 1.0);
            p.setPen(QPen(outline, w));
            p.setBrush(Qt::NoBrush);
            p.drawRect(box.adjusted(w / 2, w / 2, -w / 2, -w / 2));
        }
    }
}

}  // namespace

void drawLegendIcon(QPainter& p, const MapDef& map, const LayerDef& layer, const ClassDef& cls, const QRect& key)
{
    p.save();
    p.setClipRect(key);
    if (cls.keyImage.isEmpty() || !drawKeyImage(p, map, cls, key)) {
        if (layer.type == LayerType::Line)
            drawZigzag(p, cls, key);
        else if (layer.type == LayerType::Point)
            drawMarkers(p, map, cls, key);
        else
            drawBox(p, cls, key);
    }
    if (map.legend.outlineColor.isSet()) {
        const Color& c = map.legend.outlineColor;
        p.setPen(QPen(QColor(c.r, c.g, c.b), 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(key).adjusted(0.5, 0.5, -0.5, -0.5));
    }
    p.restore();
}

}  // namespace maptune
