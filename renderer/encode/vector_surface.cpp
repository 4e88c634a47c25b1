#include "encode/vector_surface.h"

#include <QPaintEngine>
#include <QPainter>

#include <atomic>
#include <cmath>
#include <mutex>
#include <vector>

namespace maptune {

namespace {

// Canvases bound to surfaces. Renders that are not SVG never take the lock:
// the count says there is nothing to look up.
std::atomic<int> g_bindings{0};
std::mutex g_mutex;
std::vector<std::pair<const QImage*, VectorSurface*>> g_bound;

QColor withOpacity(QColor c, double opacity)
{
    c.setAlphaF(c.alphaF() * opacity);
    return c;
}

// A pen as it strokes in device pixels: width through the painter's
// transform, colour through its opacity.
QPen inDevice(QPen pen, const QPainter& p)
{
    pen.setWidthF(pen.widthF() * std::sqrt(std::abs(p.transform().determinant())));
    pen.setColor(withOpacity(pen.color(), p.opacity()));
    return pen;
}

QImage fadedImage(const QImage& image, double opacity)
{
    if (opacity >= 1) return image.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    QImage out(image.size(), QImage::Format_ARGB32_Premultiplied);
    out.fill(Qt::transparent);
    QPainter p(&out);
    p.setOpacity(opacity);
    p.drawImage(0, 0, image);
    return out;
}

// Records every drawing call as a VectorItem in device pixels. Claims every
// feature so that QPainter never falls back to rasterising (its emulation
// engine would hand us pixels instead of shapes).
class RecordingEngine : public QPaintEngine {
public:
    explicit RecordingEngine(VectorSurface& surface) : QPaintEngine(QPaintEngine::AllFeatures), m_surface(surface) {}

    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    Type type() const override { return QPaintEngine::User; }
    void updateState(const QPaintEngineState&) override {}

    void drawPath(const QPainterPath& path) override { record(path, true); }

    void drawPolygon(const QPointF* points, int count, PolygonDrawMode mode) override
    {
        if (count < 2) return;
        QPainterPath path;
        path.setFillRule(mode == WindingMode ? Qt::WindingFill : Qt::OddEvenFill);
        path.moveTo(points[0]);
        for (int i = 1; i < count; ++i) path.lineTo(points[i]);
        if (mode != PolylineMode) path.closeSubpath();
        record(path, mode != PolylineMode);  // a polyline is only stroked
    }

    void drawImage(const QRectF& r, const QImage& image, const QRectF& sr, Qt::ImageConversionFlags) override
    {
        VectorItem item;
        item.image = fadedImage(image.copy(sr.toAlignedRect()), painter()->opacity());
        item.imageRect = painter()->transform().mapRect(r);
        m_surface.add(std::move(item));
    }

    void drawPixmap(const QRectF& r, const QPixmap& pm, const QRectF& sr) override
    {
        drawImage(r, pm.toImage(), sr, Qt::AutoColor);
    }

private:
    // The path in device pixels with the painter's brush (when `fillable`) and pen.
    void record(const QPainterPath& path, bool fillable)
    {
        const QPainter& p = *painter();
        VectorItem item;
        item.path = p.transform().map(path);
        item.evenOdd = path.fillRule() == Qt::OddEvenFill;
        const QBrush& brush = p.brush();
        if (fillable && brush.style() != Qt::NoBrush && brush.color().alpha() > 0)
            item.fill = withOpacity(brush.color(), p.opacity());
        const QPen& pen = p.pen();
        if (pen.style() != Qt::NoPen && pen.color().alpha() > 0 && !pen.isCosmetic()) item.stroke = inDevice(pen, p);
        if (item.fill || item.stroke) m_surface.add(std::move(item));
    }

    VectorSurface& m_surface;
};

}  // namespace

VectorSurface::VectorSurface(QSize size) : m_size(size), m_engine(std::make_unique<RecordingEngine>(*this)) {}

VectorSurface::~VectorSurface() = default;

QPaintEngine* VectorSurface::paintEngine() const { return m_engine.get(); }

int VectorSurface::metric(PaintDeviceMetric metric) const
{
    switch (metric) {
    case PdmWidth: return m_size.width();
    case PdmHeight: return m_size.height();
    case PdmWidthMM: return qRound(m_size.width() * 25.4 / 72);
    case PdmHeightMM: return qRound(m_size.height() * 25.4 / 72);
    case PdmNumColors: return INT_MAX;
    case PdmDepth: return 32;
    case PdmDpiX:
    case PdmDpiY:
    case PdmPhysicalDpiX:
    case PdmPhysicalDpiY: return 72;
    case PdmDevicePixelRatio: return 1;
    case PdmDevicePixelRatioScaled: return int(QPaintDevice::devicePixelRatioFScale());
    }
    return 0;
}

QPen VectorSurface::withState(const QPainter& p, QPen pen) const
{
    pen.setCapStyle(m_cap);
    pen.setJoinStyle(m_join);
    return inDevice(pen, p);
}

void VectorSurface::fillPolygon(const QPainter& p, const QPainterPath& rings, const QColor& color)
{
    m_evenOdd = true;
    if (!color.isValid() || color.alpha() == 0) return;
    VectorItem item{p.transform().map(rings), withOpacity(color, p.opacity()), true, std::nullopt, true, {}, {}};
    m_items.append(std::move(item));
}

void VectorSurface::strokeLine(const QPainter& p, const QPainterPath& path, const QPen& pen)
{
    m_cap = pen.capStyle();
    m_join = pen.joinStyle();
    if (!pen.color().isValid() || pen.color().alpha() == 0 || pen.widthF() <= 0) return;
    m_items.append(VectorItem{p.transform().map(path), std::nullopt, m_evenOdd, withState(p, pen), false, {}, {}});
}

void VectorSurface::paintSymbol(const QPainter& p, const QPainterPath& path, const std::optional<QColor>& fill,
                                std::optional<QPen> stroke)
{
    VectorItem item{p.transform().map(path), std::nullopt, m_evenOdd, std::nullopt, false, {}, {}};
    if (fill && fill->isValid() && fill->alpha() > 0) item.fill = withOpacity(*fill, p.opacity());
    if (stroke && stroke->style() != Qt::NoPen && stroke->widthF() > 0 && stroke->color().alpha() > 0)
        item.stroke = withState(p, *stroke);
    if (item.fill || item.stroke) m_items.append(std::move(item));
}

void VectorSurface::paintGlyphs(const QPainter& p, const QPainterPath& glyphs, const std::optional<QColor>& fill,
                                std::optional<QPen> outline)
{
    const QPainterPath path = p.transform().map(glyphs);
    if (outline) m_items.append(VectorItem{path, std::nullopt, m_evenOdd, withState(p, *outline), true, {}, {}});
    if (fill) m_items.append(VectorItem{path, withOpacity(*fill, p.opacity()), m_evenOdd, std::nullopt, true, {}, {}});
}

VectorSurface* VectorSurface::of(const QPainter& p)
{
    return dynamic_cast<VectorSurface*>(p.device());
}

void VectorSurface::append(const VectorSurface& other, QPointF offset)
{
    if (other.background()) {
        QPainterPath box;
        box.addRect(QRectF(offset, QSizeF(other.size())));
        m_items.append(VectorItem{box, *other.background(), m_evenOdd, std::nullopt, true, {}, {}});
    }
    const QTransform move = QTransform::fromTranslate(offset.x(), offset.y());
    for (VectorItem item : other.items()) {
        item.path = move.map(item.path);
        item.imageRect.translate(offset);
        m_items.append(std::move(item));
    }
}

void VectorSurface::fade(qsizetype first, double opacity)
{
    for (qsizetype i = first; i < m_items.size(); ++i) {
        VectorItem& item = m_items[i];
        if (item.fill) item.fill = withOpacity(*item.fill, opacity);
        if (item.stroke) item.stroke->setColor(withOpacity(item.stroke->color(), opacity));
        if (!item.image.isNull()) item.image = fadedImage(item.image, opacity);
    }
}

VectorSurface* VectorSurface::boundTo(const QImage& canvas)
{
    if (g_bindings.load(std::memory_order_acquire) == 0) return nullptr;
    std::lock_guard lock(g_mutex);
    for (const auto& [image, surface] : g_bound)
        if (image == &canvas) return surface;
    return nullptr;
}

QPaintDevice* VectorSurface::deviceFor(QImage& canvas)
{
    if (VectorSurface* s = boundTo(canvas)) return s;
    return &canvas;
}

bool VectorSurface::isVector(const QPainter& p) { return of(p) != nullptr; }

VectorSurface::Binding::Binding(const QImage& canvas, VectorSurface& surface) : m_canvas(&canvas)
{
    std::lock_guard lock(g_mutex);
    g_bound.emplace_back(&canvas, &surface);
    g_bindings.fetch_add(1, std::memory_order_release);
}

VectorSurface::Binding::~Binding()
{
    std::lock_guard lock(g_mutex);
    for (auto it = g_bound.begin(); it != g_bound.end(); ++it)
        if (it->first == m_canvas) {
            g_bound.erase(it);
            break;
        }
    g_bindings.fetch_sub(1, std::memory_order_release);
}

}  // namespace maptune
