#include "render/symbol_fill.h"

#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace maptune {

QImage SymbolFill::tile(const MarkerStyle& marker, double gap)
{
    if (!marker.symbol) return {};
    const QSizeF extent = SymbolPainter::extent(marker);
    if (extent.width() <= 0 && extent.height() <= 0) return {};
    const SymbolType type = marker.symbol->drawnType();
    const bool drawing = type == SymbolType::Vector || type == SymbolType::Ellipse;
    // SIZE over the symbol's default size (its height, else its width); a
    // pixmap or SVG without SIZE keeps its own.
    const double base = extent.height() > 0 ? extent.height() : extent.width();
    const double scale = !drawing && marker.size <= 1 ? 1 : marker.size / base;
    int w = 0, h = 0;
    if (scale != 1) {
        w = gap > 0 ? int(std::max<double>(std::lround(gap), extent.width() * scale)) : int(std::lround(extent.width() * scale));
        h = gap > 0 ? int(std::max<double>(std::lround(gap), extent.height() * scale)) : int(std::lround(extent.height() * scale));
    } else {
        w = int(gap > 0 ? std::max(gap, extent.width()) : extent.width());
        h = int(gap > 0 ? std::max(gap, extent.height()) : extent.height());
    }
    w = std::max(w, 1), h = std::max(h, 1);
    MarkerStyle m = marker;
    m.centred = true;  // AGG centres a tile's symbol whatever its ANCHORPOINT
    const bool seamless = type == SymbolType::Vector && gap == 0;
    QImage canvas(seamless ? 3 * w : w, seamless ? 3 * h : h, QImage::Format_ARGB32_Premultiplied);
    canvas.fill(Qt::transparent);
    QPainter q(&canvas);
    q.setRenderHint(QPainter::Antialiasing);
    if (!seamless) {
        SymbolPainter::drawMarker(q, QPointF(w / 2.0, h / 2.0), m);
        return canvas;
    }
    // getTile: the symbol on a 3 x 3 grid shifted one cell (cells 1..3),
    // the middle cell kept: its left and top edges get one neighbour's
    // stroke, its right and bottom two.
    for (int i = 1; i <= 3; ++i)
        for (int j = 1; j <= 3; ++j) SymbolPainter::drawMarker(q, QPointF((i + 0.5) * w, (j + 0.5) * h), m);
    q.end();
    return canvas.copy(w, h, w, h);
}

void SymbolFill::fill(QPainter& p, const QList<QPolygonF>& rings, const QImage& tile)
{
    QPainterPath path;
    path.setFillRule(Qt::OddEvenFill);
    for (const QPolygonF& ring : rings) path.addPolygon(ring);
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrushOrigin(0, 0);
    p.fillPath(path, QBrush(tile));
    p.restore();
}

}  // namespace maptune
