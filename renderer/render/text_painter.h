#pragma once
// Draws glyph outlines the way MapServer's AGG renderer does
// (agg2RenderGlyphsPath): every glyph's outline placed by its own transform,
// filled with the non-zero rule by the exact-area rasterizer; an outline
// colour first, as the glyphs grown by (OUTLINEWIDTH + 1) / 2 pixels; a
// shadow first of all, the same text moved by the shadow size.

#include "core/color.h"
#include "text/text_path.h"

#include <QImage>
#include <QPainter>
#include <QList>
#include <QTransform>

namespace maptune {

struct TextInk {
    Color color = Color::rgb(0, 0, 0);
    Color outline;           // unset: none
    double outlineWidth = 1;
    Color shadow;            // unset: none
    double shadowX = 1, shadowY = 1;
};

struct GlyphPlacement {
    std::shared_ptr<const GlyphShape> shape;
    QTransform toImage;      // glyph pixels (origin at its pen position) to image pixels
};

class TextPainter {
public:
    // `path` with its origin at `origin` (image pixels), turned `angle`
    // degrees counter-clockwise about it.
    static QList<GlyphPlacement> place(const TextPath& path, QPointF origin, double angle);
    // On an image bound to a VectorSurface, the glyphs go there as curves.
    static void draw(QImage& image, const QList<GlyphPlacement>& glyphs, const TextInk& ink);
    // The glyphs' curves on a vector painter: filled, an outline stroked
    // under them OUTLINEWIDTH + 1 wide (MapServer's renderGlyphsCairo).
    static void drawVector(QPainter& p, const QList<GlyphPlacement>& glyphs, const TextInk& ink);
    static void draw(QImage& image, const TextPath& path, QPointF origin, double angle, const TextInk& ink)
    {
        draw(image, place(path, origin, angle), ink);
    }
};

}  // namespace maptune
