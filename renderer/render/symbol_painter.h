#pragma once
// Draws MapServer symbols (ellipse, vector, pixmap, truetype) as point
// markers, and markers repeated along lines (GAP).

#include "mapfile/map_def.h"

#include <QColor>
#include <QPainter>
#include <QPainterPath>

namespace maptune {

struct MarkerStyle {
    const SymbolDef* symbol = nullptr;  // null: MapServer's default symbol 0
    double size = 1;                    // pixels (height of the symbol)
    double angle = 0;                   // degrees counter-clockwise
    double width = 1;                   // stroke width of unfilled vector symbols
    QColor fill;                        // COLOR (invalid = none)
    QColor outline;                     // OUTLINECOLOR (invalid = none)
    double outlineWidth = 0;
    QString baseDir;                    // for pixmap IMAGE paths
    QString fontPath;                   // for truetype symbols
    bool alongLine = false;             // placed by drawAlongLine (anchors differ)
    bool centred = false;               // ANCHORPOINT ignored (fill tiles)
    QPointF offset;                     // pixels; a label STYLE's OFFSET (layer styles move the painter instead)
};

class SymbolPainter {
public:
    static void drawMarker(QPainter& p, const QPointF& at, const MarkerStyle& s);
    // The box a marker takes for label collisions (msGetMarkerSize): the
    // size in whole pixels as its height, the symbol's proportions as its
    // width; MapServer's default symbol 0 is a single pixel.
    static QSizeF markerSize(const MarkerStyle& s);
    // The symbol's own size (symbol units: a vector's largest x and y, an
    // image's pixels); empty for the default symbol and TrueType.
    static QSizeF extent(const MarkerStyle& s);
    // Markers every |gap| pixels along `path` (negative gap: rotated to
    // follow the line); `initialGap` < 0 means gap/2 as MapServer.
    static void drawAlongLine(QPainter& p, const QPolygonF& line, const MarkerStyle& s, double gap, double initialGap);
};

}  // namespace maptune
