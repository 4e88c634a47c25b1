#include "render/legend.h"

#include "encode/vector_surface.h"
#include "render/embed_position.h"
#include "render/legend_icon.h"
#include "render/scale_range.h"

#include <QPainter>

#include <cmath>

namespace maptune {

namespace {

QString extra(const LegendDef& l, const char* keyword)
{
    for (const ExtraProperty& e : l.extras)
        if (e.keyword.compare(QLatin1String(keyword), Qt::CaseInsensitive) == 0 && !e.args.isEmpty()) return e.args.first();
    return {};
}

bool isOn(const QString& v)
{
    return v.compare(QLatin1String("ON"), Qt::CaseInsensitive) == 0 || v.compare(QLatin1String("TRUE"), Qt::CaseInsensitive) == 0;
}

}  // namespace

QImage drawLegend(const MapDef& map, const QList<LegendEntry>& entries, bool transparent, double scaleDenom,
                  VectorSurface* vector)
{
    const QSize size = legendSize(map, entries);
    if (size.isEmpty()) return {};
    const LegendDef& legend = map.legend;
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    const Color bg = legend.imageColor;
    image.fill(transparent || !bg.isSet() ? QColor(Qt::transparent) : QColor(bg.r, bg.g, bg.b));
    std::optional<VectorSurface::Binding> binding;
    if (vector) {
        vector->setSize(size);
        vector->setBackground(transparent || !bg.isSet() ? std::nullopt : std::optional<QColor>(QColor(bg.r, bg.g, bg.b)));
        binding.emplace(image, *vector);
    }
    const LegendText text = legendText(map);
    const LabelDef label = legend.label.value_or(LabelDef{});
    QPainter p(VectorSurface::deviceFor(image));
    p.setRenderHint(QPainter::Antialiasing);
    int y = kLegendMargin;
    for (const LegendEntry& e : entries) {
        drawLegendIcon(p, map, *e.layer, e.layer->classes[e.cls], QRect(kLegendMargin, y, legend.keySizeX, legend.keySizeY),
                       scaleDenom);
        y += e.height;
        const TextPath path = text.layout(e.layer->classes[e.cls].name);
        if (!path.isEmpty()) {
            p.end();
            // The name's ink ends on the row's bottom.
            const QPointF origin(kLegendMargin + legend.keySizeX + legend.keySpacingX + label.offsetX,
                                 y - path.bounds.bottom() + label.offsetY);
            TextPainter::draw(image, path, origin, 0, text.ink);
            p.begin(VectorSurface::deviceFor(image));
            p.setRenderHint(QPainter::Antialiasing);
        }
        y += legend.keySpacingY;
    }
    return image;
}

QList<LegendEntry> mapLegendEntries(const MapDef& map, double scaleDenom)
{
    QList<LegendEntry> entries;
    for (qsizetype i = map.layers.size() - 1; i >= 0; --i) {
        const LayerDef& layer = map.layers[i];
        if (layer.status == LayerStatus::Off || layer.type == LayerType::Query) continue;
        if (!inDrawScaleRange(layer.minScaleDenom, layer.maxScaleDenom, scaleDenom)) continue;
        for (int c : legendClasses(layer)) {
            const ClassDef& cls = layer.classes[c];
            if (!inDrawScaleRange(cls.minScaleDenom, cls.maxScaleDenom, scaleDenom)) continue;
            if (!layer.classGroup.isEmpty() && cls.group != layer.classGroup) continue;
            entries << legendEntry(map, layer, c);
        }
    }
    return entries;
}

QRect embedLegend(QImage& canvas, const MapDef& map, const MapView& view, bool mapTransparent)
{
    if (!map.legend.present || map.legend.status.compare(QLatin1String("EMBED"), Qt::CaseInsensitive) != 0) return {};
    const bool transparent = isOn(extra(map.legend, "TRANSPARENT")) || (map.legend.postLabelCache && mapTransparent);
    // On a vector surface the legend is drawn as shapes too, then moved into its corner.
    VectorSurface* surface = VectorSurface::boundTo(canvas);
    VectorSurface drawn{QSize()};
    const QImage image = drawLegend(map, mapLegendEntries(map, view.scaleDenom), transparent, view.scaleDenom,
                                    surface ? &drawn : nullptr);
    if (image.isNull()) return {};
    QString position = extra(map.legend, "POSITION");
    if (position.isEmpty()) position = QStringLiteral("LL");
    // The legend sits flush in its corner: msEmbedLegend takes no offset.
    const QPoint at = embedTopLeft(canvas.size(), image.size(), position);
    if (surface) {
        surface->append(drawn, at);
        return QRect(at, image.size());
    }
    QPainter p(&canvas);
    p.drawImage(at, image);
    return QRect(at, image.size());
}

}  // namespace maptune
