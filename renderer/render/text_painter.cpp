#include "render/text_painter.h"

#include "encode/vector_surface.h"
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

void TextPainter::drawVector(QPainter& p, const QList<GlyphPlacement>& glyphs, const TextInk& ink)
{
    VectorSurface* surface = VectorSurface::of(p);
    if (!surface) return;
    auto curves = [&glyphs](QPointF shift) {
        QPainterPath path;
        for (const GlyphPlacement& g : glyphs) path.addPath((g.toImage * QTransform::fromTranslate(shift.x(), shift.y())).map(g.shape->curves));
        return path;
    };
    const auto qcolor = [](const Color& c) { return QColor(c.r, c.g, c.b, c.a); };
    if (ink.shadow.isSet()) surface->paintGlyphs(p, curves(QPointF(ink.shadowX, ink.shadowY)), qcolor(ink.shadow), std::nullopt);
    std::optional<QPen> outline;
    if (ink.outline.isSet()) outline = QPen(qcolor(ink.outline), ink.outlineWidth + 1);
    surface->paintGlyphs(p, curves(QPointF()), ink.color.isSet() ? std::optional<QColor>(qcolor(ink.color)) : std::nullopt, outline);
}

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
    if (VectorSurface* surface = VectorSurface::boundTo(image)) {
        QPainter p(surface);
        return drawVector(p, glyphs, ink);
    }
    if (ink.shadow.isSet()) fill(image, contours(glyphs, QPointF(ink.shadowX, ink.shadowY)), 0, ink.shadow);
    const QList<QPolygonF> rings = contours(glyphs, QPointF());
    if (ink.outline.isSet()) fill(image, rings, (ink.outlineWidth + 1) / 2.0, ink.outline);
    if (ink.color.isSet()) fill(image, rings, 0, ink.color);
}

}  // namespace maptune
