#pragma once
// Strokes and fills of vector features: straight into an ARGB32 image
// through StrokeOutline and the coverage rasterizer where the shape allows
// (round-joined lines, open hairlines, dashes, polygon fills), through Qt's
// stroker otherwise. The direct path writes raw rows of a row band, so two
// threads can share one canvas.

#include "mapfile/map_def.h"
#include "render/coverage_rasterizer.h"

#include <QImage>
#include <QList>
#include <QPainter>
#include <QPen>
#include <QPolygonF>

namespace maptune {

// Raw rows of a canvas and the band of them one thread may write.
struct PixelTarget {
    uchar* bits;
    qsizetype bytesPerLine;
    int width, height, top, bottom;

    static PixelTarget whole(QImage& image);
    PixelTarget band(int from, int to) const { return {bits, bytesPerLine, width, height, from, to}; }
};

class StrokePainter {
public:
    // Polylines (or rings when `closed`) with `pen`, through whichever path fits.
    // `coverage`, when given, remaps coverage before blending (aliased() for ANTIALIAS FALSE).
    static void stroke(QPainter& p, const QList<QPolygonF>& parts, const QPen& pen, bool closed,
                       const CoverageRasterizer::GammaTable* coverage = nullptr);
    // Whether `pen` strokes directly: round joins with round or butt caps,
    // or an open hairline (butt caps, bevel joins); solid or dashed.
    static bool strokesDirectly(const QPen& pen, bool closed);
    // The direct path only (strokesDirectly(pen, closed) must hold).
    static void strokeInto(const PixelTarget& t, const QList<QPolygonF>& parts, const QPen& pen, bool closed,
                           const CoverageRasterizer::GammaTable* coverage = nullptr);
    // AGG's gamma_threshold(0.5), MapServer's ANTIALIAS FALSE: a pixel at
    // least half covered is drawn in full, others not at all.
    static const CoverageRasterizer::GammaTable* aliased();
    // The coverage table a style asks for: aliased() or none.
    static const CoverageRasterizer::GammaTable* coverageFor(const StyleDef& s) { return s.antialias ? nullptr : aliased(); }
    // Rings with the even-odd rule and MapServer's polygon gamma.
    static void fillRings(QPainter& p, const QList<QPolygonF>& rings, const QColor& color);
    // A painter path in `color` through the coverage rasterizer (AGG's
    // arithmetic, no gamma: MapServer's vector symbols), under the
    // painter's transform; false when the painter cannot be bypassed (not a
    // premultiplied image, clipping, opacity, composition) or the colour is
    // not solid.
    static bool fillPathDirect(QPainter& p, const QPainterPath& path, const QColor& color);
    // A LINE layer whose every style strokes directly for any feature (no
    // symbols, no bound widths that could change the pen's kind, joins and
    // caps the direct path draws).
    static bool drawsLayerDirectly(const LayerDef& layer);
};

}  // namespace maptune
