#pragma once
// Live timing charts (QCustomPlot), in tabs: Render -- the last render's
// per-layer times stacked by phase (open, read, lut, draw, label) and a
// rolling line of total render time; Database -- the last render's database
// time per layer stacked by pool wait, connect, query and fetch; Server --
// served requests per second and p50/p95 latency over a rolling window.
// Fed on the GUI thread (see TraceRelay and RequestRelay).

#include "server/request_observer.h"
#include "trace/trace.h"

#include <QWidget>

#include <deque>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCheckBox;
class QTabWidget;
class QTimer;

namespace maptune {

class TimingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimingsPanel(QWidget* parent = nullptr);

    int historySize() const { return int(m_totals.size()); }
    QCustomPlot* layerPlot() const { return m_layers; }
    QCustomPlot* totalPlot() const { return m_total; }
    QCustomPlot* dbPlot() const { return m_db; }
    QCustomPlot* serverPlot() const { return m_server; }
    QTabWidget* tabs() const { return m_tabs; }
    // Layers in the database chart (those of the last trace with DbTrace entries).
    QStringList dbLayers() const { return m_dbLayers; }

    // Nearest-rank percentile (p in 0..100) of unsorted values; 0 when empty.
    static double percentile(QList<double> values, double p);
    static constexpr int kLatencyWindowS = 5;   // p50/p95 over the last seconds
    static constexpr int kServerHistoryS = 120; // seconds shown in the server chart

public Q_SLOTS:
    // A finished render (canvas or served); its DB calls feed the Database tab.
    void addTrace(const maptune::Trace& trace);
    // A served request: throughput and latency; its trace goes to addTrace().
    void addServedRequest(const maptune::ServedRequest& request);
    void clear();
    // Recomputes the server chart for the window ending at nowMs (epoch ms).
    void replotServer(qint64 nowMs);

private:
    void replotLayers(const Trace& trace);
    void replotTotals();
    void replotDb(const Trace& trace);
    QWidget* createServerPlot();

    QCustomPlot* m_layers;
    QCustomPlot* m_total;
    QList<QCPBars*> m_phases;  // stacked, bottom first
    QCPGraph* m_totalGraph = nullptr;
    QCustomPlot* m_db;
    QList<QCPBars*> m_dbPhases;
    QStringList m_dbLayers;
    QCustomPlot* m_server;
    QCPGraph* m_rate = nullptr;
    QCPGraph* m_p50 = nullptr;
    QCPGraph* m_p95 = nullptr;
    QTimer* m_serverTick;
    QTabWidget* m_tabs;
    QCheckBox* m_pause;
    QList<double> m_totals;
    qint64 m_count = 0;
    struct Served {
        qint64 finishedMs;
        double ms;
    };
    std::deque<Served> m_served;  // oldest first, kServerHistoryS + window kept
};

}  // namespace maptune
