#include "render/stroke_painter.h"

#include "encode/vector_surface.h"
#include "render/coverage_rasterizer.h"
#include "render/dash_pattern.h"
#include "render/polygon_fill.h"

#include <QScopeGuard>
#include "render/stroke_outline.h"

#include <QPainterPath>
#include <QPainterPathStroker>

namespace maptune {

namespace {

// Strokes as AGG does: the outline of the stroke filled with exact-area
// coverage. QPainter's own thin-pen path (width <= 1) uses a cosmetic line
// algorithm whose edge pixels come out markedly lighter.
void strokeExact(QPainter& p, const QPainterPath& path, const QPen& pen)
{
    if (pen.widthF() <= 0 || !pen.color().isValid()) return;
    if (VectorSurface* surface = VectorSurface::of(p)) return surface->strokeLine(p, path, pen);
    QPainterPathStroker stroker(pen);
    QPainterPath outline = stroker.createStroke(path);
    outline.setFillRule(Qt::WindingFill);
    p.fillPath(outline, pen.color());
}

// The image under `p` when shapes can be blended into it directly: the
// painter adds nothing but, when allowed, its transform (no clip, opacity or
// other composition).
QImage* directTarget(QPainter& p, bool anyTransform = false)
{
    QPaintDevice* d = p.device();
    if (!d || d->devType() != QInternal::Image) return nullptr;
    auto* image = static_cast<QImage*>(d);
    if (image->format() != QImage::Format_ARGB32_Premultiplied) return nullptr;
    if (p.hasClipping() || p.opacity() != 1 || p.compositionMode() != QPainter::CompositionMode_SourceOver
        || (!anyTransform && !p.transform().isIdentity()))
        return nullptr;
    return image;
}

// One rasterizer per thread, reused for every shape of every layer.
CoverageRasterizer& rasterizer()
{
    thread_local CoverageRasterizer r;
    return r;
}

}  // namespace

PixelTarget PixelTarget::whole(QImage& image)
{
    return {image.bits(), image.bytesPerLine(), image.width(), image.height(), 0, image.height()};
}

// linePen gives every stroke of width <= 1 butt caps and bevel joins, as AGG has them.
bool StrokePainter::strokesDirectly(const QPen& pen, bool closed)
{
    const bool hairline = pen.widthF() <= 1 && pen.joinStyle() == Qt::BevelJoin && pen.capStyle() == Qt::FlatCap && !closed;
    const bool round = pen.joinStyle() == Qt::RoundJoin && (pen.capStyle() == Qt::RoundCap || pen.capStyle() == Qt::FlatCap);
    return (hairline || round) && (pen.style() == Qt::SolidLine || pen.style() == Qt::CustomDashLine);
}

// The outline of the stroke (StrokeOutline, after the dash pattern), filled
// by the coverage rasterizer straight into the target's rows.
const CoverageRasterizer::GammaTable* StrokePainter::aliased()
{
    static const CoverageRasterizer::GammaTable table = [] {
        CoverageRasterizer::GammaTable t{};
        for (int c = 0; c < 256; ++c) t[size_t(c)] = c >= 128 ? 255 : 0;
        return t;
    }();
    return &table;
}

void StrokePainter::strokeInto(const PixelTarget& t, const QList<QPolygonF>& parts, const QPen& pen, bool closed,
                               const CoverageRasterizer::GammaTable* coverage)
{
    const double width = pen.widthF();
    const bool dashed = pen.style() == Qt::CustomDashLine;
    QList<QPolygonF> lines = parts;
    if (closed)
        for (QPolygonF& ring : lines)
            if (ring.size() > 2 && ring.first() != ring.last()) ring << ring.first();
    if (dashed) {
        QList<double> lengths;
        for (qreal d : pen.dashPattern()) lengths << d * width;
        lines = DashPattern(lengths, pen.dashOffset() * width).apply(lines);
    }
    CoverageRasterizer& r = rasterizer();
    r.reset(t.width, t.height, t.top, t.bottom);
    if (pen.joinStyle() == Qt::BevelJoin) {
        StrokeOutline::hairline(lines, width, r);
    } else {
        // A ring's two ends meet: round caps make the join there.
        StrokeOutline::round(lines, width, (closed && !dashed) || pen.capStyle() == Qt::RoundCap, r);
    }
    r.fill(t.bits, t.bytesPerLine, t.width, t.height, pen.color().rgba(), CoverageRasterizer::FillRule::NonZero, coverage);
}

void StrokePainter::stroke(QPainter& p, const QList<QPolygonF>& parts, const QPen& pen, bool closed,
                           const CoverageRasterizer::GammaTable* coverage)
{
    if (pen.widthF() <= 0 || !pen.color().isValid()) return;
    if (strokesDirectly(pen, closed)) {
        if (QImage* image = directTarget(p)) {
            strokeInto(PixelTarget::whole(*image), parts, pen, closed, coverage);
            return;
        }
    }
    // Qt's own aliased rasterising stands in for the threshold on this path.
    const bool aa = p.testRenderHint(QPainter::Antialiasing);
    if (coverage) p.setRenderHint(QPainter::Antialiasing, false);
    const auto restore = qScopeGuard([&] { p.setRenderHint(QPainter::Antialiasing, aa); });
    QPainterPath path;
    for (const QPolygonF& part : parts) {
        if (part.size() < 2) continue;
        path.moveTo(part.first());
        for (qsizetype i = 1; i < part.size(); ++i) path.lineTo(part[i]);
        if (closed) path.closeSubpath();
    }
    strokeExact(p, path, pen);
}

bool StrokePainter::fillPathDirect(QPainter& p, const QPainterPath& path, const QColor& color)
{
    QImage* image = directTarget(p, true);
    if (!image || !color.isValid() || !p.transform().isInvertible()) return false;
    if (color.alpha() == 0 || path.isEmpty()) return true;
    CoverageRasterizer& r = rasterizer();
    r.reset(image->width(), image->height());
    for (const QPolygonF& ring : p.transform().map(path).toSubpathPolygons()) r.addPolygon(ring.constData(), int(ring.size()));
    r.fill(*image, color.rgba(),
           path.fillRule() == Qt::WindingFill ? CoverageRasterizer::FillRule::NonZero : CoverageRasterizer::FillRule::EvenOdd);
    return true;
}

bool StrokePainter::drawsLayerDirectly(const LayerDef& layer)
{
    if (layer.type != LayerType::Line || !layer.geomTransform.isEmpty()) return false;
    for (const ClassDef& c : layer.classes)
        for (const StyleDef& s : c.styles) {
            if (!s.symbolName.isEmpty() || s.symbolIndex > 0 || s.gap != 0) return false;
            if (s.width.isBound() || s.outlineWidth.isBound()) return false;
            if (s.lineJoin != LineJoin::Round || s.lineCap == LineCap::Square) return false;
            if (!s.geomTransform.isEmpty()) return false;
        }
    return true;
}

void StrokePainter::fillRings(QPainter& p, const QList<QPolygonF>& rings, const QColor& color)
{
    if (!color.isValid()) return;
    if (VectorSurface* surface = VectorSurface::of(p)) {
        QPainterPath path;
        for (const QPolygonF& part : rings) path.addPolygon(part);
        return surface->fillPolygon(p, path, color);
    }
    if (QImage* image = directTarget(p)) {
        static const CoverageRasterizer::GammaTable gamma = CoverageRasterizer::linearGamma(PolygonFill::DefaultGamma);
        CoverageRasterizer& r = rasterizer();
        r.reset(image->width(), image->height());
        for (const QPolygonF& ring : rings) r.addPolygon(ring.constData(), int(ring.size()));
        r.fill(*image, color.rgba(), CoverageRasterizer::FillRule::EvenOdd, &gamma);
        return;
    }
    QPainterPath path;
    path.setFillRule(Qt::OddEvenFill);
    for (const QPolygonF& part : rings) path.addPolygon(part), path.closeSubpath();
    PolygonFill::fill(p, path, color);
}

}  // namespace maptune
