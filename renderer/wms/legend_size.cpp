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

QRectF legendTextBounds(const MapDef& map, const QString& text)
{
    QString path = defaultFontPath();
    double points = bitmapPointSize(QStringLiteral("MEDIUM"));
    if (const auto& label = map.legend.label) {
        if (label->type == LabelType::TrueType) {
            if (auto file = map.fonts.value(label->font)) path = *file;
            points = label->size.value > 0 ? label->size.value : 10;
        } else {
            points = bitmapPointSize(label->bitmapSize.isEmpty() ? QStringLiteral("MEDIUM") : label->bitmapSize);
        }
    }
    if (path.isEmpty() || text.isEmpty()) return {};
    // MapServer lays glyphs out unhinted at size * 96/72 pixels.
    const double pixels = std::round(points * 96.0 / 72.0);
    // Qt's font engines need a QGuiApplication; headless callers without one
    // get an estimate (average DejaVu Sans Condensed advance, cap height).
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        return QRectF(0, -0.73 * pixels, 0.55 * pixels * text.size(), 0.73 * pixels);
    const QRawFont font(path, pixels, QFont::PreferNoHinting);
    if (!font.isValid()) return {};
    const QList<quint32> glyphs = font.glyphIndexesForString(text);
    const QList<QPointF> advances = font.advancesForGlyphIndexes(glyphs, QRawFont::UseDesignMetrics);
    QRectF box;
    double pen = 0;
    for (int i = 0; i < glyphs.size(); ++i) {
        const QRectF ink = font.pathForGlyph(glyphs[i]).boundingRect().translated(pen, 0);
        if (!ink.isEmpty()) box = box.isNull() ? ink : box.united(ink);
        pen += advances[i].x();
    }
    // MapServer's text bounds run from the pen origin to the last advance.
    box.setLeft(0);
    box.setRight(pen);
    return box;
}

QList<int> legendClasses(const LayerDef& layer)
{
    QList<int> out;
    for (int i = 0; i < layer.classes.size(); ++i)
        if (!layer.classes[i].name.isEmpty()) out << i;
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
