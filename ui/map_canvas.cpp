#include "map_canvas.h"

#include "geo/map_view.h"
#include "render/map_renderer.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <exception>

namespace maptune {

namespace {

constexpr int kCoalesceMs = 60;      // pans and wheel steps closer than this make one render
constexpr double kWheelStep = 1.25;  // zoom factor per wheel notch

// The worker entry: one of the three places where exceptions are caught.
RenderResult renderOnWorker(const PreparedMapPtr& map, const RenderRequest& request, TraceSink* sink)
{
    try {
        return MapRenderer(map).render(request, sink);
    } catch (const std::exception& e) {
        RenderResult r;
        r.error = QStringLiteral("render failed: %1").arg(QString::fromLocal8Bit(e.what()));
        return r;
    } catch (...) {
        RenderResult r;
        r.error = QStringLiteral("render failed with an unknown error");
        return r;
    }
}

}  // namespace

MapCanvas::MapCanvas(QWidget* parent) : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(200, 150);
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(kCoalesceMs);
    connect(&m_coalesce, &QTimer::timeout, this, &MapCanvas::startRender);
    connect(&m_watcher, &QFutureWatcher<Job>::finished, this, &MapCanvas::renderDone);
}

MapCanvas::~MapCanvas()
{
    m_inFlight.cancel();
    m_watcher.waitForFinished();
}

void MapCanvas::setMap(MapDefPtr map, bool keepView)
{
    const bool hadMap = m_map != nullptr;
    m_map = std::move(map);
    // Prepared once per map version; every render and identify shares it.
    m_prepared = PreparedMap::prepare(m_map, m_context);
    m_crs = m_prepared && m_prepared->crs() ? *m_prepared->crs() : Crs();
    m_units = m_map ? effectiveUnits(*m_map, m_crs) : QString();
    if (!m_map) {
        m_image = {};
        m_layerErrors.clear();
        update();
    }
    if (!keepView || !hadMap) {
        m_history.clear();
        m_image = {};
        m_highlight.clear();  // features of another map
        zoomFullExtent();
    } else {
        scheduleRender();
    }
}

void MapCanvas::setCompareMap(MapDefPtr before)
{
    if (before == m_compare) return;
    m_compare = std::move(before);
    m_preparedCompare = PreparedMap::prepare(m_compare, m_context);
    m_compareImage = {};
    update();
    if (m_compare) scheduleRender();
}

void MapCanvas::setSplitPosition(double fraction)
{
    m_split = std::clamp(fraction, 0.0, 1.0);
    update();
    Q_EMIT splitMoved(m_split);
}

bool MapCanvas::nearDivider(const QPointF& pixel) const
{
    return m_compare && std::abs(pixel.x() - m_split * width()) <= 6;
}

void MapCanvas::setVisibleLayers(const QStringList& layers)
{
    if (m_layersGiven && layers == m_layers) return;
    m_layers = layers;
    m_layersGiven = true;
    scheduleRender();
}

Rect MapCanvas::extentOf(const CanvasView& v) const
{
    const double halfW = v.unitsPerPixel * std::max(1, width()) / 2.0;
    const double halfH = v.unitsPerPixel * std::max(1, height()) / 2.0;
    return {v.centre.x() - halfW, v.centre.y() - halfH, v.centre.x() + halfW, v.centre.y() + halfH};
}

Rect MapCanvas::extent() const { return extentOf(m_view); }

QPointF MapCanvas::toMap(const QPointF& pixel) const
{
    const Rect e = extent();
    return {e.minx + pixel.x() * m_view.unitsPerPixel, e.maxy - pixel.y() * m_view.unitsPerPixel};
}

double MapCanvas::scaleDenominator() const
{
    if (!m_map || width() <= 0 || height() <= 0) return 0;
    return makeMapViewFromEdges(extent(), width(), height(), m_crs, m_units, m_map->resolution).scaleDenom;
}

void MapCanvas::setView(const CanvasView& view, bool remember)
{
    if (!(view.unitsPerPixel > 0) || !std::isfinite(view.unitsPerPixel)) return;
    m_view = view;
    if (remember) {
        m_history.push(view);
        Q_EMIT historyChanged();
    }
    update();
    scheduleRender();
    Q_EMIT viewChanged();
}

void MapCanvas::setExtent(const Rect& edges)
{
    if (!edges.isValid()) return;
    const double upp = std::max(edges.width() / std::max(1, width()), edges.height() / std::max(1, height()));
    setView({QPointF((edges.minx + edges.maxx) / 2, (edges.miny + edges.maxy) / 2), upp});
}

void MapCanvas::zoomFullExtent()
{
    if (!m_map) return;
    Rect e = m_map->extent;
    if (!e.isValid()) e = {-1, -1, 1, 1};
    setExtent(e);
}

void MapCanvas::zoomIn() { zoomAbout(QPointF(width() / 2.0, height() / 2.0), 1 / 2.0); }
void MapCanvas::zoomOut() { zoomAbout(QPointF(width() / 2.0, height() / 2.0), 2.0); }

void MapCanvas::zoomAbout(const QPointF& pixel, double factor)
{
    // Keep the map point under the cursor where it is.
    const QPointF anchor = toMap(pixel);
    const double upp = m_view.unitsPerPixel * factor;
    const QPointF fromCentre(pixel.x() - width() / 2.0, height() / 2.0 - pixel.y());
    setView({anchor - fromCentre * upp, upp});
}

void MapCanvas::back()
{
    if (!m_history.canGoBack()) return;
    setView(m_history.back(), false);
    Q_EMIT historyChanged();
}

void MapCanvas::forward()
{
    if (!m_history.canGoForward()) return;
    setView(m_history.forward(), false);
    Q_EMIT historyChanged();
}

void MapCanvas::refresh() { startRender(); }

void MapCanvas::scheduleRender() { m_coalesce.start(); }

void MapCanvas::startRender()
{
    m_coalesce.stop();
    if (!m_map || width() <= 0 || height() <= 0) return;
    // A job that has finished but whose result the event loop has not yet
    // delivered is still in flight: its stale image must not be shown.
    if (m_jobPending || m_restart) {
        // Mandelbrot-style restart: abort the stale job, start again when it returns.
        m_inFlight.cancel();
        m_restart = true;
        return;
    }
    RenderRequest request = viewRequest();
    request.encode = false;
    m_inFlight = request.cancel;
    m_renderExtent = *request.bbox;
    m_wall.start();
    const PreparedMapPtr map = m_prepared;  // a snapshot: edits never touch a running job
    const PreparedMapPtr before = m_preparedCompare;
    TraceSink* sink = m_sink;
    m_watcher.setFuture(QtConcurrent::run([map, before, request, sink] {
        Job job{renderOnWorker(map, request, sink), {}};
        // The comparison is no render of the map: it stays out of the timings.
        if (before && job.result.ok() && !request.cancel.isCancelled())
            job.before = renderOnWorker(before, request, nullptr).image;
        return job;
    }));
    m_jobPending = true;
    update();
}

RenderRequest MapCanvas::viewRequest() const
{
    RenderRequest request;
    request.bbox = extent();
    request.width = width();
    request.height = height();
    request.layers = m_layers;
    request.layersGiven = m_layersGiven;
    return request;
}

void MapCanvas::renderDone()
{
    m_jobPending = false;
    if (m_restart || m_inFlight.isCancelled()) {
        m_restart = false;
        Q_EMIT renderCancelled();
        startRender();
        return;
    }
    const Job job = m_watcher.result();
    const RenderResult& result = job.result;
    const double wallMs = m_wall.nsecsElapsed() / 1e6;
    if (!result.ok()) {
        Q_EMIT renderFailed(result.error);
        update();
        return;
    }
    m_image = result.image;
    m_compareImage = job.before;
    m_imageExtent = m_renderExtent;
    m_layerErrors.clear();
    for (const LayerTrace& lt : result.trace.layers)
        if (!lt.error.isEmpty()) m_layerErrors << lt.error;
    update();
    if (!result.warnings.isEmpty()) Q_EMIT renderWarnings(result.warnings);
    Q_EMIT renderFinished(result.trace, wallMs);
}

void MapCanvas::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const Color bg = m_map ? m_map->imageColor : Color::rgb(255, 255, 255);
    p.fillRect(rect(), bg.isSet() ? QColor(bg.r, bg.g, bg.b) : QColor(Qt::white));
    if (!m_image.isNull() && m_imageExtent.isValid()) {
        // The old image, moved and scaled to where it belongs in the current view.
        const Rect e = extent();
        const double upp = m_view.unitsPerPixel;
        const QRectF target(QPointF((m_imageExtent.minx - e.minx) / upp, (e.maxy - m_imageExtent.maxy) / upp),
                            QPointF((m_imageExtent.maxx - e.minx) / upp, (e.maxy - m_imageExtent.miny) / upp));
        p.setRenderHint(QPainter::SmoothPixmapTransform, false);
        p.drawImage(target, m_image);
        if (m_compare && !m_compareImage.isNull()) {
            p.save();
            p.setClipRect(QRectF(0, 0, m_split * width(), height()));
            p.drawImage(target, m_compareImage);
            p.restore();
        }
    }
    paintHighlight(p);
    if (m_boxing) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DashLine));
        p.setBrush(QColor(0x30, 0x60, 0xc0, 40));
        p.drawRect(QRect(m_dragStart, m_boxEnd).normalized());
    }
    if (m_compare) paintDivider(p);
    paintMessages(p);
    if (m_watcher.isRunning()) {
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(rect().adjusted(6, 6, -6, -6), Qt::AlignRight | Qt::AlignTop, tr("rendering…"));
    }
}

// What the user must know about the picture: that there is no map (the
// file does not read), or which layers are missing from it and why.
void MapCanvas::paintMessages(QPainter& p)
{
    QStringList lines;
    if (!m_map) lines << tr("No map to show: the mapfile does not read. The problems are listed under the editor.");
    for (const QString& e : std::as_const(m_layerErrors)) lines << tr("Not drawn: %1").arg(e);
    if (lines.isEmpty()) return;
    const QFontMetrics fm(font());
    const int lineHeight = fm.height() + 2;
    const int shown = std::min<int>(int(lines.size()), 4);
    // At the top, where the eye starts and no panel covers it.
    const QRect band(0, 0, width(), shown * lineHeight + 8);
    p.fillRect(band, QColor(255, 240, 240, 225));
    p.setPen(QColor(0xa0, 0x10, 0x10));
    for (int i = 0; i < shown; ++i) {
        QString text = i == shown - 1 && lines.size() > shown ? tr("… and %n more", "", int(lines.size()) - shown + 1) : lines[i];
        text = fm.elidedText(text, Qt::ElideRight, width() - 12);
        p.drawText(QRect(6, band.top() + 4 + i * lineHeight, width() - 12, lineHeight), Qt::AlignLeft | Qt::AlignVCenter, text);
    }
}

void MapCanvas::paintDivider(QPainter& p)
{
    const double x = m_split * width();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor(255, 255, 255, 230), 3));
    p.drawLine(QPointF(x, 0), QPointF(x, height()));
    p.setPen(QPen(QColor(40, 40, 40), 1));
    p.drawLine(QPointF(x, 0), QPointF(x, height()));
    const QRectF handle(x - 7, height() / 2.0 - 18, 14, 36);
    p.setBrush(QColor(255, 255, 255, 230));
    p.drawRoundedRect(handle, 4, 4);
    const QFontMetrics fm(font());
    const QString before = tr("without LUT"), after = tr("with LUT");
    const auto label = [&](const QString& text, double left) {
        const QRectF box(left, 6, fm.horizontalAdvance(text) + 10, fm.height() + 4);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0, 0, 0, 140));
        p.drawRoundedRect(box, 3, 3);
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, text);
    };
    label(before, x - fm.horizontalAdvance(before) - 18);
    label(after, x + 8);
}

void MapCanvas::resizeEvent(QResizeEvent*)
{
    if (m_map) scheduleRender();
    Q_EMIT viewChanged();
}

void MapCanvas::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) return;
    if (nearDivider(event->position())) {
        m_draggingSplit = true;
        return;
    }
    if (m_zoomBoxMode || (event->modifiers() & Qt::ShiftModifier)) {
        m_boxing = true;
        m_dragStart = m_boxEnd = event->position().toPoint();
        return;
    }
    m_dragging = true;
    m_dragStart = event->position().toPoint();
    m_dragView = m_view;
    setCursor(Qt::ClosedHandCursor);
}

void MapCanvas::mouseMoveEvent(QMouseEvent* event)
{
    Q_EMIT cursorMoved(toMap(event->position()));
    if (m_draggingSplit) {
        setSplitPosition(event->position().x() / std::max(1, width()));
        return;
    }
    if (m_boxing) {
        m_boxEnd = event->position().toPoint();
        update();
        return;
    }
    if (!m_dragging) {
        if (nearDivider(event->position())) setCursor(Qt::SplitHCursor);
        else setIdentifyMode(m_identifyMode);  // the mode's cursor
        return;
    }
    const QPoint d = event->position().toPoint() - m_dragStart;
    const double upp = m_dragView.unitsPerPixel;
    setView({m_dragView.centre - QPointF(d.x() * upp, -d.y() * upp), upp}, false);
}

void MapCanvas::setIdentifyMode(bool on)
{
    m_identifyMode = on;
    if (on || m_zoomBoxMode) setCursor(Qt::CrossCursor);
    else unsetCursor();
}

void MapCanvas::setZoomBoxMode(bool on)
{
    m_zoomBoxMode = on;
    setIdentifyMode(m_identifyMode);  // the cursor for both modes
}

void MapCanvas::zoomToScale(double denominator)
{
    const double current = scaleDenominator();
    if (!(denominator > 0) || !(current > 0) || !std::isfinite(denominator)) return;
    zoomAbout(QPointF(width() / 2.0, height() / 2.0), denominator / current);
}

void MapCanvas::setHighlight(QList<Geometry> geometries)
{
    m_highlight = std::move(geometries);
    update();
}

QPointF MapCanvas::toPixel(double x, double y) const
{
    const Rect e = extent();
    return {(x - e.minx) / m_view.unitsPerPixel, (e.maxy - y) / m_view.unitsPerPixel};
}

void MapCanvas::paintHighlight(QPainter& p)
{
    if (m_highlight.isEmpty()) return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    // A light halo under a strong line: visible on dark and light maps alike.
    const QPen halo(QColor(255, 255, 255, 220), 6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    const QPen line(QColor(0xff, 0x00, 0xc8), 3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    for (const Geometry& g : std::as_const(m_highlight)) {
        QPainterPath path;
        for (int part = 0; part < g.partCount(); ++part) {
            const int begin = g.partStart[part], end = g.partEnd(part);
            for (int i = begin; i < end; ++i) {
                const QPointF px = toPixel(g.xy[2 * i], g.xy[2 * i + 1]);
                if (g.type == Geometry::Type::Point) path.addEllipse(px, 6, 6);
                else if (i == begin) path.moveTo(px);
                else path.lineTo(px);
            }
            if (g.type == Geometry::Type::Polygon) path.closeSubpath();
        }
        for (const QPen& pen : {halo, line}) {
            p.setPen(pen);
            p.setBrush(Qt::NoBrush);
            p.drawPath(path);
        }
    }
    p.restore();
}

void MapCanvas::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && m_draggingSplit) {
        m_draggingSplit = false;
        return;
    }
    if (event->button() == Qt::LeftButton && m_boxing) {
        m_boxing = false;
        const QRect box = QRect(m_dragStart, event->position().toPoint()).normalized();
        update();
        if (box.width() < 4 || box.height() < 4) {  // a click, not a box
            Q_EMIT clicked(toMap(event->position()));
            return;
        }
        const QPointF a = toMap(box.topLeft()), b = toMap(box.bottomRight());
        setExtent({std::min(a.x(), b.x()), std::min(a.y(), b.y()), std::max(a.x(), b.x()), std::max(a.y(), b.y())});
        return;
    }
    if (event->button() != Qt::LeftButton || !m_dragging) return;
    m_dragging = false;
    setIdentifyMode(m_identifyMode);  // restores the mode's cursor
    if ((event->position().toPoint() - m_dragStart).manhattanLength() <= 2) {
        if (event->position().toPoint() != m_dragStart) setView(m_dragView, false);  // a click: undo the jitter
        Q_EMIT clicked(toMap(event->position()));
    } else if (event->position().toPoint() != m_dragStart) {
        m_history.push(m_view);
        Q_EMIT historyChanged();
    }
}

void MapCanvas::wheelEvent(QWheelEvent* event)
{
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0) return;
    zoomAbout(event->position(), std::pow(kWheelStep, -notches));
}

}  // namespace maptune
