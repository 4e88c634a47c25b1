#include "render/legend_layout.h"

#include "render/label_cache.h"

#include <cmath>

namespace maptune {

TextPath LegendText::layout(const QString& text) const
{
    return TextPath::layout(text, fonts, options);
}

LegendText legendText(const MapDef& map)
{
    const double rf = map.defResolution > 0 ? map.resolution / map.defResolution : 1;
    return blockLabelText(map, map.legend.label.value_or(LabelDef{}), rf);
}

LegendText blockLabelText(const MapDef& map, const LabelDef& label, double rf)
{
    LegendText t;
    t.fonts = FontList::forLabel(label.font, map.fonts, label.type == LabelType::TrueType);
    t.options.glyphSize = labelGlyphSize(label, label.size.value, rf, rf);
    t.ink.color = label.color.color.isSet() ? label.color.color : Color::rgb(0, 0, 0);
    t.ink.outline = label.outlineColor.color;
    t.ink.outlineWidth = label.outlineWidth;
    return t;
}

QRectF legendTextBounds(const MapDef& map, const QString& text)
{
    if (text.isEmpty()) return {};
    return legendText(map).layout(text).bounds;
}

QList<int> legendClasses(const LayerDef& layer)
{
    QList<int> out;
    for (int i = 0; i < layer.classes.size(); ++i)
        if (!layer.classes[i].name.isNull()) out << i;
    return out;
}

LegendEntry legendEntry(const MapDef& map, const LayerDef& layer, int cls)
{
    LegendEntry e{&layer, cls, legendTextBounds(map, layer.classes[cls].name), 0};
    e.height = std::max(int(std::lround(e.text.height())), map.legend.keySizeY);
    return e;
}

QSize legendSize(const MapDef& map, const QList<LegendEntry>& entries)
{
    if (entries.isEmpty()) return {};
    const LegendDef& legend = map.legend;
    int maxWidth = 0, height = 0;
    for (const LegendEntry& e : entries) {
        maxWidth = std::max(maxWidth, int(std::lround(e.text.width())));
        height += e.height;
    }
    height += 2 * kLegendMargin + (int(entries.size()) - 1) * legend.keySpacingY;
    return {2 * kLegendMargin + maxWidth + legend.keySpacingX + legend.keySizeX, height};
}

QSize legendSize(const MapDef& map, const QList<int>& layers)
{
    QList<LegendEntry> entries;
    for (int index : layers) {
        const LayerDef& layer = map.layers[index];
        // A layer with a CLASSGROUP shows only that group's classes.
        for (int c : legendClasses(layer))
            if (layer.classGroup.isEmpty() || layer.classes[c].group == layer.classGroup) entries << legendEntry(map, layer, c);
    }
    return legendSize(map, entries);
}

}  // namespace maptune
