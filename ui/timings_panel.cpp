#include "timings_panel.h"

#include "io/atomic_write.h"
#include "trace/percentile.h"
#include "chart_export.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QMessageBox>
#include <QHBoxLayout>
#include <QHash>
#include <QMap>
#include <QPushButton>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace maptune {

namespace {

constexpr int kFinalDelayS = 2;  // a second's point is fixed this long after it ends (relay latency)

struct Phase {
    const char* name;
    QColor colour;
    double LayerTrace::*ms;
};

const Phase kPhases[] = {
    {"open", QColor(0x8d, 0xa0, 0xcb), &LayerTrace::openMs},
    {"read", QColor(0x66, 0xc2, 0xa5), &LayerTrace::readMs},
    // Density, IDW or contour generation: what the layer computes from its data.
    {"compute", QColor(0xff, 0xd9, 0x2f), &LayerTrace::computeMs},
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

// Series keys of the map-wide phases: a control character keeps them apart
// from any layer NAME.
constexpr QChar kPhaseMark(0x01);
const QString kLabelSeries = kPhaseMark + QStringLiteral("labels");
const QString kEncodeSeries = kPhaseMark + QStringLiteral("encode");
bool isMapPhase(const QString& key) { return key.startsWith(kPhaseMark); }

// One colour per layer in the history charts, in the order layers are first seen (Tableau 10).
const QRgb kLayerColours[] = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                              0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};

double dbMs(const LayerTrace& lt)
{
    double sum = 0;
    for (const DbTrace& db : lt.db) sum += db.poolWaitMs + db.connectMs + db.queryMs + db.fetchMs;
    return sum;
}

QCustomPlot* makePlot(const QFont& font)
{
    auto* plot = new QCustomPlot;
    plot->legend->setVisible(true);
    plot->legend->setFont(font);
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot->setMinimumHeight(80);
    return plot;
}

// The last render above, its history below.
QWidget* stacked(QCustomPlot* last, QCustomPlot* history)
{
    auto* tab = new QWidget;
    auto* layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(last, 1);
    layout->addWidget(history, 1);
    return tab;
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
    return maptune::percentile(std::move(values), p);
}

TimingsPanel::TimingsPanel(QWidget* parent)
    : QWidget(parent), m_layers(new QCustomPlot), m_history(makePlot(font())), m_db(makePlot(font())),
      m_dbHistory(makePlot(font())), m_server(makePlot(font())), m_serverTick(new QTimer(this)), m_tabs(new QTabWidget),
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
    // Small minimums: both charts fit the bottom dock of a 1000×700 window; they grow with it.
    m_layers->setMinimumHeight(80);

    m_totalGraph = m_history->addGraph();
    m_totalGraph->setName(tr("total"));
    m_totalGraph->setPen(QPen(QColor(0x33, 0x33, 0x33), 1.2));
    m_totalGraph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
    m_history->addLayer(QStringLiteral("lines"), m_history->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    m_totalGraph->setLayer(QStringLiteral("lines"));  // above the bars added later
    // Time charts: the newest data is on the right, the legend on the left.
    for (QCustomPlot* plot : {m_history, m_dbHistory, m_server})
        plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    for (QCustomPlot* plot : {m_history, m_dbHistory}) {
        plot->xAxis->setLabel(tr("seconds ago"));
        plot->xAxis->setRange(-m_windowS, 0);
        plot->setMinimumHeight(70);
    }
    m_history->yAxis->setLabel(tr("ms per render (mean per s)"));
    m_dbHistory->yAxis->setLabel(tr("database ms per render (mean per s)"));

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

    m_tabs->addTab(stacked(m_layers, m_history), tr("Render"));
    m_tabs->addTab(stacked(m_db, m_dbHistory), tr("Database"));
    m_tabs->addTab(createServerPlot(), tr("Server"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(createToolBar());
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
    m_server->xAxis->setRange(-m_windowS, 0);
    // Seconds pass while idle too: the lines scroll once a second while there is data.
    m_serverTick->setInterval(1000);
    connect(m_serverTick, &QTimer::timeout, this, [this] {
        if (m_served.empty() && m_serverPoints.empty() && m_totals.empty()) m_serverTick->stop();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        replotServer(now);
        replotHistory(now);
    });
    return m_server;
}

QLayout* TimingsPanel::createToolBar()
{
    m_window = new QComboBox;
    for (int seconds : windowChoices())
        m_window->addItem(seconds == 0 ? tr("All") : seconds < 120 ? tr("Last %1 s").arg(seconds)
                                                                   : tr("Last %1 min").arg(seconds / 60),
                          seconds);
    m_window->setCurrentIndex(int(windowChoices().indexOf(m_windowS)));
    m_window->setToolTip(tr("Time window of the render history, database history and server charts"));
    connect(m_window, &QComboBox::currentIndexChanged, this,
            [this](int index) { setWindowSeconds(m_window->itemData(index).toInt()); });
    auto* png = new QPushButton(tr("PNG…"));
    png->setToolTip(tr("Save the charts of this tab as a PNG image"));
    connect(png, &QPushButton::clicked, this, [this] { exportWithDialog(true); });
    auto* csvButton = new QPushButton(tr("CSV…"));
    csvButton->setToolTip(tr("Save the data of every chart as CSV"));
    connect(csvButton, &QPushButton::clicked, this, [this] { exportWithDialog(false); });
    auto* clearButton = new QPushButton(tr("Clear"));
    connect(clearButton, &QPushButton::clicked, this, &TimingsPanel::clear);
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_pause);
    bar->addWidget(m_window);
    bar->addStretch(1);
    bar->addWidget(png);
    bar->addWidget(csvButton);
    bar->addWidget(clearButton);
    return bar;
}

void TimingsPanel::setWindowSeconds(int seconds)
{
    m_windowS = std::max(0, seconds);
    const int index = m_window->findData(m_windowS);
    if (index >= 0 && index != m_window->currentIndex()) m_window->setCurrentIndex(index);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    replotServer(now);
    replotHistory(now);
}

Status TimingsPanel::exportPng(const QString& path)
{
    QList<QCustomPlot*> plots = {m_server};
    if (m_tabs->currentIndex() == 0) plots = {m_layers, m_history};
    if (m_tabs->currentIndex() == 1) plots = {m_db, m_dbHistory};
    for (QCustomPlot* plot : std::as_const(plots)) plot->replot(QCustomPlot::rpImmediateRefresh);
    return savePlotsPng(plots, path);
}

QByteArray TimingsPanel::csv() const
{
    return plotsCsv({{QStringLiteral("render_layers"), m_layers},
                     {QStringLiteral("render_history"), m_history},
                     {QStringLiteral("database"), m_db},
                     {QStringLiteral("database_history"), m_dbHistory},
                     {QStringLiteral("server"), m_server}});
}

Status TimingsPanel::exportCsv(const QString& path) const
{
    return writeFileAtomically(path, csv());
}

void TimingsPanel::exportWithDialog(bool png)
{
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    const QString path = png ? QFileDialog::getSaveFileName(this, tr("Export chart"), QStringLiteral("maptune-timings-%1.png").arg(stamp),
                                                            tr("PNG images (*.png)"))
                             : QFileDialog::getSaveFileName(this, tr("Export chart data"), QStringLiteral("maptune-timings-%1.csv").arg(stamp),
                                                            tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    if (const Status exported = png ? exportPng(path) : exportCsv(path); !exported)
        QMessageBox::warning(this, tr("Export"), exported.message());
}

void TimingsPanel::addTrace(const Trace& trace)
{
    addTraceAt(trace, QDateTime::currentMSecsSinceEpoch());
}

void TimingsPanel::addTraceAt(const Trace& trace, qint64 atMs)
{
    if (m_pause->isChecked()) return;
    record(trace, atMs);
    replotHistory(std::max(m_totals.back().atMs, QDateTime::currentMSecsSinceEpoch()));
}

void TimingsPanel::record(const Trace& trace, qint64 atMs)
{
    Render render{atMs, trace.totalMs, {}, false};
    for (const LayerTrace& lt : trace.layers) {
        if (lt.skipped) continue;
        render.layers << LayerMs{lt.layer, lt.totalMs, dbMs(lt)};
        series(lt.layer);
        if (!lt.db.isEmpty()) {
            render.hasDb = true;
            LayerSeries& s = series(lt.layer);
            if (!s.db) {
                QCPBars* top = nullptr;
                for (const LayerSeries& other : std::as_const(m_series))
                    if (other.db) top = other.db;
                s.db = addHistoryBars(m_dbHistory, top, s);
            }
        }
    }
    // The label cache and encoding are not any layer's time, yet part of the total.
    for (const auto& [key, ms] : {std::pair{kLabelSeries, trace.labelMs}, std::pair{kEncodeSeries, trace.encodeMs}}) {
        if (ms <= 0) continue;
        render.layers << LayerMs{key, ms, 0};
        series(key);
    }
    // Served requests finish on several threads: keep the history in time order.
    const auto at = std::upper_bound(m_totals.begin(), m_totals.end(), atMs,
                                     [](qint64 ms, const Render& r) { return ms < r.atMs; });
    m_totals.insert(at, std::move(render));
    const qint64 newest = m_totals.back().atMs;
    while (m_totals.size() > size_t(kMaxRenders) || m_totals.front().atMs < newest - 1000LL * kMaxHistoryS)
        m_totals.pop_front();
    replotLayers(trace);
    if (!m_serverTick->isActive()) m_serverTick->start();
    if (std::any_of(trace.layers.begin(), trace.layers.end(), [](const LayerTrace& lt) { return !lt.db.isEmpty(); }))
        replotDb(trace);
}

TimingsPanel::LayerSeries& TimingsPanel::series(const QString& layer)
{
    for (LayerSeries& s : m_series)
        if (s.layer == layer) return s;
    // Map phases in greys: they are not layers.
    const QColor colour = layer == kLabelSeries    ? QColor(0x9a, 0x9a, 0x9a)
                          : layer == kEncodeSeries ? QColor(0xcf, 0xcf, 0xcf)
                                                   : QColor(kLayerColours[layerCount() % std::size(kLayerColours)]);
    LayerSeries s{layer, colour, nullptr, nullptr};
    // Layers stack in the order first seen, the map phases on top of them:
    // a new layer goes above the last layer, below the phases.
    const bool phase = isMapPhase(layer);
    int insertAt = int(m_series.size());
    if (!phase)
        while (insertAt > 0 && isMapPhase(m_series[insertAt - 1].layer)) --insertAt;
    s.render = addHistoryBars(m_history, insertAt > 0 ? m_series[insertAt - 1].render : nullptr, s);
    if (insertAt == 0 && !m_series.isEmpty()) s.render->moveBelow(m_series.first().render);
    m_series.insert(insertAt, s);
    return m_series[insertAt];
}

QCPBars* TimingsPanel::addHistoryBars(QCustomPlot* plot, QCPBars* below, const LayerSeries& s)
{
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setName(s.layer == kLabelSeries    ? tr("labels (all layers)")
                  : s.layer == kEncodeSeries ? tr("encode")
                                             : s.layer);
    bars->setBrush(s.colour);
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.8);  // one bar per second
    if (below) bars->moveAbove(below);
    return bars;
}

QStringList TimingsPanel::historyLayers() const
{
    QStringList layers;
    for (const LayerSeries& s : m_series)
        if (!isMapPhase(s.layer)) layers << s.layer;
    return layers;
}

int TimingsPanel::layerCount() const
{
    return int(historyLayers().size());
}

QCPBars* TimingsPanel::labelHistory() const
{
    return layerHistory(kLabelSeries);
}

QCPBars* TimingsPanel::encodeHistory() const
{
    return layerHistory(kEncodeSeries);
}

QCPBars* TimingsPanel::layerHistory(const QString& layer) const
{
    for (const LayerSeries& s : m_series)
        if (s.layer == layer) return s.render;
    return nullptr;
}

QCPBars* TimingsPanel::dbHistory(const QString& layer) const
{
    for (const LayerSeries& s : m_series)
        if (s.layer == layer) return s.db;
    return nullptr;
}

void TimingsPanel::addServedRequest(const ServedRequest& request)
{
    if (m_pause->isChecked()) return;
    m_served.push_back({request.finishedMs, request.ms});
    if (m_nextFinalS == 0) m_nextFinalS = request.finishedMs / 1000;
    // The history is redrawn by the tick: never a replot of every render per request under load.
    if (request.trace) record(*request.trace, request.finishedMs);
    // The tick draws it within a second: charts never replot per request under load.
    if (!m_serverTick->isActive()) m_serverTick->start();
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

TimingsPanel::ServerPoint TimingsPanel::serverPointAt(qint64 second) const
{
    // Requests finished in that second, and the latency percentiles of the
    // requests finished in the window ending with it.
    const qint64 end = (second + 1) * 1000;
    const qint64 begin = end - 1000LL * kLatencyWindowS;
    ServerPoint point;
    QList<double> window;
    for (const Served& r : m_served) {
        if (r.finishedMs >= end || r.finishedMs < begin) continue;
        window << r.ms;
        if (r.finishedMs >= end - 1000) point.rate += 1;
    }
    point.hasLatency = !window.isEmpty();
    point.p50 = percentile(window, 50);
    point.p95 = percentile(window, 95);
    return point;
}

void TimingsPanel::finalizeSeconds(qint64 nowS)
{
    // Seconds that get no more requests become one point each; the raw
    // requests are then kept only as far back as the next latency window needs.
    if (m_nextFinalS == 0) return;
    for (; m_nextFinalS < nowS - kFinalDelayS; ++m_nextFinalS) {
        if (m_served.empty() || m_served.back().finishedMs < (m_nextFinalS - kLatencyWindowS) * 1000) {
            m_nextFinalS = nowS - kFinalDelayS;  // idle since: nothing to summarize
            break;
        }
        const ServerPoint point = serverPointAt(m_nextFinalS);
        if (point.hasLatency) m_serverPoints[m_nextFinalS] = point;
    }
    const qint64 keepFrom = (m_nextFinalS + 1 - kLatencyWindowS) * 1000;
    while (!m_served.empty() && m_served.front().finishedMs < keepFrom) m_served.pop_front();
    while (m_serverPoints.size() > size_t(kMaxHistoryS)) m_serverPoints.erase(m_serverPoints.begin());
}

void TimingsPanel::replotServer(qint64 nowMs)
{
    const qint64 nowS = nowMs / 1000;
    finalizeSeconds(nowS);
    qint64 firstS = nowS - m_windowS;
    if (m_windowS == 0) {
        firstS = nowS - 10;
        if (!m_serverPoints.empty()) firstS = std::min(firstS, m_serverPoints.begin()->first);
        if (!m_served.empty()) firstS = std::min(firstS, m_served.front().finishedMs / 1000);
    }
    QVector<double> keys, rate, p50, p95;
    double maxRate = 1, maxMs = 1;
    for (qint64 s = firstS; s <= nowS; ++s) {
        ServerPoint point;
        if (s < m_nextFinalS) {
            const auto it = m_serverPoints.find(s);
            if (it != m_serverPoints.end()) point = it->second;
        } else {
            point = serverPointAt(s);
        }
        keys << double(s - nowS);
        rate << point.rate;
        p50 << (point.hasLatency ? point.p50 : qQNaN());
        p95 << (point.hasLatency ? point.p95 : qQNaN());
        maxRate = std::max(maxRate, point.rate);
        maxMs = std::max(maxMs, point.hasLatency ? point.p95 : 0.0);
    }
    m_rate->setData(keys, rate, true);
    m_p50->setData(keys, p50, true);
    m_p95->setData(keys, p95, true);
    m_server->xAxis->setRange(double(firstS - nowS), 0);
    m_server->yAxis->setRange(0, maxRate * 1.15);
    m_server->yAxis2->setRange(0, maxMs * 1.15);
    m_server->replot(QCustomPlot::rpQueuedReplot);
}

void TimingsPanel::clear()
{
    m_totals.clear();
    for (QCPBars* bars : std::as_const(m_phases)) bars->data()->clear();
    m_totalGraph->data()->clear();
    for (const LayerSeries& s : std::as_const(m_series)) {
        m_history->removePlottable(s.render);
        if (s.db) m_dbHistory->removePlottable(s.db);
    }
    m_series.clear();
    for (QCPBars* bars : std::as_const(m_dbPhases)) bars->data()->clear();
    m_dbLayers.clear();
    m_served.clear();
    m_serverPoints.clear();
    m_nextFinalS = 0;
    for (QCPGraph* g : {m_rate, m_p50, m_p95}) g->data()->clear();
    for (QCustomPlot* plot : {m_layers, m_history, m_db, m_dbHistory, m_server}) plot->replot();
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
        maxMs = std::max({maxMs, lt->totalMs, lt->openMs + lt->readMs + lt->computeMs + lt->lutMs + lt->drawMs + lt->labelMs});
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTicks(ticks, labels);
    m_layers->xAxis->setTicker(ticker);
    m_layers->xAxis->setRange(0.4, std::max<double>(1, drawn.size()) + 0.6);
    m_layers->yAxis->setRange(0, maxMs * 1.15);
    m_layers->replot(QCustomPlot::rpQueuedReplot);
}

QList<TimingsPanel::SecondBucket> TimingsPanel::historyBuckets(qint64 fromS) const
{
    QHash<QString, int> index;
    for (int i = 0; i < m_series.size(); ++i) index.insert(m_series[i].layer, i);
    QList<SecondBucket> buckets;
    for (const Render& r : m_totals) {  // in time order
        const qint64 second = r.atMs / 1000;
        if (second < fromS) continue;
        if (buckets.isEmpty() || buckets.last().second != second)
            buckets << SecondBucket{second, 0, 0, 0, QVector<double>(m_series.size()), QVector<double>(m_series.size())};
        SecondBucket& b = buckets.last();
        ++b.renders;
        b.totalMs += r.totalMs;
        if (r.hasDb) ++b.dbRenders;
        for (const LayerMs& l : r.layers) {
            const int i = index.value(l.layer, -1);
            if (i < 0) continue;
            b.renderMs[i] += l.renderMs;
            b.dbMs[i] += l.dbMs;
        }
    }
    return buckets;
}

void TimingsPanel::replotHistory(qint64 nowMs)
{
    // One bar per second with renders, the mean of its renders (readable
    // under load; a lone canvas render is its own bar), stacked by layer;
    // every layer's series has a value at each key so that the stacks line
    // up. Database: the seconds with DB calls, the mean over the renders that
    // made them. Keys are seconds ago, as in the server chart.
    const qint64 nowS = nowMs / 1000;
    const QList<SecondBucket> buckets =
        historyBuckets(m_windowS == 0 ? std::numeric_limits<qint64>::min() : nowS - m_windowS);
    QVector<double> keys, totals, dbKeys;
    QList<QVector<double>> render(m_series.size()), db(m_series.size());
    double maxMs = 1, maxDbMs = 1;
    for (const SecondBucket& b : buckets) {
        const double key = double(b.second - nowS);
        keys << key;
        totals << b.totalMs / b.renders;
        if (b.dbRenders > 0) dbKeys << key;
        double sum = 0, dbSum = 0;
        for (int i = 0; i < m_series.size(); ++i) {
            render[i] << b.renderMs[i] / b.renders;
            sum += render[i].last();
            if (b.dbRenders == 0) continue;
            db[i] << b.dbMs[i] / b.dbRenders;
            dbSum += db[i].last();
        }
        maxMs = std::max({maxMs, totals.last(), sum});
        maxDbMs = std::max(maxDbMs, dbSum);
    }
    m_totalGraph->setData(keys, totals, true);
    for (int i = 0; i < m_series.size(); ++i) {
        m_series[i].render->setData(keys, render[i], true);
        if (m_series[i].db) m_series[i].db->setData(dbKeys, db[i], true);
    }
    // The window, or less while the history is shorter (at least 10 s).
    const double oldest = m_totals.empty() ? 0 : double(std::min(nowS, m_totals.front().atMs / 1000) - nowS);
    const double span = std::max(10.0, m_windowS == 0 ? -oldest : std::min(-oldest, double(m_windowS)));
    for (QCustomPlot* plot : {m_history, m_dbHistory}) plot->xAxis->setRange(-span - 0.5, 0.5);
    m_history->yAxis->setRange(0, maxMs * 1.15);
    m_dbHistory->yAxis->setRange(0, maxDbMs * 1.15);
    m_history->replot(QCustomPlot::rpQueuedReplot);
    m_dbHistory->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace maptune
