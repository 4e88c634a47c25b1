#pragma once
// A polygon filled with a symbol (msDrawShadeSymbol's tiled fill, AGG's
// renderPolygonTiled): the symbol drawn once into a tile of whole pixels,
// the tile repeated from the image's corner over the polygon.

#include "render/symbol_painter.h"

#include <QImage>
#include <QList>
#include <QPainter>
#include <QPolygonF>

namespace maptune {

class SymbolFill {
public:
    // The tile for `marker` (symbol, SIZE, ANGLE, colours) spaced `gap`
    // pixels apart (0: the symbol's own size): a null image when the symbol
    // has no size to tile. A vector symbol without a gap is drawn seamless,
    // its neighbours' edges reaching into the tile as MapServer draws them.
    static QImage tile(const MarkerStyle& marker, double gap);

    // Fills the rings (even-odd) with the tile, without AGG's polygon gamma.
    static void fill(QPainter& p, const QList<QPolygonF>& rings, const QImage& tile);
};

}  // namespace maptune
