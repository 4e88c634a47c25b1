#pragma once
// The map canvas: renders through the engine on a worker thread (QGIS's
// render-job contract, Qt's mandelbrot restart/abort). A new view cancels the
// render in flight and the requests coalesce; the last image stays on screen,
// scaled and shifted to the current view, until the new one arrives.
// A comparison map (the LUT editor's "before") is rendered with each view
// too and shown left of a draggable divider, the map itself right of it.

#include "data/engine_context.h"
#include "view_history.h"

#include "data/geometry.h"
#include "geo/crs.h"
#include "mapfile/map_def.h"
#include "render/prepared_map.h"
#include "render/render_request.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QImage>
#include <QTimer>
#include <QWidget>

class QPainter;

namespace maptune {

class MapCanvas : public QWidget {
    Q_OBJECT
public:
    explicit MapCanvas(QWidget* parent = nullptr);
    ~MapCanvas() override;

    // A new map; keepView keeps the current view (live preview of edits),
    // otherwise the view zooms to the map's EXTENT.
    void setMap(MapDefPtr map, bool keepView = false);
    // Maps are prepared with this context (its PostgreSQL pool); takes effect
    // at the next setMap.
    void setEngineContext(EngineContextPtr context) { m_context = std::move(context); }
    MapDefPtr map() const { return m_map; }
    // The map as prepared for rendering and queries (null without a map).
    PreparedMapPtr prepared() const { return m_prepared; }
    // The layers of the last render that could not be drawn, each "layer
    // 'name': why" -- also written on the canvas, over the layers that drew.
    const QStringList& layerErrors() const { return m_layerErrors; }
    // The layers to draw (RenderRequest::layers); unset: as the mapfile says.
    void setVisibleLayers(const QStringList& layers);
    void setTraceSink(TraceSink* sink) { m_sink = sink; }
    // Before/after split: `before` left of the divider; null ends the split.
    void setCompareMap(MapDefPtr before);
    MapDefPtr compareMap() const { return m_compare; }
    // The divider's place as a fraction of the width (0..1).
    void setSplitPosition(double fraction);
    double splitPosition() const { return m_split; }
    const QImage& compareImage() const { return m_compareImage; }

    Rect extent() const;                   // image edges of the current view
    // The request a server would answer for this view (encoded in the map's IMAGETYPE).
    RenderRequest viewRequest() const;
    CanvasView view() const { return m_view; }
    void setView(const CanvasView& view, bool remember = true);
    void setExtent(const Rect& edges);     // fitted to the widget's aspect
    QPointF toMap(const QPointF& pixel) const;
    double scaleDenominator() const;
    const Crs& crs() const { return m_crs; }

    const QImage& image() const { return m_image; }   // the last finished render
    bool isRendering() const { return m_watcher.isRunning(); }
    bool canGoBack() const { return m_history.canGoBack(); }
    bool canGoForward() const { return m_history.canGoForward(); }
    // A cross cursor; clicks still emit clicked() in either mode, drags still pan.
    void setIdentifyMode(bool on);
    bool identifyMode() const { return m_identifyMode; }
    // Drags draw a box to zoom to (also Shift+drag in any mode).
    void setZoomBoxMode(bool on);
    bool zoomBoxMode() const { return m_zoomBoxMode; }
    // Zooms about the centre to this scale (1:denominator), as the map computes scales.
    void zoomToScale(double denominator);
    // Features to outline over the map (the identified ones), in the map's CRS.
    void setHighlight(QList<Geometry> geometries);
    const QList<Geometry>& highlight() const { return m_highlight; }

public Q_SLOTS:
    void zoomFullExtent();
    void zoomIn();
    void zoomOut();
    void back();
    void forward();
    void refresh();

Q_SIGNALS:
    void renderFinished(const maptune::Trace& trace, double wallMs);
    void renderFailed(const QString& error);
    void renderCancelled();
    void renderWarnings(const QStringList& warnings);
    void viewChanged();                    // extent or scale changed
    void cursorMoved(const QPointF& mapPoint);
    // A left click without a drag, at mapPoint (map CRS).
    void clicked(const QPointF& mapPoint);
    void historyChanged();
    void splitMoved(double fraction);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    void paintMessages(QPainter& p);
    void scheduleRender();
    void startRender();
    void renderDone();
    void zoomAbout(const QPointF& pixel, double factor);
    void paintHighlight(QPainter& p);
    QPointF toPixel(double x, double y) const;
    Rect extentOf(const CanvasView& view) const;
    bool nearDivider(const QPointF& pixel) const;
    void paintDivider(QPainter& p);

    MapDefPtr m_map;
    EngineContextPtr m_context = std::make_shared<const EngineContext>();
    PreparedMapPtr m_prepared;
    QStringList m_layerErrors;
    Crs m_crs;
    QString m_units;
    QStringList m_layers;
    bool m_layersGiven = false;
    TraceSink* m_sink = nullptr;

    CanvasView m_view;
    ViewHistory m_history;

    QImage m_image;
    MapDefPtr m_compare;
    PreparedMapPtr m_preparedCompare;
    QImage m_compareImage;                 // `m_compare` in the view of m_image
    double m_split = 0.5;
    bool m_draggingSplit = false;
    Rect m_imageExtent;                    // the view m_image was drawn for
    Rect m_renderExtent;                   // the view of the job in flight

    struct Job {
        RenderResult result;
        QImage before;
    };
    QFutureWatcher<Job> m_watcher;
    CancelToken m_inFlight;
    bool m_restart = false;                // a newer view waits for the worker
    bool m_jobPending = false;             // a job started whose result renderDone has not taken
    QTimer m_coalesce;
    QElapsedTimer m_wall;

    QPoint m_dragStart;
    CanvasView m_dragView;
    bool m_dragging = false;
    bool m_identifyMode = false;
    bool m_zoomBoxMode = false;
    bool m_boxing = false;                 // a zoom box is being dragged
    QPoint m_boxEnd;
    QList<Geometry> m_highlight;
};

}  // namespace maptune
