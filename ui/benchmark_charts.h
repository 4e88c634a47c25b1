#pragma once
// The Benchmark panel's charts (QCustomPlot), in tabs. Throughput: requests
// per minute over the experiment's wall time, one coloured line per
// configuration, with gaps where the other configurations ran (the
// interleaving is visible); live while a run measures, replaced by the run's
// per-second counts when it ends. Latency: each configuration's percentiles
// (p50, p90, p95, p99, max; medians over its rounds) as a line.

#include "loadtest/experiment.h"

#include <QList>
#include <QMap>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QTabWidget;

namespace maptune {

class BenchmarkCharts : public QWidget {
    Q_OBJECT
public:
    explicit BenchmarkCharts(QWidget* parent = nullptr);

    QCustomPlot* throughputPlot() const { return m_throughput; }
    QCustomPlot* latencyPlot() const { return m_latency; }
    QTabWidget* tabs() const { return m_tabs; }

    // A new experiment with these configurations (baseline first).
    void reset(const QStringList& labels);
    // While run `run` (of configuration `config`) measures: ok responses so far
    // after elapsedS seconds of measuring; startS: the run's start on the experiment clock.
    void addProgress(int run, int config, double startS, double elapsedS, qint64 ok);
    // A run is over: its per-second counts replace its live points.
    void addRun(int run, int config, double startS, const LoadReport& report);
    // The latency lines: each configuration's medians over its rounds so far.
    void setLatencies(const QList<ConfigSummary>& summary);

    static QColor colour(int config);

private:
    struct RunSeries {
        int config = 0;
        QVector<double> x, y;
        double lastElapsedS = 0;
        qint64 lastOk = 0;
    };
    void replotThroughput();

    QTabWidget* m_tabs;
    QCustomPlot* m_throughput;
    QCustomPlot* m_latency;
    QStringList m_labels;
    QList<QCPGraph*> m_rateGraphs, m_latencyGraphs;
    QMap<int, RunSeries> m_runs;   // by run index
};

}  // namespace maptune
