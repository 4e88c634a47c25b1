#include "benchmark_charts.h"

#include <qcustomplot.h>

#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace maptune {

namespace {

constexpr double kLiveWindowS = 1.0;   // live points: the rate over at least this much measuring time

struct Percentile {
    const char* name;
    std::optional<double> ConfigSummary::*ms;
};

const Percentile kPercentiles[] = {
    {"p50", &ConfigSummary::p50Ms}, {"p90", &ConfigSummary::p90Ms}, {"p95", &ConfigSummary::p95Ms},
    {"p99", &ConfigSummary::p99Ms}, {"max", &ConfigSummary::maxMs},
};

QCustomPlot* makePlot(const QFont& font, const QString& xLabel, const QString& yLabel)
{
    auto* plot = new QCustomPlot;
    plot->legend->setVisible(true);
    plot->legend->setFont(font);
    // Bottom right: the lines run high (throughput) or rise to the right (percentiles).
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    plot->setMinimumHeight(160);
    return plot;
}

}  // namespace

QColor BenchmarkCharts::colour(int config)
{
    // ColorBrewer Dark2: distinct on white, and the baseline is always the same blue-green.
    static const QColor colours[] = {QColor(0x1b, 0x9e, 0x77), QColor(0xd9, 0x5f, 0x02), QColor(0x75, 0x70, 0xb3),
                                     QColor(0xe7, 0x29, 0x8a), QColor(0x66, 0xa6, 0x1e), QColor(0xe6, 0xab, 0x02),
                                     QColor(0xa6, 0x76, 0x1d), QColor(0x66, 0x66, 0x66)};
    return colours[config % std::size(colours)];
}

BenchmarkCharts::BenchmarkCharts(QWidget* parent)
    : QWidget(parent), m_tabs(new QTabWidget),
      m_throughput(makePlot(font(), tr("seconds since the start"), tr("req/min"))),
      m_latency(makePlot(font(), tr("percentile"), tr("latency ms")))
{
    QVector<double> ticks;
    QVector<QString> names;
    for (const Percentile& p : kPercentiles) {
        ticks << double(ticks.size() + 1);
        names << QString::fromLatin1(p.name);
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTicks(ticks, names);
    m_latency->xAxis->setTicker(ticker);
    m_latency->xAxis->setRange(0.7, double(ticks.size()) + 0.3);

    m_tabs->addTab(m_throughput, tr("Throughput"));
    m_tabs->addTab(m_latency, tr("Latency"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    reset({});
}

void BenchmarkCharts::reset(const QStringList& labels)
{
    m_labels = labels;
    m_runs.clear();
    m_throughput->clearGraphs();
    m_latency->clearGraphs();
    m_rateGraphs.clear();
    m_latencyGraphs.clear();
    for (int k = 0; k < labels.size(); ++k) {
        QCPGraph* rate = m_throughput->addGraph();
        rate->setName(labels[k]);
        rate->setPen(QPen(colour(k), 1.8));
        m_rateGraphs << rate;
        QCPGraph* latency = m_latency->addGraph();
        latency->setName(labels[k]);
        latency->setPen(QPen(colour(k), 1.8));
        latency->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, colour(k), 6));
        m_latencyGraphs << latency;
    }
    m_throughput->xAxis->setRange(0, 10);
    m_throughput->yAxis->setRange(0, 1);
    m_latency->yAxis->setRange(0, 1);
    m_throughput->replot(QCustomPlot::rpQueuedReplot);
    m_latency->replot(QCustomPlot::rpQueuedReplot);
}

void BenchmarkCharts::addProgress(int run, int config, double startS, double elapsedS, qint64 ok)
{
    RunSeries& series = m_runs[run];
    series.config = config;
    const double dt = elapsedS - series.lastElapsedS;
    if (dt < kLiveWindowS) return;
    series.x << startS + series.lastElapsedS + dt / 2;
    series.y << double(ok - series.lastOk) / dt * 60;
    series.lastElapsedS = elapsedS;
    series.lastOk = ok;
    replotThroughput();
}

void BenchmarkCharts::addRun(int run, int config, double startS, const LoadReport& report)
{
    RunSeries series;
    series.config = config;
    for (qsizetype i = 0; i < report.okPerSecond.size(); ++i) {
        // The last bucket covers only the run's last fraction of a second: scale it, or
        // drop it when it is too short to say anything.
        const double width = std::min(1.0, report.durationS - double(i));
        if (width < 0.25) break;
        series.x << startS + double(i) + width / 2;
        series.y << report.okPerSecond[i] / width * 60;
    }
    if (series.x.isEmpty() && report.durationS > 0) {  // a run shorter than a quarter second: one point
        series.x << startS + report.durationS / 2;
        series.y << report.reqPerMin;
    }
    m_runs[run] = series;
    replotThroughput();
}

void BenchmarkCharts::replotThroughput()
{
    QList<QVector<double>> xs(m_rateGraphs.size()), ys(m_rateGraphs.size());
    double maxX = 10, maxY = 1;
    const double gap = std::numeric_limits<double>::quiet_NaN();
    for (const RunSeries& s : std::as_const(m_runs)) {  // in run order: x grows
        if (s.config < 0 || s.config >= m_rateGraphs.size() || s.x.isEmpty()) continue;
        if (!xs[s.config].isEmpty()) {  // break the line between this configuration's runs
            xs[s.config] << (xs[s.config].last() + s.x.first()) / 2;
            ys[s.config] << gap;
        }
        xs[s.config] += s.x;
        ys[s.config] += s.y;
        maxX = std::max(maxX, s.x.last() + 1);
        for (double y : s.y) maxY = std::max(maxY, y);
    }
    for (int k = 0; k < m_rateGraphs.size(); ++k) m_rateGraphs[k]->setData(xs[k], ys[k], true);
    m_throughput->xAxis->setRange(0, maxX);
    m_throughput->yAxis->setRange(0, maxY * 1.15);
    m_throughput->replot(QCustomPlot::rpQueuedReplot);
}

void BenchmarkCharts::setLatencies(const QList<ConfigSummary>& summary)
{
    double maxY = 1;
    for (int k = 0; k < m_latencyGraphs.size(); ++k) {
        QVector<double> x, y;
        for (qsizetype p = 0; k < summary.size() && p < qsizetype(std::size(kPercentiles)); ++p) {
            if (const std::optional<double> ms = summary[k].*kPercentiles[p].ms) {
                x << double(p + 1);
                y << *ms;
                maxY = std::max(maxY, *ms);
            }
        }
        m_latencyGraphs[k]->setData(x, y, true);
    }
    m_latency->yAxis->setRange(0, maxY * 1.15);
    m_latency->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace maptune
