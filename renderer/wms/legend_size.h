#pragma once
// The size of MapServer's legend image for some layers (msLegendCalcSize):
// one row per named class, key box KEYSIZE plus the class name in the legend
// LABEL font, 5-pixel margins. Shared by GetCapabilities (LegendURL width and
// height) and GetLegendGraphic.

#include "mapfile/map_def.h"

#include <QList>
#include <QRectF>
#include <QSize>

namespace maptune {

struct LegendFont {
    QString path;        // font file
    double points = 10;
    double pixels = 13;  // the size glyphs are laid out at
    bool bitmap = true;  // a stand-in for MapServer's built-in bitmap font
};

// The font of the legend LABEL (truetype from the FONTSET, else the bitmap
// stand-in DejaVu Sans Condensed at MapServer's bitmap sizes).
LegendFont legendFont(const MapDef& map);

// Ink box of `text` in the legend label's font (MapServer's embedded DejaVu
// Sans Condensed for bitmap labels), origin on the baseline.
QRectF legendTextBounds(const MapDef& map, const QString& text);

// The classes of a layer a legend shows: those with a NAME (even NAME "").
QList<int> legendClasses(const LayerDef& layer);

QSize legendSize(const MapDef& map, const QList<int>& layers);

}  // namespace maptune
