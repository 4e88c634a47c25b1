#include "wms/legend_size.h"

#include <QFile>
#include <QGuiApplication>
#include <QPainterPath>
#include <QRawFont>

#include <cmath>

namespace maptune {

namespace {

constexpr int kMargin = 5;  // HMARGIN / VMARGIN of maplegend.c

// Bitmap sizes TINY..GIANT map to these point sizes in MapServer 8.
double bitmapPointSize(const QString& name)
{
    static const QStringList names{QStringLiteral("TINY"), QStringLiteral("SMALL"), QStringLiteral("MEDIUM"),
                                   QStringLiteral("LARGE"), QStringLiteral("GIANT")};
    static const double sizes[] = {5, 7, 10, 12, 15};
    const int i = names.indexOf(name.toUpper());
    return sizes[i < 0 ? 2 : i];
}

QString defaultFontPath()
{
    for (const char* p : {"/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
                          "/usr/share/fonts/dejavu/DejaVuSansCondensed.ttf"})
        if (QFile::exists(QLatin1String(p))) return QLatin1String(p);
    return {};
}

}  // namespace

LegendFont legendFont(const MapDef& map)
{
    LegendFont f{defaultFontPath(), bitmapPointSize(QStringLiteral("MEDIUM"))};
    if (const auto& label = map.legend.label) {
        if (label->type == LabelType::TrueType) {
            if (auto file = map.fonts.value(label->font)) f.path = *file;
            f.points = label->size.value > 0 ? label->size.value : 10;
        } else {
            f.points = bitmapPointSize(label->bitmapSize.isEmpty() ? QStringLiteral("MEDIUM") : label->bitmapSize);
        }
        f.bitmap = label->type != LabelType::TrueType;
    }
    // MapServer lays glyphs out unhinted at size * 96/72 pixels.
    f.pixels = std::round(f.points * 96.0 / 72.0);
    return f;
}

QRectF legendTextBounds(const MapDef& map, const QString& text)
{
    const LegendFont f = legendFont(map);
    if (f.path.isEmpty() || text.isEmpty()) return {};
    // Qt's font engines need a QGuiApplication; headless callers without one
    // get an estimate (average DejaVu Sans Condensed advance, cap height).
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return QRectF(0, -0.73 * f.pixels, 0.55 * f.pixels * text.size(), 0.73 * f.pixels);
    const QRawFont font(f.path, f.pixels, QFont::PreferNoHinting);
    if (!font.isValid()) return {};
    const QList<quint32> glyphs = font.glyphIndexesForString(text);
    const QList<QPointF> advances = font.advancesForGlyphIndexes(glyphs, QRawFont::UseDesignMetrics);
    // FreeType lays hinted glyphs out on whole pixels: advances are rounded
    // and each glyph's box widened to the pixel grid horizontally. The height
    // is the outlines' own.
    double left = HUGE_VAL, right = -HUGE_VAL, top = HUGE_VAL, bottom = -HUGE_VAL;
    double pen = 0;
    for (int i = 0; i < glyphs.size(); ++i) {
        const QRectF ink = font.pathForGlyph(glyphs[i]).boundingRect();
        if (!ink.isEmpty()) {
            left = std::min(left, pen + std::floor(ink.left()));
            right = std::max(right, pen + std::ceil(ink.right()));
            top = std::min(top, ink.top());
            bottom = std::max(bottom, ink.bottom());
        }
        pen += std::round(advances[i].x());
    }
    if (left > right) return {};
    // The bitmap stand-in is measured from the pen origin to the sum of the
    // unrounded advances: what MapServer's built-in font sizes come out as.
    if (f.bitmap) {
        double advance = 0;
        for (const QPointF& a : advances) advance += a.x();
        left = 0;
        right = advance;
    }
    return QRectF(QPointF(left, top), QPointF(right, bottom));
}

QList<int> legendClasses(const LayerDef& layer)
{
    QList<int> out;
    for (int i = 0; i < layer.classes.size(); ++i)
        if (!layer.classes[i].name.isNull()) out << i;
    return out;
}

QSize legendSize(const MapDef& map, const QList<int>& layers)
{
    const LegendDef& legend = map.legend;
    int maxWidth = 0, height = 0, items = 0;
    for (int index : layers) {
        const LayerDef& layer = map.layers[index];
        for (int c : legendClasses(layer)) {
            const QRectF box = legendTextBounds(map, layer.classes[c].name);
            maxWidth = std::max(maxWidth, int(std::lround(box.width())));
            height += std::max(int(std::lround(box.height())), legend.keySizeY);
            ++items;
        }
    }
    if (items == 0) return {};
    height += 2 * kMargin + (items - 1) * legend.keySpacingY;
    const int width = 2 * kMargin + maxWidth + legend.keySpacingX + legend.keySizeX;
    return {width, height};
}

}  // namespace maptune
