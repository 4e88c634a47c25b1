// The Benchmark and raster advisor docks against a real embedded WMS on
// loopback: a small interleaved experiment fills the table and the charts,
// the served requests reach the Timings panel, Cancel ends a long run at
// once, results save as JSON/CSV/HTML; the advisor lists a striped GeoTIFF
// with the right advice and really builds its overviews.

#include "benchmark_charts.h"
#include "benchmark_panel.h"
#include "benchmark_results_model.h"
#include "benchmark_settings.h"
#include "benchmark_target_list.h"
#include "main_window.h"
#include "map_document.h"
#include "raster_advisor_panel.h"
#include "server_panel.h"
#include "timings_panel.h"

#include "render/engine.h"

#include <gdal_priv.h>
#include <qcustomplot.h>

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressBar>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace maptune;

namespace {

// Squares in Web Mercator metres, served over WMS.
const char* const kSquares = R"MAP(MAP
  NAME "squares"
  SIZE 100 100
  EXTENT 0 0 1000 1000
  IMAGECOLOR 255 255 255
  PROJECTION "init=epsg:3857" END
  WEB METADATA "wms_enable_request" "*" "wms_srs" "EPSG:3857" END END
  LAYER
    NAME "red"
    TYPE POLYGON
    STATUS ON
    FEATURE WKT "POLYGON((100 600, 400 600, 400 900, 100 900, 100 600))" END
    CLASS STYLE COLOR 255 0 0 END END
  END
  LAYER
    NAME "frame"
    TYPE LINE
    STATUS ON
    FEATURE WKT "LINESTRING(10 10, 990 10, 990 990, 10 990, 10 10)" END
    CLASS STYLE COLOR 0 0 0 WIDTH 2 END END
  END
END
)MAP";

// A raster layer over a 2048 px square GeoTIFF in Web Mercator metres.
const char* const kRasterMap = R"MAP(MAP
  NAME "ortho"
  SIZE 256 256
  EXTENT 0 0 2048 2048
  PROJECTION "init=epsg:3857" END
  WEB METADATA "wms_enable_request" "*" "wms_srs" "EPSG:3857" END END
  LAYER
    NAME "ortho"
    TYPE RASTER
    STATUS ON
    DATA "striped.tif"
  END
END
)MAP";

// GDAL's default GeoTIFF: strips, no compression, no overviews (the "before" of the field reports).
bool writeStripedTiff(const QString& path, int size)
{
    GDALDriver* gtiff = GetGDALDriverManager()->GetDriverByName("GTiff");
    if (!gtiff) return false;
    GDALDataset* ds = gtiff->Create(path.toUtf8().constData(), size, size, 1, GDT_Byte, nullptr);
    if (!ds) return false;
    double gt[6] = {0, 1, 0, double(size), 0, -1};
    ds->SetGeoTransform(gt);
    ds->SetProjection("EPSG:3857");
    std::vector<unsigned char> row(size);
    bool ok = true;
    for (int y = 0; y < size && ok; ++y) {
        for (int x = 0; x < size; ++x) row[x] = static_cast<unsigned char>((x ^ y) & 0xff);
        ok = ds->GetRasterBand(1)->RasterIO(GF_Write, 0, y, size, 1, row.data(), size, 1, GDT_Byte, 0, 0) == CE_None;
    }
    GDALClose(ds);
    return ok;
}

int overviewCount(const QString& path)
{
    GDALDataset* ds = GDALDataset::Open(path.toUtf8().constData(), GDAL_OF_RASTER | GDAL_OF_READONLY);
    if (!ds) return -1;
    const int n = ds->GetRasterBand(1)->GetOverviewCount();
    GDALClose(ds);
    return n;
}

QString writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) f.write(bytes);
    return path;
}

// MAPTUNE_SCREENSHOT_DIR=DIR (e.g. under Xvfb with QT_QPA_PLATFORM=xcb): the
// main window test runs longer and saves what it shows there as PNG.
QString screenshotDir()
{
    return qEnvironmentVariable("MAPTUNE_SCREENSHOT_DIR");
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A served map, a document on it, the Server panel and the Benchmark panel, wired as the main window does.
struct Bench {
    QTemporaryDir dir;
    MapDocument document;
    ServerPanel server;
    TimingsPanel timings;
    std::unique_ptr<BenchmarkPanel> panel;

    bool open(const QByteArray& mapText = kSquares)
    {
        const QString path = writeFile(dir.filePath("squares.map"), mapText);
        if (!document.open(path)) return false;
        server.setPort(0);
        server.setMapPath(path);
        QObject::connect(&server, &ServerPanel::requestServed, &timings, &TimingsPanel::addServedRequest);
        panel = std::make_unique<BenchmarkPanel>(&document, &server);
        QObject::connect(panel.get(), &BenchmarkPanel::requestServed, &timings, &TimingsPanel::addServedRequest);
        panel->setWorkDir(dir.filePath("work"));
        BenchmarkSettings* s = panel->settings();
        s->setConcurrency(2);
        s->setRequestCount(10);
        s->setRounds(2);
        s->setImageSize(64, 64);
        s->setWarmup(2);
        return true;
    }
    // The same server, only the red layer: a second configuration for an A/B run.
    QString redOnlyTemplate() const
    {
        return server.baseUrl() + QStringLiteral("?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=red&STYLES="
                                                 "&SRS=EPSG:3857&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=image/png");
    }
    // Runs to the end; the finished result.
    std::optional<ExperimentResult> runToEnd(int timeoutMs = 60000)
    {
        QSignalSpy done(panel.get(), &BenchmarkPanel::finished);
        if (const Status started = panel->run(); !started) {
            qWarning("run: %s", qPrintable(started.message()));
            return std::nullopt;
        }
        if (!done.wait(timeoutMs)) return std::nullopt;
        return done.first().at(0).value<ExperimentResult>();
    }
};

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
    void presetRequestsReachTimings();
    void advisorListsStripedTiff();
    void advisorBuildsOverviews();
    void advisorConversionOffersComparison();
    void mainWindowDocks();
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

void TestBenchmarkPanel::presetRequestsReachTimings()
{
    // LUT on vs off on a small raster: the variants are served by the panel's
    // own embedded server, not the Server panel; their traces still reach Timings.
    Bench b;
    QVERIFY(writeStripedTiff(b.dir.filePath("striped.tif"), 256));
    QByteArray text(kRasterMap);
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

namespace {

// The raster map opened in a Bench, with an advisor that has inspected it.
struct Advised {
    Bench bench;
    std::unique_ptr<RasterAdvisorPanel> advisor;
    QString tiff;

    bool open()
    {
        tiff = bench.dir.filePath("striped.tif");
        if (!writeStripedTiff(tiff, 2048) || !bench.open(kRasterMap)) return false;
        bench.panel->settings()->setRounds(1);
        advisor = std::make_unique<RasterAdvisorPanel>(&bench.document, bench.panel.get());
        QSignalSpy inspected(advisor.get(), &RasterAdvisorPanel::inspected);
        return !advisor->reports().isEmpty() || inspected.wait(10000);
    }
    QTreeWidgetItem* fileItem() const
    {
        QTreeWidget* tree = advisor->tree();
        return tree->topLevelItemCount() == 1 && tree->topLevelItem(0)->childCount() > 0 ? tree->topLevelItem(0)->child(0)
                                                                                          : nullptr;
    }
    std::optional<RasterJobResult> applyAndWait(RasterAction action)
    {
        QSignalSpy done(advisor.get(), &RasterAdvisorPanel::actionFinished);
        QSignalSpy inspected(advisor.get(), &RasterAdvisorPanel::inspected);
        if (!advisor->selectFile(QStringLiteral("ortho"), tiff) || !advisor->apply(action)) return std::nullopt;
        if (!done.wait(60000)) return std::nullopt;
        if (!inspected.wait(10000)) return std::nullopt;  // the panel looks at the files again
        return done.first().at(0).value<RasterJobResult>();
    }
};

}  // namespace

void TestBenchmarkPanel::advisorListsStripedTiff()
{
    Advised a;
    QVERIFY(a.open());
    QCOMPARE(a.advisor->reports().size(), 1);
    const LayerRasterReport& report = a.advisor->reports().first();
    QCOMPARE(report.layer, QStringLiteral("ortho"));
    QCOMPARE(report.files.size(), 1);
    QVERIFY(!report.files.first().tiled);
    QCOMPARE(report.files.first().overviews, 0);

    // The tree: the layer, its file with its layout, and advice that offers the fixes.
    QTreeWidget* tree = a.advisor->tree();
    QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("ortho"));
    QTreeWidgetItem* file = a.fileItem();
    QVERIFY(file);
    QCOMPARE(file->text(0), QStringLiteral("striped.tif"));
    QCOMPARE(file->text(1), QStringLiteral("GTiff"));
    QCOMPARE(file->text(2), QStringLiteral("2048×2048×1 Byte"));
    QVERIFY2(file->text(3).startsWith(QStringLiteral("strips 2048×")), qPrintable(file->text(3)));
    QCOMPARE(file->text(4), QStringLiteral("none"));
    QVERIFY(file->childCount() >= 1);
    bool warned = false;
    for (const RasterAdvice& advice : report.advice)
        warned |= advice.level == AdviceLevel::Warning && advice.actions.contains(RasterAction::BuildOverviews);
    QVERIFY(warned);

    // Nothing selected: no action; the file selected: the fixes its advice names.
    QVERIFY(!a.advisor->actionButton(RasterAction::BuildOverviews)->isEnabled());
    QVERIFY(a.advisor->selectFile(QStringLiteral("ortho"), a.tiff));
    QVERIFY(a.advisor->actionButton(RasterAction::BuildOverviews)->isEnabled());
    QVERIFY(a.advisor->detailsText().contains(report.advice.first().message.toHtmlEscaped()));
    QVERIFY(a.advisor->actionButton(RasterAction::ConvertToTiledGeoTiff)->isEnabled()
            || a.advisor->actionButton(RasterAction::ConvertToCog)->isEnabled());
}

void TestBenchmarkPanel::advisorBuildsOverviews()
{
    Advised a;
    QVERIFY(a.open());
    QCOMPARE(overviewCount(a.tiff), 0);
    const auto result = a.applyAndWait(RasterAction::BuildOverviews);
    QVERIFY(result);
    QVERIFY2(result->ok, qPrintable(result->error));
    // Read back with GDAL: 2048 down to 256 pixels is 2, 4, 8.
    QCOMPARE(overviewCount(a.tiff), 3);
    QCOMPARE(a.advisor->reports().first().files.first().overviews, 3);
    QCOMPARE(a.fileItem()->text(4), QStringLiteral("3"));
    QCOMPARE(a.advisor->progressBar()->value(), a.advisor->progressBar()->maximum());
    QVERIFY(!a.advisor->rerunButton()->isHidden());

    // The offer: the benchmark again, compared with the run before.
    QSignalSpy done(a.bench.panel.get(), &BenchmarkPanel::finished);
    const Status rerun = a.advisor->rerunBenchmark();
    QVERIFY2(rerun, qPrintable(rerun.message()));
    QVERIFY(done.wait(60000));
    QCOMPARE(done.first().at(0).value<ExperimentResult>().runs.first().ok, qint64(10));
}

void TestBenchmarkPanel::advisorConversionOffersComparison()
{
    Advised a;
    QVERIFY(a.open());
    const auto result = a.applyAndWait(RasterAction::ConvertToTiledGeoTiff);
    QVERIFY(result);
    QVERIFY2(result->ok, qPrintable(result->error));
    QVERIFY(result->path != a.tiff);
    QCOMPARE(overviewCount(a.tiff), 0);  // the source is never written
    QVERIFY(overviewCount(result->path) > 0);

    // Re-run: the map as it is against a copy that reads the tiled file, interleaved.
    QSignalSpy done(a.bench.panel.get(), &BenchmarkPanel::finished);
    const Status rerun = a.advisor->rerunBenchmark();
    QVERIFY2(rerun, qPrintable(rerun.message()));
    QVERIFY(done.wait(60000));
    const auto experiment = done.first().at(0).value<ExperimentResult>();
    QVERIFY2(experiment.error.isEmpty(), qPrintable(experiment.error));
    QCOMPARE(experiment.summary.size(), 2);
    QCOMPARE(experiment.summary[1].label, QStringLiteral("tiled GeoTIFF"));
    for (const LoadReport& r : experiment.runs) QCOMPARE(r.ok, qint64(10));
    QCOMPARE(a.bench.panel->results()->rowCount(), 2);
    QVERIFY(experiment.summary[1].ratioToBaseline.has_value());
}

void TestBenchmarkPanel::mainWindowDocks()
{
    QTemporaryDir dir;
    const QString tiff = dir.filePath("striped.tif");
    QVERIFY(writeStripedTiff(tiff, 2048));
    QByteArray text(kRasterMap);
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

QTEST_MAIN(TestBenchmarkPanel)
#include "test_benchmark_panel.moc"
