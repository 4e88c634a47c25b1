#include "render/text_painter.h"

#include "render/coverage_rasterizer.h"
#include "render/contour_outline.h"

#include <QPainter>
#include <QPainterPath>

namespace maptune {

namespace {

QList<QPolygonF> contours(const QList<GlyphPlacement>& glyphs, QPointF shift)
{
    QList<QPolygonF> out;
    for (const GlyphPlacement& g : glyphs) {
        const QTransform t = g.toImage * QTransform::fromTranslate(shift.x(), shift.y());
        for (const QPolygonF& c : g.shape->contours) out << t.map(c);
    }
    return out;
}

// The rings filled non-zero; growBy > 0: grown into the halo first.
void fill(QImage& image, const QList<QPolygonF>& glyphRings, double growBy, const Color& c)
{
    const QList<QPolygonF> rings = growBy > 0 ? ContourOutline::offset(glyphRings, growBy) : glyphRings;
    if (image.format() == QImage::Format_ARGB32_Premultiplied) {
        thread_local CoverageRasterizer raster;
        raster.reset(image.width(), image.height());
        for (const QPolygonF& r : rings) raster.addPolygon(r.constData(), int(r.size()));
        raster.fill(image, qRgba(c.r, c.g, c.b, c.a), CoverageRasterizer::FillRule::NonZero);
        return;
    }
    QPainterPath path;
    path.setFillRule(Qt::WindingFill);
    for (const QPolygonF& r : rings) path.addPolygon(r), path.closeSubpath();
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillPath(path, QColor(c.r, c.g, c.b, c.a));
}

}  // namespace

QList<GlyphPlacement> TextPainter::place(const TextPath& path, QPointF origin, double angle)
{
    QTransform base;
    base.translate(origin.x(), origin.y());
    base.rotate(-angle);
    QList<GlyphPlacement> out;
    out.reserve(path.glyphs.size());
    for (const PlacedGlyph& g : path.glyphs)
        out << GlyphPlacement{g.shape, QTransform::fromTranslate(g.pen.x(), g.pen.y()) * base};
    return out;
}

void TextPainter::draw(QImage& image, const QList<GlyphPlacement>& glyphs, const TextInk& ink)
{
    if (glyphs.isEmpty()) return;
    if (ink.shadow.isSet()) fill(image, contours(glyphs, QPointF(ink.shadowX, ink.shadowY)), 0, ink.shadow);
    const QList<QPolygonF> rings = contours(glyphs, QPointF());
    if (ink.outline.isSet()) fill(image, rings, (ink.outlineWidth + 1) / 2.0, ink.outline);
    if (ink.color.isSet()) fill(image, rings, 0, ink.color);
}

}  // namespace maptune
