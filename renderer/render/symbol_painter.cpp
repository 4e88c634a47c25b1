#include "render/symbol_painter.h"

#include "encode/vector_surface.h"
#include "render/cairo_arc.h"
#include "render/stroke_painter.h"
#include "render/text_painter.h"
#include "text/font_face.h"
#include "text/html_entities.h"

#include <QCache>
#include <QDir>
#include <QImage>
#include <QMutex>
#include <QSvgRenderer>

#include <cmath>

namespace maptune {

namespace {

// Pixmap symbols read once, kept up to a memory budget: a server that
// reloads maps naming ever new image files must not grow without end.
QImage pixmapFor(const QString& path)
{
    constexpr qsizetype kBudgetBytes = 64 << 20;
    static QMutex mutex;
    static QCache<QString, QImage> cache(kBudgetBytes);
    QMutexLocker lock(&mutex);
    if (const QImage* hit = cache.object(path)) return *hit;
    QImage img(path);
    // An image bigger than the whole budget is not cached (QCache refuses it).
    cache.insert(path, new QImage(img), std::max<qsizetype>(1, img.sizeInBytes()));
    return img;
}

// A pixmap symbol's IMAGE, relative to the mapfile's folder unless absolute.
QImage pixmapOf(const SymbolDef& sym, const QString& baseDir)
{
    return pixmapFor(QDir::isAbsolutePath(sym.image) ? sym.image : baseDir + QLatin1Char('/') + sym.image);
}

// An SVG symbol's IMAGE, parsed once per thread (a QSvgRenderer is not
// shared between threads), a few dozen files at most.
QSvgRenderer* svgOf(const SymbolDef& sym, const QString& baseDir)
{
    thread_local QCache<QString, QSvgRenderer> cache(32);
    const QString path = QDir::isAbsolutePath(sym.image) ? sym.image : baseDir + QLatin1Char('/') + sym.image;
    if (QSvgRenderer* hit = cache.object(path)) return hit;
    auto* renderer = new QSvgRenderer(path);
    if (!renderer->isValid() || renderer->defaultSize().isEmpty()) {
        delete renderer;
        return nullptr;
    }
    cache.insert(path, renderer);
    return renderer;
}

// MapServer's SVG markers (msRenderRasterizedSVGSymbol, then a pixmap):
// the drawing scaled to SIZE over its own height into a tile of whole
// pixels (1.415 times larger when turned), the tile put unresampled on the
// nearest pixel to the marker's centre.
void drawSvg(QPainter& p, QSvgRenderer& svg, double size, double angle)
{
    const QSizeF natural = svg.defaultSize();
    const double scale = (size > 1 ? size : natural.height()) / natural.height();
    const int w = int(natural.width() * scale + 0.5), h = int(natural.height() * scale + 0.5);
    if (w <= 0 || h <= 0) return;
    const bool turned = angle != 0;
    const int tw = turned ? int(std::floor(w * 1.415 + 0.5)) : w, th = turned ? int(std::floor(h * 1.415 + 0.5)) : h;
    QImage tile(tw, th, QImage::Format_ARGB32_Premultiplied);
    tile.fill(Qt::transparent);
    {
        QPainter t(&tile);
        t.setRenderHint(QPainter::Antialiasing);
        t.setRenderHint(QPainter::SmoothPixmapTransform);
        t.translate(tw / 2, th / 2);
        t.rotate(-angle);
        t.translate(-(w / 2), -(h / 2));
        t.scale(scale, scale);
        svg.render(&t, QRectF(QPointF(0, 0), natural));
    }
    const QPointF centre = p.transform().map(QPointF(0, 0));
    p.resetTransform();
    p.drawImage(QPoint(int(std::floor(centre.x() - tw / 2.0 + 0.5)), int(std::floor(centre.y() - th / 2.0 + 0.5))), tile);
}

// agg::ellipse as MapServer draws ellipse symbols: a polygon whose vertex
// count follows AGG's approximation (scale 1), not a smooth curve. Small
// ellipses are visibly polygonal (a radius-1 dot is a heptagon).
QPolygonF aggEllipse(double rx, double ry)
{
    const double ra = (std::abs(rx) + std::abs(ry)) / 2;
    int n = 4;
    if (ra > 0) {
        const double da = std::acos(ra / (ra + 0.125)) * 2;
        n = std::max(4, int(std::lround(2 * M_PI / da)));
    }
    QPolygonF poly;
    poly.reserve(n + 1);
    for (int i = 0; i < n; ++i) {
        const double a = 2 * M_PI * i / n;
        poly << QPointF(std::cos(a) * rx, std::sin(a) * ry);
    }
    poly << poly.first();
    return poly;
}

// Fill, then stroke as a filled outline: AGG computes exact area coverage,
// where QPainter's thin pens take a cosmetic-line shortcut. On a vector
// surface, one shape filled and stroked.
void paintShape(QPainter& p, const QPainterPath& path, const QBrush& brush, const QPen& pen)
{
    if (VectorSurface* surface = VectorSurface::of(p)) {
        const bool filled = brush.style() == Qt::SolidPattern;
        return surface->paintSymbol(p, path, filled ? std::optional<QColor>(brush.color()) : std::nullopt, pen);
    }
    if (brush.style() == Qt::SolidPattern) {
        if (!StrokePainter::fillPathDirect(p, path, brush.color())) p.fillPath(path, brush);
    } else if (brush.style() != Qt::NoBrush) {
        p.fillPath(path, brush);
    }
    if (pen.style() == Qt::NoPen || pen.widthF() <= 0) return;
    QPainterPathStroker stroker(pen);
    QPainterPath outline = stroker.createStroke(path);
    outline.setFillRule(Qt::WindingFill);
    if (!StrokePainter::fillPathDirect(p, outline, pen.color())) p.fillPath(outline, pen.color());
}

// Vector symbol outline in symbol units; -99 -99 starts a new part. Points
// below zero shift the whole symbol so that it starts at 0 (its size is
// then its extent), as MapServer reads such symbols.
QPainterPath vectorPath(const SymbolDef& sym, bool closeParts, double& sizeX, double& sizeY)
{
    double minX = 0, minY = 0;
    for (const auto& [x, y] : sym.points)
        if (!(x == -99 && y == -99)) minX = std::min(minX, x), minY = std::min(minY, y);
    QPainterPath path;
    sizeX = sizeY = 0;
    bool start = true;
    for (const auto& [px, py] : sym.points) {
        if (px == -99 && py == -99) {
            if (closeParts) path.closeSubpath();
            start = true;
            continue;
        }
        const double x = px - minX, y = py - minY;
        sizeX = std::max(sizeX, x);
        sizeY = std::max(sizeY, y);
        if (start) path.moveTo(x, y);
        else path.lineTo(x, y);
        start = false;
    }
    if (closeParts) path.closeSubpath();
    return path;
}

// A TRUETYPE symbol's glyph as MapServer's font cache loads it: the CHARACTER
// (an HTML reference like "&#10140;" names its character) of the FONT, at
// MapServer's integer size (points at 96 dpi), FreeType's unhinted outline.
std::shared_ptr<const GlyphShape> markerGlyph(const MarkerStyle& s, int size)
{
    const std::shared_ptr<FontFace> face = FontFace::forThread(s.fontPath);
    const QList<uint> code = decodeHtmlEntities(s.symbol->character).toUcs4();
    if (!face || code.isEmpty()) return {};
    return face->glyph(char32_t(code.first()), std::max(1, size));
}

QSizeF inkSize(const GlyphShape& g) { return {g.maxX - g.minX, g.maxY - g.minY}; }

// drawGlyphMarker: the glyph's ink box centred on the point, ANCHORPOINT
// moving that box (msAdjustMarkerPos, measured on the glyph at the
// truncated size, as msGetMarkerSize does), rotated with the painter; an
// OUTLINECOLOR is the glyph grown by (WIDTH + 1) / 2 under it.
void drawGlyphMarker(QPainter& p, const MarkerStyle& s)
{
    const std::shared_ptr<const GlyphShape> glyph = markerGlyph(s, int(std::lround(s.size)));
    if (!glyph) return;
    QPointF shift(-(glyph->minX + glyph->maxX) / 2, (glyph->minY + glyph->maxY) / 2);
    if (s.symbol->anchorSet && !s.centred) {
        const std::shared_ptr<const GlyphShape> measured = markerGlyph(s, int(std::trunc(s.size)));
        const QSizeF box = measured ? inkSize(*measured) : inkSize(*glyph);
        shift += QPointF((0.5 - s.symbol->anchorX) * box.width(), (0.5 - s.symbol->anchorY) * box.height());
    }
    const auto color = [](const QColor& c) { return c.isValid() ? Color::rgb(c.red(), c.green(), c.blue(), c.alpha()) : Color{}; };
    TextInk ink;
    ink.color = color(s.fill);
    ink.outline = color(s.outline);
    ink.outlineWidth = std::trunc(s.width);
    const QTransform local = QTransform::fromTranslate(shift.x(), shift.y());
    if (VectorSurface::isVector(p)) return TextPainter::drawVector(p, {GlyphPlacement{glyph, local}}, ink);
    // Blended straight into the image, unless the painter clips (a legend
    // key) or fades: then through it, the outline as a stroke.
    if (p.device() && p.device()->devType() == QInternal::Image && !p.hasClipping() && p.opacity() >= 1)
        return TextPainter::draw(*static_cast<QImage*>(p.device()), {GlyphPlacement{glyph, local * p.transform()}}, ink);
    const QPainterPath path = local.map(glyph->curves);
    if (s.outline.isValid())
        p.strokePath(path, QPen(s.outline, ink.outlineWidth + 1, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    if (s.fill.isValid()) p.fillPath(path, s.fill);
}

}  // namespace

QSizeF SymbolPainter::extent(const MarkerStyle& s)
{
    if (!s.symbol) return {};
    double sizeX = 0, sizeY = 0;
    const SymbolType type = s.symbol->drawnType();
    if (type == SymbolType::Vector || type == SymbolType::Ellipse) vectorPath(*s.symbol, false, sizeX, sizeY);
    else if (type == SymbolType::Pixmap) {
        const QImage img = pixmapOf(*s.symbol, s.baseDir);
        sizeX = img.width(), sizeY = img.height();
    } else if (type == SymbolType::SVG) {
        if (QSvgRenderer* svg = svgOf(*s.symbol, s.baseDir)) sizeX = svg->defaultSize().width(), sizeY = svg->defaultSize().height();
    }
    return {sizeX, sizeY};
}

QSizeF SymbolPainter::markerSize(const MarkerStyle& s)
{
    if (!s.symbol) return {1, 1};
    // msGetCharacterSize: the glyph's ink box at the truncated size.
    if (s.symbol->type == SymbolType::TrueType) {
        const std::shared_ptr<const GlyphShape> glyph = markerGlyph(s, int(std::trunc(s.size)));
        return glyph ? inkSize(*glyph) : QSizeF(1, 1);
    }
    const QSizeF own = extent(s);
    // A pixmap or SVG without SIZE keeps its own size.
    const bool image = s.symbol->type == SymbolType::Pixmap || s.symbol->type == SymbolType::SVG;
    if (image && s.size <= 1 && own.height() > 0) return own;
    const double size = std::max(1.0, std::trunc(s.size));
    return {own.width() > 0 && own.height() > 0 ? size / own.height() * own.width() : size, size};
}

void SymbolPainter::drawMarker(QPainter& p, const QPointF& at, const MarkerStyle& s)
{
    if (s.size <= 0) return;
    p.save();
    p.translate(at + s.offset);
    if (s.angle != 0) p.rotate(-s.angle);
    const SymbolDef* sym = s.symbol;
    // computeSymbolStyle: a marker's outline is as wide as the style's WIDTH, not its OUTLINEWIDTH.
    const QPen outlinePen = s.outline.isValid() && s.width > 0 ? QPen(s.outline, s.width) : QPen(Qt::NoPen);
    if (!sym || sym->drawnType() == SymbolType::Simple) {
        // Symbol 0: a filled square of SIZE pixels.
        const double h = s.size / 2;
        p.setPen(outlinePen);
        p.setBrush(s.fill.isValid() ? QBrush(s.fill) : Qt::NoBrush);
        p.drawRect(QRectF(-h, -h, s.size, s.size));
    } else if (sym->type == SymbolType::Ellipse) {
        double rx = 1, ry = 1;
        if (!sym->points.isEmpty()) {
            rx = sym->points.first().first;
            ry = sym->points.first().second;
        }
        const double h = s.size;
        const double w = ry > 0 ? h * rx / ry : h;
        const QRectF box(-w / 2, -h / 2, w, h);
        if (sym->filled || s.outline.isValid()) {
            p.setPen(outlinePen);
            p.setBrush(sym->filled && s.fill.isValid() ? QBrush(s.fill) : Qt::NoBrush);
            if (!sym->filled && s.fill.isValid()) p.setPen(QPen(s.fill, s.width));
        } else {
            p.setPen(s.fill.isValid() ? QPen(s.fill, s.width) : QPen(Qt::NoPen));
            p.setBrush(Qt::NoBrush);
        }
        // AGG's polygon for pixels; cairo's arc, as MapServer's SVG has it, for vectors.
        QPainterPath outline;
        if (VectorSurface::isVector(p)) {
            outline = CairoArc::ellipse(box.width() / 2, box.height() / 2);
        } else {
            outline.addPolygon(aggEllipse(box.width() / 2, box.height() / 2));
            outline.closeSubpath();
        }
        paintShape(p, outline, p.brush(), p.pen());
    } else if (sym->drawnType() == SymbolType::Vector) {
        double sx = 0, sy = 0;
        QPainterPath path = vectorPath(*sym, sym->filled, sx, sy);
        // Scaled by SIZE over the default size: the height, else the width.
        const double base = sy > 0 ? sy : sx;
        const double scale = base > 0 ? s.size / base : 1;
        double ax = sym->anchorSet ? sym->anchorX * sx : sx / 2;
        double ay = sym->anchorSet ? sym->anchorY * sy : sy / 2;
        if (s.centred) ax = sx / 2, ay = sy / 2;
        else if (s.alongLine && sym->anchorSet) {
            // msImagePolylineMarkers measures the anchor on a symbol at least
            // one pixel wide and high (a "vert" tick has no width).
            ax = sx / 2 - (0.5 - sym->anchorX) * std::max(1.0, sx * scale) / scale;
            ay = sy / 2 - (0.5 - sym->anchorY) * std::max(1.0, sy * scale) / scale;
        }
        p.scale(scale, scale);
        p.translate(-ax, -ay);
        // AGG's conv_stroke defaults, which MapServer keeps for vector
        // symbols: butt caps, miter joins (limit 4 half-widths: Qt's 2 widths).
        const auto aggStroke = [](QPen pen) {
            pen.setCapStyle(Qt::FlatCap);
            pen.setJoinStyle(Qt::MiterJoin);
            pen.setMiterLimit(2);
            return pen;
        };
        if (sym->filled) {
            QPen pen = outlinePen;
            if (pen.style() != Qt::NoPen) pen = aggStroke(QPen(pen.color(), pen.widthF() / scale));
            paintShape(p, path, s.fill.isValid() ? QBrush(s.fill) : QBrush(Qt::NoBrush), pen);
        } else {
            paintShape(p, path, Qt::NoBrush, aggStroke(QPen(s.fill.isValid() ? s.fill : s.outline, s.width / scale)));
        }
    } else if (sym->type == SymbolType::Pixmap) {
        QImage img = pixmapOf(*sym, s.baseDir);
        if (!img.isNull()) {
            const double h = s.size > 0 ? s.size : img.height();
            const double w = img.height() > 0 ? h * img.width() / img.height() : h;
            p.drawImage(QRectF(-w / 2, -h / 2, w, h), img);
        }
    } else if (sym->type == SymbolType::SVG) {
        if (QSvgRenderer* svg = svgOf(*sym, s.baseDir)) drawSvg(p, *svg, s.size, s.angle);
    } else if (sym->type == SymbolType::TrueType) {
        drawGlyphMarker(p, s);
    }
    p.restore();
}

void SymbolPainter::drawAlongLine(QPainter& p, const QPolygonF& line, const MarkerStyle& s, double gap, double initialGap)
{
    const double step = std::abs(gap);
    if (step <= 0 || line.size() < 2) return;
    // MapServer: a negative GAP aligns the symbols with the line.
    const bool rotate = gap < 0;
    double next = initialGap >= 0 ? initialGap : step / 2;
    double walked = 0;
    for (qsizetype i = 1; i < line.size(); ++i) {
        const QPointF a = line[i - 1], b = line[i];
        const double len = std::hypot(b.x() - a.x(), b.y() - a.y());
        if (len <= 0) continue;
        const double segAngle = -std::atan2(b.y() - a.y(), b.x() - a.x()) * 180.0 / M_PI;
        while (next <= walked + len) {
            const double t = (next - walked) / len;
            MarkerStyle m = s;
            m.alongLine = true;
            if (rotate) m.angle = s.angle + segAngle;
            drawMarker(p, a + (b - a) * t, m);
            next += step;
        }
        walked += len;
    }
}

}  // namespace maptune
