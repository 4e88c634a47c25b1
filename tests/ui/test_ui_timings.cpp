// Workbench tests: the timings panel: database series, per-layer render and
// database history, percentiles, served traffic, time windows, exports.

#include "ui_test_support.h"

#include "timings_panel.h"

#include "loadtest/latency_stats.h"
#include "render/engine.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QDateTime>
#include <QImage>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace maptune;
using namespace maptune::testing;

class TestUiTimings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void timingsDbSeries();
    void renderHistoryPerLayer();
    void renderHistoryShowsLabelsAndEncode();
    void renderHistoryMeanPerSecond();
    void dbHistoryPerLayer();
    void historyWindow_data();
    void historyWindow();
    void servedTracesAtTheirTime();
    void pauseAndClear();
    void timingsPercentile_data();
    void timingsPercentile();
    void timingsServedRequests();
    void timeWindowLimitsServerChart_data();
    void timeWindowLimitsServerChart();
    void exportsCsvAndPng();
};

namespace {

DbTrace dbTrace(double poolWaitMs, double connectMs, double queryMs, double fetchMs)
{
    DbTrace db;
    db.poolWaitMs = poolWaitMs;
    db.connectMs = connectMs;
    db.queryMs = queryMs;
    db.fetchMs = fetchMs;
    return db;
}

QList<double> values(const QCPBars* bars)
{
    QList<double> out;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) out << it->value;
    return out;
}

QList<double> keys(const QCPBars* bars)
{
    QList<double> out;
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) out << it->key;
    return out;
}

bool closeTo(double a, double b)
{
    return std::abs(a - b) < 1e-6;
}

}  // namespace

void TestUiTimings::initTestCase()
{
    initEngine();
}

void TestUiTimings::timingsDbSeries()
{
    TimingsPanel panel;
    Trace trace;
    trace.layers << layerTrace("roads", 30) << layerTrace("water", 5);
    trace.layers[0].db << dbTrace(1, 2, 10, 4) << dbTrace(0.5, 0, 3, 1);
    panel.addTrace(trace);
    QCOMPARE(panel.dbLayers(), QStringList({"roads"}));  // "water" made no DB calls
    // Bars 0..3: pool wait, connect, query, fetch; one bar per DB layer, summed over its calls.
    const QList<double> expected{1.5, 2, 13, 5};
    for (int phase = 0; phase < 4; ++phase) {
        auto* bars = qobject_cast<QCPBars*>(panel.dbPlot()->plottable(phase));
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 1);
        QCOMPARE(bars->data()->at(0)->value, expected[phase]);
    }
    // A later render without DB calls keeps the last DB picture.
    Trace plain;
    plain.layers << layerTrace("water", 5);
    panel.addTrace(plain);
    QCOMPARE(panel.dbLayers(), QStringList({"roads"}));
}


void TestUiTimings::renderHistoryShowsLabelsAndEncode()
{
    TimingsPanel panel;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(!panel.labelHistory());
    // The label cache and encoding are map-wide: their own series, so that the
    // stack reaches the total line.
    Trace first;
    first.layers << layerTrace("roads", 10);
    first.labelMs = 4;
    first.encodeMs = 3;
    first.totalMs = 17;
    panel.addTraceAt(first, now - 2000);
    QVERIFY(panel.labelHistory());
    QVERIFY(panel.encodeHistory());
    QCOMPARE(values(panel.labelHistory()), QList<double>({4}));
    QCOMPARE(values(panel.encodeHistory()), QList<double>({3}));
    QCOMPARE(panel.historyLayers(), QStringList({"roads"}));  // phases are not layers
    const double stack = values(panel.layerHistory("roads"))[0] + values(panel.labelHistory())[0]
                         + values(panel.encodeHistory())[0];
    QCOMPARE(stack, panel.historyPlot()->graph(0)->data()->at(0)->value);
    QCOMPARE(panel.labelHistory()->name(), QStringLiteral("labels (all layers)"));
    // A layer first seen later stacks on the layers, under the phases.
    Trace second;
    second.layers << layerTrace("roads", 8) << layerTrace("water", 2);
    second.totalMs = 10;
    panel.addTraceAt(second, now - 1000);
    QCOMPARE(panel.layerHistory("water")->barBelow(), panel.layerHistory("roads"));
    QCOMPARE(panel.labelHistory()->barBelow(), panel.layerHistory("water"));
    QCOMPARE(panel.encodeHistory()->barBelow(), panel.labelHistory());
    QCOMPARE(values(panel.labelHistory()), QList<double>({4, 0}));
}

void TestUiTimings::renderHistoryPerLayer()
{
    TimingsPanel panel;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // Five renders a second apart: roads 10..14 ms; water 5 ms but skipped in the
    // third (out of scale); ortho only in the last.
    for (int i = 0; i < 5; ++i) {
        Trace trace;
        trace.totalMs = 100 + i;
        trace.layers << layerTrace("roads", 10 + i) << layerTrace("water", 5, i == 2);
        if (i == 4) trace.layers << layerTrace("ortho", 7);
        panel.addTraceAt(trace, now - 4000 + i * 1000);
    }
    QCOMPARE(panel.historySize(), 5);
    QCOMPARE(panel.historyLayers(), QStringList({"roads", "water", "ortho"}));
    QCOMPARE(values(panel.layerHistory("roads")), QList<double>({10, 11, 12, 13, 14}));
    QCOMPARE(values(panel.layerHistory("water")), QList<double>({5, 5, 0, 5, 5}));
    QCOMPARE(values(panel.layerHistory("ortho")), QList<double>({0, 0, 0, 0, 7}));
    QVERIFY(!panel.layerHistory("missing"));
    // Keyed by whole seconds before now, one apart; the stacks share the keys.
    const QList<double> k = keys(panel.layerHistory("roads"));
    for (int i = 1; i < 5; ++i) QVERIFY(closeTo(k[i] - k[i - 1], 1.0));
    QVERIFY(k.last() <= 0 && k.last() > -5);
    QCOMPARE(keys(panel.layerHistory("ortho")), k);
    // Stacked in the order first seen: water on roads, ortho on water.
    QCOMPARE(panel.layerHistory("water")->barBelow(), panel.layerHistory("roads"));
    QCOMPARE(panel.layerHistory("ortho")->barBelow(), panel.layerHistory("water"));
    QCOMPARE(panel.layerHistory("roads")->barBelow(), nullptr);
    // The total line (graph 0) has each render's total.
    QCPGraph* total = panel.historyPlot()->graph(0);
    QCOMPARE(total->data()->size(), 5);
    for (int i = 0; i < 5; ++i) QCOMPARE(total->data()->at(i)->value, 100.0 + i);
    // One colour per layer.
    QVERIFY(panel.layerHistory("roads")->brush().color() != panel.layerHistory("water")->brush().color());
    // No database calls: no database history.
    QVERIFY(!panel.dbHistory("roads"));
}

void TestUiTimings::renderHistoryMeanPerSecond()
{
    // Under load many renders finish each second: one bar per second, the
    // mean of its renders (a layer missing from one counts 0 there).
    TimingsPanel panel;
    const qint64 second = QDateTime::currentMSecsSinceEpoch() / 1000 - 2;
    const std::tuple<int, double, bool> renders[] = {{100, 3, false}, {400, 6, true}, {900, 9, false}};
    for (auto [ms, roads, water] : renders) {
        Trace trace;
        trace.totalMs = 2 * roads;
        trace.layers << layerTrace("roads", roads);
        if (water) trace.layers << layerTrace("water", 6);
        panel.addTraceAt(trace, second * 1000 + ms);
    }
    Trace later;
    later.totalMs = 1;
    later.layers << layerTrace("roads", 1);
    panel.addTraceAt(later, (second + 1) * 1000);
    QCOMPARE(panel.historySize(), 4);
    QCOMPARE(values(panel.layerHistory("roads")), QList<double>({6, 1}));
    QCOMPARE(values(panel.layerHistory("water")), QList<double>({2, 0}));
    QCPGraph* total = panel.historyPlot()->graph(0);
    QCOMPARE(total->data()->size(), 2);
    QCOMPARE(total->data()->at(0)->value, 12.0);
    QCOMPARE(total->data()->at(1)->value, 1.0);
    // Whole seconds ago, as in the server chart.
    const QList<double> k = keys(panel.layerHistory("roads"));
    QCOMPARE(k[1] - k[0], 1.0);
    QCOMPARE(k[0], std::round(k[0]));
}

void TestUiTimings::dbHistoryPerLayer()
{
    TimingsPanel panel;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    Trace first, plain, third;
    first.layers << layerTrace("roads", 20) << layerTrace("water", 3);
    first.layers[0].db << dbTrace(0, 0, 10, 2);
    plain.layers << layerTrace("water", 3);
    third.layers << layerTrace("roads", 9) << layerTrace("parcels", 8);
    third.layers[0].db << dbTrace(1, 0, 3, 0);
    third.layers[1].db << dbTrace(0, 2.5, 4, 0);
    panel.addTraceAt(first, now - 3000);
    panel.addTraceAt(plain, now - 2000);
    panel.addTraceAt(third, now - 1000);
    // Every render in the render history; only the two with DB calls in the database history,
    // each layer's pool wait + connect + query + fetch summed over its calls.
    QCOMPARE(panel.layerHistory("roads")->data()->size(), 3);
    QCOMPARE(values(panel.dbHistory("roads")), QList<double>({12, 4}));
    QCOMPARE(values(panel.dbHistory("parcels")), QList<double>({0, 6.5}));
    QVERIFY(!panel.dbHistory("water"));
    const QList<double> k = keys(panel.dbHistory("roads"));
    QVERIFY(closeTo(k[1] - k[0], 2.0));
    QCOMPARE(panel.dbHistory("parcels")->barBelow(), panel.dbHistory("roads"));
    // The CSV carries the history as drawn: parcels' two bars.
    const QByteArray csv = panel.csv();
    int parcels = 0;
    for (const QByteArray& row : csv.split('\n'))
        if (row.startsWith("database_history,parcels,")) parcels += row.endsWith(",,6.5") ? 10 : 1;
    QVERIFY2(parcels == 11, csv.constData());
}

void TestUiTimings::historyWindow_data()
{
    QTest::addColumn<int>("window");
    QTest::addColumn<QList<double>>("roads");
    // Renders 300 s, 60 s and 10 s ago, roads 3, 2 and 1 ms.
    QTest::newRow("last 30 s") << 30 << QList<double>{1};
    QTest::newRow("last 2 min") << 120 << QList<double>{2, 1};
    QTest::newRow("all") << 0 << QList<double>{3, 2, 1};
}

void TestUiTimings::historyWindow()
{
    QFETCH(int, window);
    QFETCH(QList<double>, roads);
    TimingsPanel panel;
    panel.setWindowSeconds(window);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (auto [agoS, ms] : {std::pair{300, 3.0}, {60, 2.0}, {10, 1.0}}) {
        Trace trace;
        trace.totalMs = ms;
        trace.layers << layerTrace("roads", ms);
        panel.addTraceAt(trace, now - agoS * 1000);
    }
    QCOMPARE(panel.historySize(), 3);  // the window limits what is drawn, not what is kept
    QCOMPARE(values(panel.layerHistory("roads")), roads);
    QCOMPARE(panel.historyPlot()->graph(0)->data()->size(), roads.size());
    const double lower = panel.historyPlot()->xAxis->range().lower;
    // The window (or back to the oldest render for "all"), half a bar beyond.
    QCOMPARE(lower, window == 0 ? -300.5 : -window - 0.5);
}

void TestUiTimings::servedTracesAtTheirTime()
{
    TimingsPanel panel;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // Served requests reach the panel out of order (several connection threads):
    // the history is drawn in the order they finished.
    for (auto [agoMs, ms] : {std::pair{1000, 20.0}, {3000, 40.0}, {2000, 30.0}}) {
        ServedRequest r;
        r.finishedMs = now - agoMs;
        r.ms = ms;
        r.status = 200;
        Trace trace;
        trace.totalMs = ms;
        trace.layers << layerTrace("ortho", ms - 1);
        r.trace = trace;
        panel.addServedRequest(r);
    }
    // Drawn by the once-a-second tick (not per request under load).
    QCOMPARE(panel.layerHistory("ortho")->data()->size(), 0);
    panel.replotHistory(now);
    QCOMPARE(values(panel.layerHistory("ortho")), QList<double>({39, 29, 19}));
    const QList<double> k = keys(panel.layerHistory("ortho"));
    QVERIFY(closeTo(k[1] - k[0], 1.0) && closeTo(k[2] - k[1], 1.0));
}

void TestUiTimings::pauseAndClear()
{
    TimingsPanel panel;
    Trace trace;
    trace.layers << layerTrace("roads", 4);
    panel.addTrace(trace);
    auto* pause = panel.findChild<QCheckBox*>();
    QVERIFY(pause);
    pause->setChecked(true);
    panel.addTrace(trace);
    QCOMPARE(panel.layerHistory("roads")->data()->size(), 1);
    pause->setChecked(false);
    panel.clear();
    QCOMPARE(panel.historySize(), 0);
    QVERIFY(panel.historyLayers().isEmpty());
    QVERIFY(!panel.layerHistory("roads"));
    QCOMPARE(panel.historyPlot()->plottableCount(), 1);  // the total line only
    panel.addTrace(trace);
    QCOMPARE(values(panel.layerHistory("roads")), QList<double>({4}));
}

void TestUiTimings::timingsPercentile_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("expected");
    // The load reports' definition (linear between closest ranks), so that
    // the panel and a benchmark report give one p95 for the same requests.
    QTest::newRow("empty") << QList<double>{} << 50.0 << 0.0;
    QTest::newRow("one") << QList<double>{7} << 95.0 << 7.0;
    QTest::newRow("p50 of 4") << QList<double>{4, 1, 3, 2} << 50.0 << 2.5;
    QTest::newRow("p95 of 20") << QList<double>{20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
                               << 95.0 << 19.05;
    QTest::newRow("p100") << QList<double>{3, 9, 1} << 100.0 << 9.0;
}

void TestUiTimings::timingsPercentile()
{
    QFETCH(QList<double>, values);
    QFETCH(double, p);
    QFETCH(double, expected);
    QVERIFY(qAbs(TimingsPanel::percentile(values, p) - expected) < 1e-9);
    std::sort(values.begin(), values.end());
    QCOMPARE(TimingsPanel::percentile(values, p), LatencyStats::percentile(values, p).value_or(0));
}

void TestUiTimings::timingsServedRequests()
{
    TimingsPanel panel;
    const qint64 now = 1'700'000'000'000;  // a whole second
    // Three requests in the last second (10, 20, 30 ms), one 2 s before (100 ms).
    for (auto [at, ms] : {std::pair{now - 2500, 100.0}, {now - 900, 10.0}, {now - 500, 20.0}, {now - 100, 30.0}}) {
        ServedRequest r;
        r.finishedMs = at;
        r.ms = ms;
        r.status = 200;
        panel.addServedRequest(r);
    }
    panel.replotServer(now - 1);  // the second [now-1000, now) is the newest point
    QCPGraph* rate = panel.serverPlot()->graph(0);
    QCPGraph* p50 = panel.serverPlot()->graph(1);
    QCPGraph* p95 = panel.serverPlot()->graph(2);
    const int last = rate->data()->size() - 1;
    QCOMPARE(rate->data()->at(last)->value, 3.0);
    QCOMPARE(rate->data()->at(last - 1)->value, 0.0);
    QCOMPARE(rate->data()->at(last - 2)->value, 1.0);
    // The window of the newest point holds all four (10, 20, 30, 100), and
    // the percentiles are the load reports': p50 = 25, p95 = 30 + 0.85 * 70.
    QCOMPARE(p50->data()->at(last)->value, 25.0);
    QCOMPARE(p95->data()->at(last)->value, 89.5);
}

void TestUiTimings::timeWindowLimitsServerChart_data()
{
    QTest::addColumn<int>("window");
    QTest::addColumn<int>("requests");
    // Requests 20 s, 90 s, 400 s and 3000 s before now.
    QTest::newRow("last 30 s") << 30 << 1;
    QTest::newRow("last 2 min") << 120 << 2;
    QTest::newRow("last 10 min") << 600 << 3;
    QTest::newRow("all") << 0 << 4;
}

void TestUiTimings::timeWindowLimitsServerChart()
{
    QFETCH(int, window);
    QFETCH(int, requests);
    TimingsPanel panel;
    panel.setWindowSeconds(window);
    QCOMPARE(panel.windowSeconds(), window);
    const qint64 now = 1'700'000'000'000;
    for (auto [agoS, ms] : {std::pair{3000, 40.0}, {400, 30.0}, {90, 20.0}, {20, 10.0}}) {
        ServedRequest r;
        r.finishedMs = now - agoS * 1000 + 500;
        r.ms = ms;
        r.status = 200;
        panel.addServedRequest(r);
    }
    panel.replotServer(now);
    QCPGraph* rate = panel.serverPlot()->graph(0);
    QCPGraph* p95 = panel.serverPlot()->graph(2);
    double count = 0;
    for (auto it = rate->data()->constBegin(); it != rate->data()->constEnd(); ++it) count += it->value;
    QCOMPARE(count, double(requests));
    const double span = window == 0 ? 3000 : window;
    QCOMPARE(panel.serverPlot()->xAxis->range().lower, -span);
    QCOMPARE(rate->data()->constBegin()->key, -span);
    // The oldest request's second, long summarized, keeps its latency (p95 of its window: 40 ms).
    if (window == 0) {
        QCOMPARE(rate->data()->at(0)->value, 1.0);
        QCOMPARE(p95->data()->at(0)->value, 40.0);
    }
    // The newest point's window holds no request: no latency drawn.
    QVERIFY(std::isnan(p95->data()->at(p95->data()->size() - 1)->value));
}

void TestUiTimings::exportsCsvAndPng()
{
    TimingsPanel panel;
    panel.resize(500, 420);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    Trace trace;
    trace.totalMs = 42;
    trace.layers << layerTrace("roads", 30) << layerTrace("water, lakes", 5);
    trace.layers[0].drawMs = 25;
    trace.layers[1].readMs = 4;
    trace.layers[0].db << dbTrace(0, 0, 12, 0);
    panel.addTrace(trace);

    const QByteArray csv = panel.csv();
    const QList<QByteArray> rows = csv.split('\n');
    QCOMPARE(rows.first(), QByteArray("chart,series,x,label,value"));
    QVERIFY2(rows.contains("render_layers,draw,1,roads,25"), csv.constData());
    QVERIFY2(rows.contains("render_layers,read,2,\"water, lakes\",4"), csv.constData());  // quoted: a comma
    QVERIFY2(rows.contains("database,query,1,roads,12"), csv.constData());
    bool roadsHistory = false;
    int totals = 0;
    for (const QByteArray& row : rows) {
        roadsHistory = roadsHistory || (row.startsWith("render_history,roads,") && row.endsWith(",,30"));
        if (!row.startsWith("render_history,total,")) continue;
        ++totals;
        QVERIFY(row.endsWith(",,42"));
        QVERIFY(std::abs(row.split(',')[2].toDouble()) < 5);  // seconds ago: just now
    }
    QCOMPARE(totals, 1);
    QVERIFY2(roadsHistory, csv.constData());
    QVERIFY2(csv.contains("\ndatabase_history,roads,"), csv.constData());

    QTemporaryDir dir;
    const Status saved = panel.exportCsv(dir.filePath("t.csv"));
    QVERIFY2(saved, qPrintable(saved.message()));
    QCOMPARE(readFile(dir.filePath("t.csv")), csv);
    const Status refused = panel.exportCsv(dir.filePath("missing/t.csv"));
    QVERIFY(!refused);
    QVERIFY(refused.message().contains("missing"));

    // PNG of the Render tab: the bars and the total line stacked, as drawn by QCustomPlot.
    panel.tabs()->setCurrentIndex(0);
    const Status renderPng = panel.exportPng(dir.filePath("render.png"));
    QVERIFY2(renderPng, qPrintable(renderPng.message()));
    const QImage render(dir.filePath("render.png"));
    QCOMPARE(render.width(), panel.layerPlot()->width());
    QCOMPARE(render.height(), panel.layerPlot()->height() + panel.historyPlot()->height());
    bool drawColour = false;  // the "draw" phase's bar fill
    for (int y = 0; y < render.height() && !drawColour; ++y)
        for (int x = 0; x < render.width() && !drawColour; ++x)
            drawColour = QColor(render.pixel(x, y)) == QColor(0xfc, 0x8d, 0x62);
    QVERIFY(drawColour);
    panel.tabs()->setCurrentIndex(1);
    const Status dbSaved = panel.exportPng(dir.filePath("db.png"));
    QVERIFY2(dbSaved, qPrintable(dbSaved.message()));
    const QImage dbPng(dir.filePath("db.png"));
    QCOMPARE(dbPng.height(), panel.dbPlot()->height() + panel.dbHistoryPlot()->height());
}

QTEST_MAIN(TestUiTimings)
#include "test_ui_timings.moc"
