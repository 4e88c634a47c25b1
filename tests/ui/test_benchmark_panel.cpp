// The Benchmark dock against a real embedded WMS on loopback: a small
// interleaved experiment fills the table and the charts, the served requests
// reach the Timings panel, Cancel ends a long run at once, results save as
// JSON/CSV/HTML; "this map" requests the layers the Layers list shows; in the
// main window, the docks and the Benchmark dock brought forward. (The raster
// advisor's tests: test_raster_advisor_panel.cpp.)

#include "benchmark_fixture.h"

#include "benchmark_charts.h"
#include "benchmark_panel.h"
#include "benchmark_results_model.h"
#include "benchmark_settings.h"
#include "benchmark_target_list.h"
#include "layer_list_model.h"
#include "main_window.h"
#include "map_document.h"
#include "raster_advisor_panel.h"
#include "server_panel.h"
#include "timings_panel.h"

#include "render/engine.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace maptune;
using namespace maptune::testing;

namespace {

// MAPTUNE_SCREENSHOT_DIR=DIR (e.g. under Xvfb with QT_QPA_PLATFORM=xcb): the
// main window test runs longer and saves what it shows there as PNG.
QString screenshotDir()
{
    return qEnvironmentVariable("MAPTUNE_SCREENSHOT_DIR");
}

// Unchecks a layer in a Layers view as a user does: the row made current, Space.
bool switchOffLayer(QTreeView* view, const QString& layer)
{
    QAbstractItemModel* model = view->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row, LayerListModel::NameColumn);
        if (index.data().toString() != layer) continue;
        view->setCurrentIndex(index);
        QTest::keyClick(view, Qt::Key_Space);
        return index.data(Qt::CheckStateRole).toInt() == Qt::Unchecked;
    }
    return false;
}

// The LAYERS of the GetMap requests a spy on requestServed saw.
QSet<QString> requestedLayers(const QSignalSpy& served)
{
    QSet<QString> layers;
    for (const QList<QVariant>& args : served) {
        const auto request = args.at(0).value<ServedRequest>();
        if (request.type == QLatin1String("GetMap")) layers << request.layers;
    }
    return layers;
}

}  // namespace

class TestBenchmarkPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void runFillsTableAndCharts();
    void cancelStopsALongRunQuickly();
    void saveResults_data();
    void saveResults();
    void refusesWithoutTargets();
    void requestsTheLayersShown();
    void requestChoicesAreReadable();
    void presetRequestsReachTimings();
    void mainWindowDocks();
    void mainWindowBenchmarksShownLayersAndRaisesDock();
};

void TestBenchmarkPanel::initTestCase()
{
    initEngine();
    QStandardPaths::setTestModeEnabled(true);
}

void TestBenchmarkPanel::runFillsTableAndCharts()
{
    Bench b;
    QVERIFY(b.open());
    const Status started = b.server.start();
    QVERIFY2(started, qPrintable(started.message()));
    b.panel->targets()->addUrl(QStringLiteral("red only"), b.redOnlyTemplate());
    const auto result = b.runToEnd();
    QVERIFY(result);
    QVERIFY2(result->error.isEmpty(), qPrintable(result->error));
    QVERIFY(!result->cancelled);

    // Interleaved: A B A B, 10 measured requests each, all good.
    QCOMPARE(result->runConfig, QList<int>({0, 1, 0, 1}));
    for (const LoadReport& r : result->runs) {
        QCOMPARE(r.ok, qint64(10));
        QCOMPARE(r.errors, qint64(0));
        QVERIFY(r.reqPerMin > 0);
    }
    // The table: both configurations, medians of their two rounds, the baseline's ratio is 1.
    BenchmarkResultsModel* model = b.panel->results();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->index(0, BenchmarkResultsModel::LabelCol).data().toString(), QStringLiteral("this map"));
    QCOMPARE(model->index(1, BenchmarkResultsModel::LabelCol).data().toString(), QStringLiteral("red only"));
    QCOMPARE(model->index(0, BenchmarkResultsModel::RunsCol).data().toInt(), 2);
    QCOMPARE(model->index(0, BenchmarkResultsModel::RatioCol).data().toString(), QStringLiteral("1.00×"));
    QCOMPARE(model->index(1, BenchmarkResultsModel::ErrorsCol).data().toLongLong(), qint64(0));
    for (int row = 0; row < 2; ++row) {
        const ConfigSummary& s = model->summary()[row];
        const double median = (result->runs[row].reqPerMin + result->runs[row + 2].reqPerMin) / 2;
        QVERIFY(qAbs(s.reqPerMin - median) < 1e-6 * median);
        QVERIFY(s.p50Ms && s.p90Ms && s.p99Ms && *s.p50Ms <= *s.p90Ms && *s.p90Ms <= *s.p99Ms);
        QVERIFY(!model->index(row, BenchmarkResultsModel::P90Col).data().toString().isEmpty());
    }
    QVERIFY(model->index(1, BenchmarkResultsModel::RatioCol).data().toString().endsWith(QStringLiteral("×")));

    // Charts: a throughput line and five percentile points per configuration.
    QCustomPlot* rate = b.panel->charts()->throughputPlot();
    QCustomPlot* latency = b.panel->charts()->latencyPlot();
    QCOMPARE(rate->graphCount(), 2);
    QCOMPARE(latency->graphCount(), 2);
    for (int k = 0; k < 2; ++k) {
        QVERIFY(rate->graph(k)->dataCount() > 0);
        QCOMPARE(latency->graph(k)->dataCount(), 5);
        QCOMPARE(latency->graph(k)->data()->at(0)->value, *model->summary()[k].p50Ms);
    }
    QCOMPARE(b.panel->progressBar()->value(), b.panel->progressBar()->maximum());

    // Every request went through the Server panel; the Timings panel got their traces.
    QTRY_VERIFY(b.server.servedCount() >= 40);
    QVERIFY(b.timings.historySize() > 0);
}

void TestBenchmarkPanel::cancelStopsALongRunQuickly()
{
    Bench b;
    QVERIFY(b.open());
    b.panel->settings()->setDurationS(60);
    b.panel->settings()->setRounds(3);
    QSignalSpy done(b.panel.get(), &BenchmarkPanel::finished);
    const Status started = b.panel->run();
    QVERIFY2(started, qPrintable(started.message()));
    QVERIFY(b.panel->isRunning());
    // Let it measure for a moment: the GUI thread stays free (this loop runs) and requests are served.
    QTRY_VERIFY_WITH_TIMEOUT(b.server.servedCount() > 10, 20000);
    QElapsedTimer clock;
    clock.start();
    b.panel->cancel();
    QVERIFY(done.wait(10000));
    QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
    const auto result = done.first().at(0).value<ExperimentResult>();
    QVERIFY(result.cancelled);
    QVERIFY(result.runs.size() <= 1);
    QVERIFY(!b.panel->isRunning());
    QVERIFY(b.panel->statusText().contains(QStringLiteral("Cancelled")));
}

void TestBenchmarkPanel::saveResults_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("json") << "results.json" << QByteArray("\"summary\"");
    QTest::newRow("csv") << "results.csv" << QByteArray("label,req_per_min");
    QTest::newRow("html") << "results.html" << QByteArray("<svg");
}

void TestBenchmarkPanel::saveResults()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, expected);
    Bench b;
    QVERIFY(b.open());
    b.panel->settings()->setRounds(1);
    const QString path = b.dir.filePath(file);
    QVERIFY(!b.panel->saveResults(path));  // nothing run yet
    QVERIFY(!QFile::exists(path));
    QVERIFY(b.runToEnd());
    const Status written = b.panel->saveResults(path);
    QVERIFY2(written, qPrintable(written.message()));
    const QByteArray saved = readFile(path);
    QVERIFY2(saved.contains(expected), saved.left(200).constData());
    QVERIFY(saved.contains("this map"));
    if (file.endsWith(QLatin1String(".json"))) {
        const QJsonObject json = QJsonDocument::fromJson(saved).object();
        QCOMPARE(json.value("summary").toArray().size(), 1);
        QCOMPARE(json.value("runs").toArray().size(), 1);
        QCOMPARE(json.value("runs").toArray().first().toObject().value("ok").toInt(), 10);
    }
    if (file.endsWith(QLatin1String(".csv"))) {
        QCOMPARE(saved.count('\n'), 2);  // header and one configuration
        QVERIFY(readFile(b.dir.filePath("results-runs.csv")).startsWith("run,round,config"));
    }
}

void TestBenchmarkPanel::refusesWithoutTargets()
{
    Bench b;
    QVERIFY(b.open());
    b.panel->targets()->setEmbeddedChecked(false);
    const Status refused = b.panel->run();
    QVERIFY(!refused);
    QVERIFY2(refused.message().contains(QStringLiteral("target")), qPrintable(refused.message()));
    QVERIFY(!b.panel->isRunning());
    QVERIFY(!b.server.isRunning());
}

void TestBenchmarkPanel::requestsTheLayersShown()
{
    // A Layers list as the main window has it: the document's maps go to the model.
    Bench b;
    QVERIFY(b.open());
    b.panel->settings()->setRounds(1);
    LayerListModel layers;
    QObject::connect(&b.document, &MapDocument::mapChanged, &layers, [&layers](MapDefPtr map) { layers.setMap(map); });
    layers.setMap(b.document.lastGoodMap());
    QTreeView view;
    view.setModel(&layers);
    view.show();
    b.panel->setLayerList(&layers);
    QCOMPARE(b.panel->requestedLayers(), QStringList({"red", "frame"}));
    QCOMPARE(b.panel->requestedLayersText(), QStringLiteral("Requests the 2 layers shown on the map: red, frame"));

    // Switched off in the list: not requested, and the panel says so.
    QVERIFY(switchOffLayer(&view, QStringLiteral("red")));
    QCOMPARE(b.panel->requestedLayers(), QStringList({"frame"}));
    QVERIFY2(b.panel->requestedLayersText().startsWith(QStringLiteral("Requests the layer shown on the map: frame")),
             qPrintable(b.panel->requestedLayersText()));
    QVERIFY(b.panel->requestedLayersText().contains(QStringLiteral("switched-off red")));
    QSignalSpy served(&b.server, &ServerPanel::requestServed);
    const auto result = b.runToEnd();
    QVERIFY(result);
    QVERIFY2(result->error.isEmpty(), qPrintable(result->error));
    QTRY_VERIFY(served.count() >= 10);
    QCOMPARE(requestedLayers(served), QSet<QString>({"frame"}));

    // A layer added in the text is shown (STATUS ON) and requested; red stays off.
    QString text = b.document.text();
    text.replace(QStringLiteral("  LAYER\n    NAME \"frame\""),
                 QStringLiteral("  LAYER\n    NAME \"blue\"\n    TYPE POLYGON\n    STATUS ON\n"
                                "    FEATURE WKT \"POLYGON((500 100, 900 100, 900 400, 500 100))\" END\n"
                                "    CLASS STYLE COLOR 0 0 255 END END\n  END\n  LAYER\n    NAME \"frame\""));
    b.document.setText(text, b.document.path());
    QVERIFY(b.document.compileNow());
    QCOMPARE(b.panel->requestedLayers(), QStringList({"blue", "frame"}));
    QVERIFY(b.panel->requestedLayersText().startsWith(QStringLiteral("Requests the 2 layers shown on the map: blue, frame")));

    // Nothing shown: Run refuses with a hint instead of benchmarking every layer.
    QVERIFY(switchOffLayer(&view, QStringLiteral("blue")));
    QVERIFY(switchOffLayer(&view, QStringLiteral("frame")));
    const Status refused = b.panel->run();
    QVERIFY(!refused);
    QVERIFY2(refused.message().contains(QStringLiteral("Layers list")), qPrintable(refused.message()));
    QVERIFY(b.panel->statusText().contains(QStringLiteral("No layer is shown")));
}

void TestBenchmarkPanel::requestChoicesAreReadable()
{
    // The "Requests" row names what a user recognises, not the benchmark kit's keys.
    BenchmarkPanel panel(nullptr, nullptr);
    QComboBox* areas = panel.settings()->areaCombo();
    QCOMPARE(areas->count(), 5);
    for (int i = 0; i < areas->count(); ++i) {
        const QString text = areas->itemText(i);
        QVERIFY2(!text.contains(QStringLiteral("shared/")) && !text.contains(QStringLiteral("preset")), qPrintable(text));
        QVERIFY2(!areas->itemData(i, Qt::ToolTipRole).toString().isEmpty(), qPrintable(text));
    }
    QVERIFY(areas->itemText(int(BenchmarkSettings::Area::PresetRaster)).contains(QStringLiteral("orthophoto")));
    QVERIFY(areas->itemText(int(BenchmarkSettings::Area::PresetRoads)).contains(QStringLiteral("roads")));
}

void TestBenchmarkPanel::presetRequestsReachTimings()
{
    // LUT on vs off on a small raster: the variants are served by the panel's
    // own embedded server, not the Server panel; their traces still reach Timings.
    Bench b;
    QVERIFY(writeStripedTiff(b.dir.filePath("striped.tif"), 256));
    QByteArray text(kStripedRasterMap);
    text.replace("DATA \"striped.tif\"", "DATA \"striped.tif\"\n    PROCESSING \"LUT=0:0,255:128\"");
    QVERIFY(b.open(text));
    b.panel->setPreset(PresetKind::Lut, QStringLiteral("ortho"));
    QSignalSpy served(b.panel.get(), &BenchmarkPanel::requestServed);
    const auto result = b.runToEnd();
    QVERIFY(result);
    QVERIFY2(result->error.isEmpty(), qPrintable(result->error));
    QCOMPARE(result->summary.size(), 2);
    QCOMPARE(result->runs.size(), 4);
    for (const LoadReport& r : result->runs) QCOMPARE(r.ok, qint64(10));
    QVERIFY(!b.server.isRunning());

    // 2 configurations x 2 rounds x 10 measured requests at least (plus warm-ups),
    // each one's trace in the render history (a bar per second in which
    // requests finished), the raster layer's time in every bar.
    QTRY_VERIFY(served.count() >= 40);
    QTest::qWait(200);  // anything still queued
    const int count = int(served.count());
    QCOMPARE(b.timings.historySize(), count);
    QSet<qint64> seconds;
    for (const QList<QVariant>& args : std::as_const(served)) {
        const auto request = args.at(0).value<ServedRequest>();
        QCOMPARE(request.type, QStringLiteral("GetMap"));
        QCOMPARE(request.status, 200);
        QVERIFY(request.trace.has_value());
        seconds << request.finishedMs / 1000;
    }
    QCOMPARE(b.timings.historyLayers(), QStringList({"ortho"}));
    b.timings.replotHistory(QDateTime::currentMSecsSinceEpoch());  // what the tick does
    const QCPBars* ortho = b.timings.layerHistory(QStringLiteral("ortho"));
    QCOMPARE(ortho->data()->size(), seconds.size());
    for (auto it = ortho->data()->constBegin(); it != ortho->data()->constEnd(); ++it) QVERIFY(it->value > 0);

    // After the run the variants' server is gone: nothing more arrives.
    QTest::qWait(300);
    QCOMPARE(int(served.count()), count);
}


void TestBenchmarkPanel::mainWindowDocks()
{
    QTemporaryDir dir;
    const QString tiff = dir.filePath("striped.tif");
    QVERIFY(writeStripedTiff(tiff, 2048));
    QByteArray text(kStripedRasterMap);
    text.replace("END\nEND", "END\n" + QByteArray(kSquares).mid(QByteArray(kSquares).indexOf("  LAYER")));
    const QString path = writeFile(dir.filePath("ortho.map"), text);
    MainWindow window;
    QVERIFY(window.openFile(path));
    QVERIFY(window.benchmarkPanel());
    QVERIFY(window.rasterAdvisorPanel());
    QVERIFY(window.raiseDock(QStringLiteral("rasterAdvisor")));
    QVERIFY(window.raiseDock(QStringLiteral("benchmark")));
    QTRY_COMPARE(window.rasterAdvisorPanel()->reports().size(), 1);

    // "This map" is served by the Server dock: its log and the Timings dock see the benchmark.
    BenchmarkPanel* panel = window.benchmarkPanel();
    BenchmarkSettings* s = panel->settings();
    const bool shots = !screenshotDir().isEmpty();
    s->setConcurrency(2);
    shots ? s->setDurationS(3) : s->setRequestCount(10);
    s->setRounds(shots ? 3 : 1);
    s->setImageSize(256, 256);
    if (shots) {
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.serverPanel()->setPort(0);
        QVERIFY(window.serverPanel()->start());
        panel->targets()->addUrl(QStringLiteral("ortho only"),
                                 window.serverPanel()->baseUrl()
                                     + "?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=ortho&STYLES=&SRS=EPSG:3857"
                                       "&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=image/png");
    }
    window.serverPanel()->setPort(0);
    QSignalSpy done(panel, &BenchmarkPanel::finished);
    const Status started = panel->run();
    QVERIFY2(started, qPrintable(started.message()));
    if (shots) {
        QTest::qWait(8000);  // mid-run: live charts, progress, Timings under load
        window.grab().save(screenshotDir() + "/benchmark-running.png");
    }
    QVERIFY(done.wait(120000));
    QVERIFY(window.serverPanel()->isRunning());
    QVERIFY(window.serverPanel()->servedCount() >= 10);
    QVERIFY(window.timingsPanel()->historySize() > 0);
    if (shots) {
        QTest::qWait(500);
        window.grab().save(screenshotDir() + "/benchmark.png");
        window.raiseDock(QStringLiteral("rasterAdvisor"));
        window.rasterAdvisorPanel()->selectFile(QStringLiteral("ortho"), tiff);
        QTest::qWait(300);
        window.grab().save(screenshotDir() + "/advisor.png");
    }
}

void TestBenchmarkPanel::mainWindowBenchmarksShownLayersAndRaisesDock()
{
    QTemporaryDir dir;
    const QString tiff = dir.filePath("striped.tif");
    QVERIFY(writeStripedTiff(tiff, 2048));
    QByteArray text(kStripedRasterMap);
    text.replace("END\nEND", "END\n" + QByteArray(kSquares).mid(QByteArray(kSquares).indexOf("  LAYER")));
    MainWindow window;
    QVERIFY(window.openFile(writeFile(dir.filePath("ortho.map"), text)));
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    BenchmarkPanel* panel = window.benchmarkPanel();
    RasterAdvisorPanel* advisor = window.rasterAdvisorPanel();
    BenchmarkSettings* s = panel->settings();
    s->setConcurrency(2);
    s->setRequestCount(10);
    s->setRounds(1);
    s->setImageSize(64, 64);
    s->setWarmup(2);
    window.serverPanel()->setPort(0);

    // The Layers dock's check boxes decide what "this map" requests.
    QTreeView* layersView = nullptr;
    for (QTreeView* v : window.findChildren<QTreeView*>())
        if (v->model() == window.layerModel()) layersView = v;
    QVERIFY(layersView);
    QVERIFY(window.raiseDock(QStringLiteral("layers")));
    QVERIFY(switchOffLayer(layersView, QStringLiteral("red")));
    QCOMPARE(panel->requestedLayers(), QStringList({"ortho", "frame"}));
    QVERIFY(panel->requestedLayersText().startsWith(QStringLiteral("Requests the 2 layers shown on the map: ortho, frame")));

    // The advisor's re-run brings the Benchmark dock to the front.
    QVERIFY(window.raiseDock(QStringLiteral("rasterAdvisor")));
    QTRY_COMPARE(advisor->reports().size(), 1);
    // A tab behind another stays "visible" to Qt: what is on screen is its visible region.
    QTRY_VERIFY(!advisor->visibleRegion().isEmpty());
    QVERIFY(panel->visibleRegion().isEmpty());
    QVERIFY(advisor->selectFile(QStringLiteral("ortho"), tiff));
    QSignalSpy built(advisor, &RasterAdvisorPanel::actionFinished);
    QVERIFY(advisor->actionButton(RasterAction::BuildOverviews)->isEnabled());
    QTest::mouseClick(advisor->actionButton(RasterAction::BuildOverviews), Qt::LeftButton);
    QVERIFY(built.wait(60000));
    QVERIFY(advisor->rerunButton()->isVisible());
    QSignalSpy served(window.serverPanel(), &ServerPanel::requestServed);
    QSignalSpy done(panel, &BenchmarkPanel::finished);
    QTest::mouseClick(advisor->rerunButton(), Qt::LeftButton);
    QVERIFY(panel->isRunning());
    QTRY_VERIFY(!panel->visibleRegion().isEmpty());
    QVERIFY(advisor->visibleRegion().isEmpty());
    QVERIFY(done.wait(60000));
    QVERIFY2(done.first().at(0).value<ExperimentResult>().error.isEmpty(),
             qPrintable(done.first().at(0).value<ExperimentResult>().error));
    QTRY_VERIFY(served.count() >= 10);
    QCOMPARE(requestedLayers(served), QSet<QString>({"ortho,frame"}));
}

QTEST_MAIN(TestBenchmarkPanel)
#include "test_benchmark_panel.moc"
