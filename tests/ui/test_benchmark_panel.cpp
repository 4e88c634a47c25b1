// The Benchmark and raster advisor docks against a real embedded WMS on
// loopback: a small interleaved experiment fills the table and the charts,
// the served requests reach the Timings panel, Cancel ends a long run at
// once, results save as JSON/CSV/HTML; "this map" requests the layers the
// Layers list shows; the advisor lists a striped GeoTIFF with the right
// advice, really builds its overviews, asks where a conversion goes, points
// the layer at it in the editor's text and brings the Benchmark dock forward.

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

#include <gdal_priv.h>
#include <qcustomplot.h>

#include <QComboBox>
#include <QDateTime>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressBar>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QTreeView>
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
    void requestsTheLayersShown();
    void requestChoicesAreReadable();
    void presetRequestsReachTimings();
    void advisorListsStripedTiff();
    void advisorBuildsOverviews();
    void advisorConversionOffersComparison();
    void advisorAsksWhereToWrite();
    void advisorPointsLayerAtNewFile();
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
    QStringList suggested;   // what the advisor proposed to write
    QString chosen;          // the answer to "where to write": empty is the suggestion

    bool open()
    {
        tiff = bench.dir.filePath("striped.tif");
        if (!writeStripedTiff(tiff, 2048) || !bench.open(kRasterMap)) return false;
        bench.panel->settings()->setRounds(1);
        advisor = std::make_unique<RasterAdvisorPanel>(&bench.document, bench.panel.get());
        advisor->setOutputPathChooser([this](const QString& path) {
            suggested << path;
            return chosen.isEmpty() ? path : chosen;
        });
        QSignalSpy inspected(advisor.get(), &RasterAdvisorPanel::inspected);
        return !advisor->reports().isEmpty() || inspected.wait(10000);
    }
    QTreeWidgetItem* fileItem() const
    {
        QTreeWidget* tree = advisor->tree();
        return tree->topLevelItemCount() == 1 && tree->topLevelItem(0)->childCount() > 0 ? tree->topLevelItem(0)->child(0)
                                                                                          : nullptr;
    }
    // The action by its button, as a user starts it.
    std::optional<RasterJobResult> applyAndWait(RasterAction action)
    {
        QSignalSpy done(advisor.get(), &RasterAdvisorPanel::actionFinished);
        QSignalSpy inspected(advisor.get(), &RasterAdvisorPanel::inspected);
        QPushButton* button = advisor->actionButton(action);
        if (!advisor->selectFile(QStringLiteral("ortho"), tiff) || !button->isEnabled()) return std::nullopt;
        QTest::mouseClick(button, Qt::LeftButton);
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

void TestBenchmarkPanel::advisorAsksWhereToWrite()
{
    Advised a;
    QVERIFY(a.open());
    const RasterAction convert = a.advisor->actionButton(RasterAction::ConvertToTiledGeoTiff)->isEnabled()
                                     ? RasterAction::ConvertToTiledGeoTiff
                                     : RasterAction::ConvertToCog;
    const QString tag = convert == RasterAction::ConvertToCog ? QStringLiteral("cog") : QStringLiteral("tiled");
    const QString defaultPath = a.bench.dir.filePath(QStringLiteral("striped-%1.tif").arg(tag));

    // Declined: nothing runs, nothing is written.
    QVERIFY(a.advisor->selectFile(QStringLiteral("ortho"), a.tiff));
    a.advisor->setOutputPathChooser([&](const QString& path) {
        a.suggested << path;
        return QString();
    });
    QSignalSpy done(a.advisor.get(), &RasterAdvisorPanel::actionFinished);
    QTest::mouseClick(a.advisor->actionButton(convert), Qt::LeftButton);
    QCOMPARE(a.suggested, QStringList({defaultPath}));  // proposed in the data folder, under the usual name
    QVERIFY(!a.advisor->isBusy());
    QTest::qWait(200);
    QCOMPARE(done.count(), 0);
    QVERIFY(!QFile::exists(defaultPath));
    QVERIFY(a.advisor->statusText().contains(QStringLiteral("Not converted")));

    // Chosen elsewhere: written there only.
    a.suggested.clear();
    a.advisor->setOutputPathChooser([&](const QString& path) {
        a.suggested << path;
        return a.bench.dir.filePath(QStringLiteral("fast/ortho-fast.tif"));
    });
    const auto result = a.applyAndWait(convert);
    QVERIFY(result);
    QVERIFY2(result->ok, qPrintable(result->error));
    QCOMPARE(a.suggested.size(), 1);
    QCOMPARE(result->path, a.bench.dir.filePath(QStringLiteral("fast/ortho-fast.tif")));
    QVERIFY(overviewCount(result->path) > 0);
    QVERIFY(!QFile::exists(defaultPath));
    QCOMPARE(overviewCount(a.tiff), 0);
}

void TestBenchmarkPanel::advisorPointsLayerAtNewFile()
{
    Advised a;
    a.chosen = QStringLiteral("converted/striped-tiled.tif");
    QVERIFY(a.open());
    a.chosen = a.bench.dir.filePath(a.chosen);
    QVERIFY(!a.advisor->pointLayerButton()->isVisible());
    const QByteArray onDisk = readFile(a.bench.document.path());
    const QString before = a.bench.document.text();
    const auto result = a.applyAndWait(RasterAction::ConvertToTiledGeoTiff);
    QVERIFY(result);
    QVERIFY2(result->ok, qPrintable(result->error));
    QCOMPARE(result->path, a.chosen);
    QVERIFY(!a.advisor->pointLayerButton()->isHidden());

    // The offer edits the editor's text: DATA names the new file relative to the map; the file on disk is untouched.
    QTest::mouseClick(a.advisor->pointLayerButton(), Qt::LeftButton);
    QVERIFY2(a.bench.document.text().contains(QStringLiteral("DATA \"converted/striped-tiled.tif\"")),
             qPrintable(a.bench.document.text()));
    QVERIFY(!a.bench.document.text().contains(QStringLiteral("\"striped.tif\"")));
    QCOMPARE(a.bench.document.lastGoodMap()->layer(QStringLiteral("ortho"))->data, QStringLiteral("converted/striped-tiled.tif"));
    QVERIFY(a.bench.document.isModified());
    QCOMPARE(readFile(a.bench.document.path()), onDisk);
    QVERIFY(a.advisor->pointLayerButton()->isHidden());
    QVERIFY(a.advisor->statusText().contains(QStringLiteral("now reads")));

    // Re-run after pointing: the file before against the new one (not the new one against itself).
    QSignalSpy done(a.bench.panel.get(), &BenchmarkPanel::finished);
    QSignalSpy raise(a.advisor.get(), &RasterAdvisorPanel::showBenchmarkRequested);
    QVERIFY(!a.advisor->rerunButton()->isHidden());
    QTest::mouseClick(a.advisor->rerunButton(), Qt::LeftButton);
    QCOMPARE(raise.count(), 1);
    QVERIFY(done.wait(60000));
    const auto experiment = done.first().at(0).value<ExperimentResult>();
    QVERIFY2(experiment.error.isEmpty(), qPrintable(experiment.error));
    QCOMPARE(experiment.summary.size(), 2);
    QCOMPARE(experiment.summary[0].label, QStringLiteral("before"));
    QCOMPARE(experiment.summary[1].label, QStringLiteral("tiled GeoTIFF"));

    // One undo step brings the text back.
    QVERIFY(a.bench.document.textDocument()->isUndoAvailable());
    a.bench.document.textDocument()->undo();
    QCOMPARE(a.bench.document.text(), before);
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

void TestBenchmarkPanel::mainWindowBenchmarksShownLayersAndRaisesDock()
{
    QTemporaryDir dir;
    const QString tiff = dir.filePath("striped.tif");
    QVERIFY(writeStripedTiff(tiff, 2048));
    QByteArray text(kRasterMap);
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
