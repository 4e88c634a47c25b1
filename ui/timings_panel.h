#pragma once
// Live timing charts (QCustomPlot), in tabs: Render -- the last render's
// per-layer times stacked by phase (open, read, lut, draw, label), and below
// it the renders over time, one bar per second (the mean of its renders)
// stacked by layer (one colour per layer) with the total as a line; Database
// -- the last render's database time per layer stacked by pool wait,
// connect, query and fetch, and below it the database time of the renders
// with DB calls over time, likewise; Server -- served requests per second
// and p50/p95 latency.
// The time charts show a chosen window (last 30 s, 2 min, 10 min or all);
// charts export as PNG (QCustomPlot) and their data as CSV.
// Fed on the GUI thread (see TraceRelay and RequestRelay).

#include "core/result.h"
#include "server/request_observer.h"
#include "trace/trace.h"

#include <QColor>
#include <QVector>
#include <QWidget>

#include <deque>
#include <map>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCheckBox;
class QComboBox;
class QTabWidget;
class QTimer;

namespace maptune {

class TimingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimingsPanel(QWidget* parent = nullptr);

    int historySize() const { return int(m_totals.size()); }
    QCustomPlot* layerPlot() const { return m_layers; }
    // Renders over time: per-layer bars (stacked) and the total line (graph 0).
    QCustomPlot* historyPlot() const { return m_history; }
    QCustomPlot* dbPlot() const { return m_db; }
    // Renders with DB calls over time: database ms per layer, stacked.
    QCustomPlot* dbHistoryPlot() const { return m_dbHistory; }
    QCustomPlot* serverPlot() const { return m_server; }
    QTabWidget* tabs() const { return m_tabs; }
    // Layers in the database chart (those of the last trace with DbTrace entries).
    QStringList dbLayers() const { return m_dbLayers; }

    // Nearest-rank percentile (p in 0..100) of unsorted values; 0 when empty.
    static double percentile(QList<double> values, double p);
    static constexpr int kLatencyWindowS = 5;   // p50/p95 over the last seconds
    static constexpr int kMaxHistoryS = 24 * 3600;  // what "all" keeps at most
    static constexpr int kMaxRenders = 20000;       // ... and at most this many renders

    // Layers with a series in the history charts, in the order first seen.
    QStringList historyLayers() const;
    // A layer's series in the render (or database) history chart: one bar per
    // second with renders (with DB calls) in the time window, the mean of
    // those renders (0 where the layer did not draw or query), keyed by
    // whole seconds before the last replot; null when it has none.
    QCPBars* layerHistory(const QString& layer) const;
    QCPBars* dbHistory(const QString& layer) const;
    // The map-wide phases' series in the render history, so that the stack
    // adds up to the total line: the label cache drawn after all layers, and
    // encoding. Null until a render has spent time in them.
    QCPBars* labelHistory() const;
    QCPBars* encodeHistory() const;

    // The time charts' window in seconds; 0: everything since the last clear.
    void setWindowSeconds(int seconds);
    int windowSeconds() const { return m_windowS; }
    static QList<int> windowChoices() { return {30, 120, 600, 0}; }

    // The current tab's charts as one PNG (QCustomPlot::savePng, stacked when
    // the tab holds two), or an error naming the file.
    Status exportPng(const QString& path);
    // Every chart's data, one row per point: chart,series,x,label,value
    // (x: seconds before now for the time charts, the bar number for bars,
    // whose label names the layer).
    Status exportCsv(const QString& path) const;
    QByteArray csv() const;

public Q_SLOTS:
    // A finished render (canvas or served); its DB calls feed the Database tab.
    void addTrace(const maptune::Trace& trace);
    // The same, finished at atMs (epoch ms) rather than now.
    void addTraceAt(const maptune::Trace& trace, qint64 atMs);
    // A served request: throughput and latency; its trace goes to the render
    // charts (the history redrawn within a second, as the server chart).
    void addServedRequest(const maptune::ServedRequest& request);
    void clear();
    // Recompute the time charts for the window ending at nowMs (epoch ms).
    void replotServer(qint64 nowMs);
    void replotHistory(qint64 nowMs);

private:
    void replotLayers(const Trace& trace);
    void replotDb(const Trace& trace);
    // Adds a render to the history (and the last-render charts); no history replot.
    void record(const Trace& trace, qint64 atMs);
    struct LayerSeries {
        QString layer;  // or a map phase's key (kLabelSeries, kEncodeSeries)
        QColor colour;
        QCPBars* render = nullptr;
        QCPBars* db = nullptr;  // made when the layer first queries a database
    };
    LayerSeries& series(const QString& layer);
    int layerCount() const;  // series that are layers, not map phases
    QCPBars* addHistoryBars(QCustomPlot* plot, QCPBars* below, const LayerSeries& s);
    QWidget* createServerPlot();
    QLayout* createToolBar();
    void exportWithDialog(bool png);
    struct ServerPoint {
        double rate = 0, p50 = 0, p95 = 0;
        bool hasLatency = false;
    };
    ServerPoint serverPointAt(qint64 second) const;
    void finalizeSeconds(qint64 nowS);

    QCustomPlot* m_layers;
    QCustomPlot* m_history;
    QList<QCPBars*> m_phases;  // stacked, bottom first
    QCPGraph* m_totalGraph = nullptr;
    QCustomPlot* m_db;
    QList<QCPBars*> m_dbPhases;
    QStringList m_dbLayers;
    QCustomPlot* m_dbHistory;
    QList<LayerSeries> m_series;  // stacked in this order, bottom first
    QCustomPlot* m_server;
    QCPGraph* m_rate = nullptr;
    QCPGraph* m_p50 = nullptr;
    QCPGraph* m_p95 = nullptr;
    QTimer* m_serverTick;
    QTabWidget* m_tabs;
    QCheckBox* m_pause;
    QComboBox* m_window = nullptr;
    int m_windowS = 120;
    struct LayerMs {
        QString layer;
        double renderMs;
        double dbMs;
    };
    struct Render {
        qint64 atMs;
        double totalMs;
        QList<LayerMs> layers;  // drawn layers only
        bool hasDb;
    };
    std::deque<Render> m_totals;  // by atMs, oldest first; kMaxHistoryS and kMaxRenders kept
    // The renders of one second, summed per series (m_series order).
    struct SecondBucket {
        qint64 second;
        int renders, dbRenders;
        double totalMs;
        QVector<double> renderMs, dbMs;
    };
    QList<SecondBucket> historyBuckets(qint64 fromS) const;
    struct Served {
        qint64 finishedMs;
        double ms;
    };
    // Served requests of the seconds not yet summarized (and the latency
    // window before them); older seconds live on as one point each.
    std::deque<Served> m_served;
    std::map<qint64, ServerPoint> m_serverPoints;  // by epoch second; idle seconds absent
    qint64 m_nextFinalS = 0;                       // first second not summarized; 0: none yet
};

}  // namespace maptune
