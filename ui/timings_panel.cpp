#include "timings_panel.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QMap>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

constexpr int kRolling = 120;  // renders kept in the line chart

struct Phase {
    const char* name;
    QColor colour;
    double LayerTrace::*ms;
};

const Phase kPhases[] = {
    {"open", QColor(0x8d, 0xa0, 0xcb), &LayerTrace::openMs},
    {"read", QColor(0x66, 0xc2, 0xa5), &LayerTrace::readMs},
    {"lut", QColor(0xe7, 0x8a, 0xc3), &LayerTrace::lutMs},
    {"draw", QColor(0xfc, 0x8d, 0x62), &LayerTrace::drawMs},
    {"label", QColor(0xa6, 0xd8, 0x54), &LayerTrace::labelMs},
};

struct DbPhase {
    const char* name;
    QColor colour;
    double DbTrace::*ms;
};

const DbPhase kDbPhases[] = {
    {"pool wait", QColor(0xb3, 0xb3, 0xb3), &DbTrace::poolWaitMs},
    {"connect", QColor(0xff, 0xd9, 0x2f), &DbTrace::connectMs},
    {"query", QColor(0x1b, 0x9e, 0x77), &DbTrace::queryMs},
    {"fetch", QColor(0x75, 0x70, 0xb3), &DbTrace::fetchMs},
};

QCustomPlot* makePlot(const QFont& font)
{
    auto* plot = new QCustomPlot;
    plot->legend->setVisible(true);
    plot->legend->setFont(font);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot->setMinimumHeight(140);
    return plot;
}

// Bars per category (ticks 1..n labelled), stacked in order; returns the highest stack.
double setStackedBars(QCustomPlot* plot, const QList<QCPBars*>& stack, const QStringList& labels,
                      const QList<QVector<double>>& values)
{
    QVector<double> ticks;
    for (int i = 0; i < labels.size(); ++i) ticks << double(i + 1);
    for (int p = 0; p < stack.size(); ++p) stack[p]->setData(ticks, values[p], true);
    double maxMs = 1;
    for (int i = 0; i < labels.size(); ++i) {
        double sum = 0;
        for (const QVector<double>& v : values) sum += v[i];
        maxMs = std::max(maxMs, sum);
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTicks(ticks, labels.toVector());
    plot->xAxis->setTicker(ticker);
    plot->xAxis->setRange(0.4, std::max<double>(1, labels.size()) + 0.6);
    plot->yAxis->setRange(0, maxMs * 1.15);
    plot->replot(QCustomPlot::rpQueuedReplot);
    return maxMs;
}

}  // namespace

double TimingsPanel::percentile(QList<double> values, double p)
{
    if (values.isEmpty()) return 0;
    std::sort(values.begin(), values.end());
    const auto rank = qsizetype(std::ceil(p / 100.0 * double(values.size())));
    return values[std::clamp<qsizetype>(rank - 1, 0, values.size() - 1)];
}

TimingsPanel::TimingsPanel(QWidget* parent)
    : QWidget(parent), m_layers(new QCustomPlot), m_total(new QCustomPlot), m_db(makePlot(font())),
      m_server(makePlot(font())), m_serverTick(new QTimer(this)), m_tabs(new QTabWidget),
      m_pause(new QCheckBox(tr("Pause")))
{
    QCPBars* below = nullptr;
    for (const Phase& phase : kPhases) {
        auto* bars = new QCPBars(m_layers->xAxis, m_layers->yAxis);
        bars->setName(QString::fromLatin1(phase.name));
        bars->setBrush(phase.colour);
        bars->setPen(phase.colour.darker(130));
        bars->setWidth(0.6);
        if (below) bars->moveAbove(below);
        below = bars;
        m_phases << bars;
    }
    m_layers->yAxis->setLabel(tr("ms (last render)"));
    m_layers->legend->setVisible(true);
    m_layers->legend->setFont(font());
    m_layers->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_layers->setMinimumHeight(160);

    m_totalGraph = m_total->addGraph();
    m_totalGraph->setName(tr("total"));
    m_totalGraph->setPen(QPen(QColor(0x33, 0x66, 0xcc), 1.5));
    m_totalGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    m_total->xAxis->setLabel(tr("render #"));
    m_total->yAxis->setLabel(tr("total ms"));
    m_total->setMinimumHeight(120);

    auto* clearButton = new QPushButton(tr("Clear"));
    connect(clearButton, &QPushButton::clicked, this, &TimingsPanel::clear);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_pause);
    bar->addStretch(1);
    bar->addWidget(clearButton);

    QCPBars* dbBelow = nullptr;
    for (const DbPhase& phase : kDbPhases) {
        auto* bars = new QCPBars(m_db->xAxis, m_db->yAxis);
        bars->setName(QString::fromLatin1(phase.name));
        bars->setBrush(phase.colour);
        bars->setPen(phase.colour.darker(130));
        bars->setWidth(0.6);
        if (dbBelow) bars->moveAbove(dbBelow);
        dbBelow = bars;
        m_dbPhases << bars;
    }
    m_db->yAxis->setLabel(tr("database ms (last render with DB calls)"));

    auto* render = new QWidget;
    auto* renderLayout = new QVBoxLayout(render);
    renderLayout->setContentsMargins(0, 0, 0, 0);
    renderLayout->addWidget(m_layers, 3);
    renderLayout->addWidget(m_total, 2);
    m_tabs->addTab(render, tr("Render"));
    m_tabs->addTab(m_db, tr("Database"));
    m_tabs->addTab(createServerPlot(), tr("Server"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(m_tabs, 1);
}

QWidget* TimingsPanel::createServerPlot()
{
    m_rate = m_server->addGraph(m_server->xAxis, m_server->yAxis);
    m_rate->setName(tr("requests/s"));
    m_rate->setPen(QPen(QColor(0x33, 0x66, 0xcc), 1.5));
    m_rate->setBrush(QColor(0x33, 0x66, 0xcc, 40));
    m_p50 = m_server->addGraph(m_server->xAxis, m_server->yAxis2);
    m_p50->setName(tr("p50 ms (%1 s window)").arg(kLatencyWindowS));
    m_p50->setPen(QPen(QColor(0x1b, 0x9e, 0x77), 1.5));
    m_p95 = m_server->addGraph(m_server->xAxis, m_server->yAxis2);
    m_p95->setName(tr("p95 ms"));
    m_p95->setPen(QPen(QColor(0xd9, 0x5f, 0x02), 1.5, Qt::DashLine));
    m_server->xAxis->setLabel(tr("seconds ago"));
    m_server->yAxis->setLabel(tr("requests/s"));
    m_server->yAxis2->setLabel(tr("latency ms"));
    m_server->yAxis2->setVisible(true);
    m_server->xAxis->setRange(-kServerHistoryS, 0);
    // Seconds pass while idle too: the lines scroll once a second while there is data.
    m_serverTick->setInterval(1000);
    connect(m_serverTick, &QTimer::timeout, this, [this] {
        if (m_served.empty()) m_serverTick->stop();
        replotServer(QDateTime::currentMSecsSinceEpoch());
    });
    return m_server;
}

void TimingsPanel::addTrace(const Trace& trace)
{
    if (m_pause->isChecked()) return;
    ++m_count;
    m_totals.append(trace.totalMs);
    if (m_totals.size() > kRolling) m_totals.removeFirst();
    replotLayers(trace);
    replotTotals();
    if (std::any_of(trace.layers.begin(), trace.layers.end(), [](const LayerTrace& lt) { return !lt.db.isEmpty(); }))
        replotDb(trace);
}

void TimingsPanel::addServedRequest(const ServedRequest& request)
{
    if (m_pause->isChecked()) return;
    m_served.push_back({request.finishedMs, request.ms});
    const qint64 oldest = request.finishedMs - 1000LL * (kServerHistoryS + kLatencyWindowS + 1);
    while (!m_served.empty() && m_served.front().finishedMs < oldest) m_served.pop_front();
    if (request.trace) addTrace(*request.trace);
    if (!m_serverTick->isActive()) {
        m_serverTick->start();
        replotServer(QDateTime::currentMSecsSinceEpoch());
    }
}

void TimingsPanel::replotDb(const Trace& trace)
{
    m_dbLayers.clear();
    QList<QVector<double>> values(m_dbPhases.size());
    for (const LayerTrace& lt : trace.layers) {
        if (lt.db.isEmpty()) continue;
        m_dbLayers << lt.layer;
        for (int p = 0; p < m_dbPhases.size(); ++p) {
            double sum = 0;
            for (const DbTrace& db : lt.db) sum += db.*(kDbPhases[p].ms);
            values[p] << sum;
        }
    }
    setStackedBars(m_db, m_dbPhases, m_dbLayers, values);
}

void TimingsPanel::replotServer(qint64 nowMs)
{
    // One point per whole second: requests finished in that second, and the
    // latency percentiles of the requests finished in the window ending there.
    QVector<double> keys, rate, p50, p95;
    double maxRate = 1, maxMs = 1;
    const qint64 nowS = nowMs / 1000;
    for (qint64 s = nowS - kServerHistoryS; s <= nowS; ++s) {
        const qint64 end = (s + 1) * 1000;
        const qint64 begin = end - 1000LL * kLatencyWindowS;
        int inSecond = 0;
        QList<double> window;
        for (const Served& r : m_served) {
            if (r.finishedMs >= end || r.finishedMs < begin) continue;
            window << r.ms;
            if (r.finishedMs >= end - 1000) ++inSecond;
        }
        keys << double(s - nowS);
        rate << inSecond;
        const double q50 = percentile(window, 50), q95 = percentile(window, 95);
        p50 << (window.isEmpty() ? qQNaN() : q50);
        p95 << (window.isEmpty() ? qQNaN() : q95);
        maxRate = std::max(maxRate, double(inSecond));
        maxMs = std::max(maxMs, q95);
    }
    m_rate->setData(keys, rate, true);
    m_p50->setData(keys, p50, true);
    m_p95->setData(keys, p95, true);
    m_server->yAxis->setRange(0, maxRate * 1.15);
    m_server->yAxis2->setRange(0, maxMs * 1.15);
    m_server->replot(QCustomPlot::rpQueuedReplot);
}

void TimingsPanel::clear()
{
    m_totals.clear();
    m_count = 0;
    for (QCPBars* bars : std::as_const(m_phases)) bars->data()->clear();
    m_totalGraph->data()->clear();
    for (QCPBars* bars : std::as_const(m_dbPhases)) bars->data()->clear();
    m_dbLayers.clear();
    m_served.clear();
    for (QCPGraph* g : {m_rate, m_p50, m_p95}) g->data()->clear();
    m_layers->replot();
    m_total->replot();
    m_db->replot();
    m_server->replot();
}

void TimingsPanel::replotLayers(const Trace& trace)
{
    QVector<double> ticks;
    QVector<QString> labels;
    QList<const LayerTrace*> drawn;
    for (const LayerTrace& lt : trace.layers) {
        if (lt.skipped) continue;
        drawn << &lt;
        ticks << double(ticks.size() + 1);
        labels << lt.layer;
    }
    double maxMs = 1;
    for (int p = 0; p < m_phases.size(); ++p) {
        QVector<double> values;
        for (const LayerTrace* lt : std::as_const(drawn)) values << lt->*(kPhases[p].ms);
        m_phases[p]->setData(ticks, values, true);
    }
    for (const LayerTrace* lt : std::as_const(drawn))
        maxMs = std::max({maxMs, lt->totalMs, lt->openMs + lt->readMs + lt->lutMs + lt->drawMs + lt->labelMs});
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTicks(ticks, labels);
    m_layers->xAxis->setTicker(ticker);
    m_layers->xAxis->setRange(0.4, std::max<double>(1, drawn.size()) + 0.6);
    m_layers->yAxis->setRange(0, maxMs * 1.15);
    m_layers->replot(QCustomPlot::rpQueuedReplot);
}

void TimingsPanel::replotTotals()
{
    QVector<double> keys, values;
    const qint64 first = m_count - m_totals.size() + 1;
    double maxMs = 1;
    for (int i = 0; i < m_totals.size(); ++i) {
        keys << double(first + i);
        values << m_totals[i];
        maxMs = std::max(maxMs, m_totals[i]);
    }
    m_totalGraph->setData(keys, values, true);
    m_total->xAxis->setRange(first - 0.5, std::max<double>(first + 9.5, m_count + 0.5));
    m_total->yAxis->setRange(0, maxMs * 1.15);
    m_total->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace maptune
