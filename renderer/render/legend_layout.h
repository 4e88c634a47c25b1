#pragma once
// MapServer's legend layout (maplegend.c: msLegendCalcSize): one row per
// class with a NAME, the key box KEYSIZE and the class name in the legend
// LABEL's font beside it, KEYSPACING between, 5-pixel margins. Shared by
// embedded legends, GetCapabilities (LegendURL width and height) and
// GetLegendGraphic.

#include "mapfile/map_def.h"
#include "render/text_painter.h"

#include <QList>
#include <QRectF>
#include <QSize>

namespace maptune {

constexpr int kLegendMargin = 5;  // HMARGIN / VMARGIN of maplegend.c

// How the legend LABEL writes: its font (the FONTSET's, else MapServer's
// built-in one), glyph size and colour.
struct LegendText {
    FontList fonts;
    TextLayoutOptions options;
    TextInk ink;
    TextPath layout(const QString& text) const;
};
LegendText legendText(const MapDef& map);
// The same for any map-level LABEL block (the scale bar's), at resolution factor rf.
LegendText blockLabelText(const MapDef& map, const LabelDef& label, double rf);

// Bounds of `text` in the legend label's font, origin on the baseline.
QRectF legendTextBounds(const MapDef& map, const QString& text);

// The classes of a layer a legend shows: those with a NAME (even NAME "").
QList<int> legendClasses(const LayerDef& layer);

struct LegendEntry {
    const LayerDef* layer = nullptr;
    int cls = -1;
    QRectF text;     // bounds of the class name, origin on the baseline
    int height = 0;  // of its row
};
LegendEntry legendEntry(const MapDef& map, const LayerDef& layer, int cls);

QSize legendSize(const MapDef& map, const QList<LegendEntry>& entries);
QSize legendSize(const MapDef& map, const QList<int>& layers);

}  // namespace maptune
