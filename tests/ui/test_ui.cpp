// Workbench tests: the layer model, the canvas' asynchronous render and
// cancellation, live preview diagnostics, atomic saves, autosave recovery.

#include "editor_panel.h"
#include "identify_panel.h"
#include "identify_query.h"
#include "layer_extent.h"
#include "layer_list_model.h"
#include "lut_curve_widget.h"
#include "lut_curves.h"
#include "lut_panel.h"
#include "map_canvas.h"
#include "map_document.h"
#include "server_panel.h"
#include "timings_panel.h"
#include "trace_relay.h"

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/map_renderer.h"

#include <gdal_priv.h>
#include <qcustomplot.h>
#include <httplib.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QWheelEvent>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextCursor>
#include <QTest>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTreeWidget>

#include <thread>

using namespace maptune;

Q_DECLARE_METATYPE(maptune::Rect)

namespace {

// Three inline squares: on, off and default; "blue" only below 1:5000.
const char* const kSquares = R"MAP(MAP
  NAME "squares"
  SIZE 100 100
  EXTENT 0 0 100 100
  IMAGECOLOR 255 255 255
  LAYER
    NAME "red"
    TYPE POLYGON
    STATUS ON
    FEATURE WKT "POLYGON((10 60, 40 60, 40 90, 10 90, 10 60))" END
    CLASS
      STYLE COLOR 255 0 0 END
    END
  END
  LAYER
    NAME "blue"
    TYPE POLYGON
    STATUS OFF
    MAXSCALEDENOM 5000
    FEATURE WKT "POLYGON((60 10, 90 10, 90 40, 60 40, 60 10))" END
    CLASS
      STYLE COLOR 0 0 255 END
    END
  END
  LAYER
    NAME "frame"
    TYPE LINE
    STATUS DEFAULT
    FEATURE WKT "LINESTRING(1 1, 99 1, 99 99, 1 99, 1 1)" END
    CLASS
      STYLE COLOR 0 0 0 WIDTH 2 END
    END
  END
END
)MAP";

MapDefPtr squaresMap()
{
    LoadResult r = parseMapText(kSquares, QString());
    return r.ok() ? MapDefPtr(r.map) : nullptr;
}

QString writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) f.write(bytes);
    return path;
}

LayerTrace layerTrace(const QString& name, double totalMs, bool skipped = false)
{
    LayerTrace t;
    t.layer = name;
    t.totalMs = totalMs;
    t.skipped = skipped;
    return t;
}

// A 4x4 RGB GeoTIFF, every band 100, covering 0 0 4 4 (1 unit pixels).
bool writeFlatRaster(const QString& path)
{
    GDALDriver* gtiff = GetGDALDriverManager()->GetDriverByName("GTiff");
    if (!gtiff) return false;
    GDALDataset* ds = gtiff->Create(path.toUtf8().constData(), 4, 4, 3, GDT_Byte, nullptr);
    if (!ds) return false;
    double gt[6] = {0, 1, 0, 4, 0, -1};
    ds->SetGeoTransform(gt);
    std::vector<unsigned char> values(16, 100);
    bool ok = true;
    for (int b = 1; b <= 3; ++b)
        ok &= ds->GetRasterBand(b)->RasterIO(GF_Write, 0, 0, 4, 4, values.data(), 4, 4, GDT_Byte, 0, 0) == CE_None;
    GDALClose(ds);
    return ok;
}

const char* const kRasterMap = R"MAP(MAP
  NAME "flat"
  SIZE 4 4
  EXTENT 0.5 0.5 3.5 3.5
  LAYER
    NAME "flat"
    TYPE RASTER
    STATUS ON
    DATA "flat.tif"
    PROCESSING "BANDS=1,2,3"
    PROCESSING "LUT=0:0,255:128"
  END
  LAYER
    NAME "plain"
    TYPE RASTER
    STATUS OFF
    DATA "flat.tif"
  END
END
)MAP";

// Two attributed squares under a road along y = 50.
const char* const kParcels = R"MAP(MAP
  NAME "parcels"
  SIZE 100 100
  EXTENT 0 0 100 100
  LAYER
    NAME "parcels"
    TYPE POLYGON
    STATUS ON
    PROCESSING "ITEMS=name,area"
    FEATURE WKT "POLYGON((10 10, 40 10, 40 40, 10 40, 10 10))" ITEMS "alpha;900" END
    FEATURE WKT "POLYGON((50 50, 90 50, 90 90, 50 90, 50 50))" ITEMS "beta;1600" END
    CLASS STYLE COLOR 200 200 200 END END
  END
  LAYER
    NAME "road"
    TYPE LINE
    STATUS ON
    PROCESSING "ITEMS=ref"
    FEATURE WKT "LINESTRING(0 50, 100 50)" ITEMS "main" END
    CLASS STYLE COLOR 0 0 0 END END
  END
END
)MAP";

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestUi : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void layerModelIsSound();
    void layerVisibility();
    void layerScaleRange_data();
    void layerScaleRange();
    void layerTraceTimes();
    void canvasRendersAsynchronously();
    void canvasSecondRequestCancelsFirst();
    void canvasZoomKeepsCursorPoint();
    void canvasHistory();
    void brokenEditKeepsLastGoodMap();
    void saveIsAtomicRoundTrip();
    void autosaveRecovery();
    void lutPoints_data();
    void lutPoints();
    void lutDirectives();
    void lutDragWritesProcessing();
    void lutInsertsProcessingLine();
    void traceRelayQueuesToGuiThread();
    void serverPanelServesAndStops();
    void timingsDbSeries();
    void timingsPercentile_data();
    void timingsPercentile();
    void timingsServedRequests();
    void identifyQuery_data();
    void identifyQuery();
    void identifyPanelShowsAttributes();
    void canvasClickEmitsMapPoint();
    void layerExtentForZoom_data();
    void layerExtentForZoom();
    void includeFilesOpenInTabs();
};

void TestUi::initTestCase()
{
    initEngine();
    QVERIFY(squaresMap() != nullptr);
}

void TestUi::layerModelIsSound()
{
    LayerListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setMap(squaresMap());
    QCOMPARE(model.rowCount(), 3);
    model.setScaleDenominator(1000);
    Trace trace;
    trace.layers.append(layerTrace("red", 2.5));
    model.setTrace(trace);
    model.setData(model.index(1, 0), Qt::Checked, Qt::CheckStateRole);
    model.setMap(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestUi::layerVisibility()
{
    LayerListModel model;
    model.setMap(squaresMap());
    // As the mapfile says: ON and DEFAULT drawn, OFF not.
    QCOMPARE(model.visibleLayers(), QStringList({"red", "frame"}));
    QSignalSpy spy(&model, &LayerListModel::visibilityChanged);
    QVERIFY(model.setData(model.index(1, 0), Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first().first().toStringList(), QStringList({"red", "blue", "frame"}));
    // STATUS DEFAULT cannot be switched off, as in MapServer.
    QVERIFY(!(model.flags(model.index(2, 0)) & Qt::ItemIsUserCheckable));
    QVERIFY(!model.setData(model.index(2, 0), Qt::Unchecked, Qt::CheckStateRole));
    // The user's choice survives a re-parse of the same map.
    model.setMap(squaresMap());
    QCOMPARE(model.visibleLayers(), QStringList({"red", "blue", "frame"}));
    QCOMPARE(model.data(model.index(1, LayerListModel::TypeColumn), Qt::DisplayRole).toString(), QString("polygon"));
    QCOMPARE(model.data(model.index(2, LayerListModel::TypeColumn), Qt::DisplayRole).toString(), QString("line"));
}

void TestUi::layerScaleRange_data()
{
    QTest::addColumn<double>("scale");
    QTest::addColumn<bool>("blueInScale");
    // MapServer draws a layer when scale < MAXSCALEDENOM.
    QTest::newRow("below max") << 4999.0 << true;
    QTest::newRow("at max") << 5000.0 << false;
    QTest::newRow("above max") << 20000.0 << false;
}

void TestUi::layerScaleRange()
{
    QFETCH(double, scale);
    QFETCH(bool, blueInScale);
    LayerListModel model;
    model.setMap(squaresMap());
    model.setScaleDenominator(scale);
    QCOMPARE(model.isInScale(1), blueInScale);
    QVERIFY(model.isInScale(0));
    const QVariant fg = model.data(model.index(1, 0), Qt::ForegroundRole);
    QCOMPARE(fg.isValid(), !blueInScale);
}

void TestUi::layerTraceTimes()
{
    LayerListModel model;
    model.setMap(squaresMap());
    Trace trace;
    trace.layers.append(layerTrace("red", 12.25));
    trace.layers.append(layerTrace("blue", 0, true));
    model.setTrace(trace);
    QCOMPARE(model.data(model.index(0, LayerListModel::TimeColumn), Qt::DisplayRole).toString(), QString("12.3 ms"));
    QCOMPARE(model.data(model.index(1, LayerListModel::TimeColumn), Qt::DisplayRole).toString(), QString());
}

void TestUi::canvasRendersAsynchronously()
{
    MapCanvas canvas;
    canvas.resize(200, 200);
    QSignalSpy finished(&canvas, &MapCanvas::renderFinished);
    canvas.setMap(squaresMap());
    canvas.refresh();
    // refresh() returns at once: the render runs on a worker.
    QVERIFY(canvas.isRendering() || finished.isEmpty());
    QVERIFY(finished.wait(10000));
    const QImage image = canvas.image();
    QCOMPARE(image.size(), QSize(200, 200));
    // The view fits the 100x100 extent into 200x200: the red square's middle
    // (25, 75) is at pixel (50, 50); the blue one is off (STATUS OFF).
    QCOMPARE(QColor(image.pixel(50, 50)), QColor(255, 0, 0));
    QCOMPARE(QColor(image.pixel(150, 150)), QColor(255, 255, 255));
    const auto trace = finished.first().first().value<Trace>();
    QVERIFY(!trace.layers.isEmpty());

    // Switching a layer on re-renders with it.
    canvas.setVisibleLayers({"red", "blue"});
    QVERIFY(finished.wait(10000));
    QCOMPARE(QColor(canvas.image().pixel(150, 150)), QColor(0, 0, 255));
}

void TestUi::canvasSecondRequestCancelsFirst()
{
    MapCanvas canvas;
    canvas.resize(400, 400);
    canvas.setMap(squaresMap());
    QSignalSpy finished(&canvas, &MapCanvas::renderFinished);
    QSignalSpy cancelled(&canvas, &MapCanvas::renderCancelled);
    canvas.refresh();
    canvas.setExtent({50, 0, 100, 50});  // the blue square's quarter only
    canvas.refresh();
    QVERIFY(finished.wait(10000));
    QTest::qWait(50);
    // At least the first job was cancelled (on a loaded machine setExtent's
    // coalesced re-render can cancel the second one too); only one finished.
    QVERIFY(cancelled.count() >= 1);
    QCOMPARE(finished.count(), 1);
    // The image shown is the second view's: frame line at the right edge, no red.
    const QImage image = canvas.image();
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) QVERIFY(QColor(image.pixel(x, y)) != QColor(255, 0, 0));
}

void TestUi::canvasZoomKeepsCursorPoint()
{
    MapCanvas canvas;
    canvas.resize(200, 100);
    canvas.setMap(squaresMap());
    const QPointF pixel(30, 20);
    const QPointF before = canvas.toMap(pixel);
    QWheelEvent wheel(pixel, canvas.mapToGlobal(pixel), {}, {0, 120}, Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&canvas, &wheel);
    const QPointF after = canvas.toMap(pixel);
    QVERIFY(std::abs(after.x() - before.x()) < 1e-9);
    QVERIFY(std::abs(after.y() - before.y()) < 1e-9);
    QVERIFY(canvas.view().unitsPerPixel < 1.0);  // 100 units in 100 px, zoomed in
}

void TestUi::canvasHistory()
{
    MapCanvas canvas;
    canvas.resize(100, 100);
    canvas.setMap(squaresMap());
    const CanvasView full = canvas.view();
    canvas.zoomIn();
    const CanvasView zoomed = canvas.view();
    QVERIFY(canvas.canGoBack());
    canvas.back();
    QCOMPARE(canvas.view(), full);
    QVERIFY(canvas.canGoForward());
    canvas.forward();
    QCOMPARE(canvas.view(), zoomed);
    QVERIFY(!canvas.canGoForward());
}

void TestUi::brokenEditKeepsLastGoodMap()
{
    MapDocument doc;
    QSignalSpy maps(&doc, &MapDocument::mapChanged);
    doc.setText(QString::fromUtf8(kSquares));
    QCOMPARE(maps.count(), 1);
    const MapDefPtr good = doc.lastGoodMap();
    QVERIFY(good);
    QVERIFY(!hasErrors(doc.diagnostics()));

    // Misspell STYLE on line 12 (the red class's style), as a user would type it.
    QSignalSpy diagnostics(&doc, &MapDocument::diagnosticsChanged);
    doc.setPreviewDelay(20);
    QTextCursor c(doc.textDocument()->findBlockByNumber(11));
    const int col = int(c.block().text().indexOf(QLatin1String("STYLE")));
    QVERIFY(col > 0);
    c.setPosition(c.block().position() + col + 3);
    c.insertText(QStringLiteral("E"));  // STYELE
    QVERIFY(diagnostics.wait(2000));  // debounced live preview
    QVERIFY(hasErrors(doc.diagnostics()));
    bool atLine = false;
    for (const Diagnostic& d : doc.diagnostics()) atLine |= d.isError() && d.pos.line == 12;
    QVERIFY2(atLine, "an error points at line 12");
    QCOMPARE(doc.lastGoodMap(), good);
    QCOMPARE(maps.count(), 1);

    // Undo restores the good text: a new good map comes.
    doc.textDocument()->undo();
    QVERIFY(maps.wait(2000));
    QVERIFY(!hasErrors(doc.diagnostics()));
    QVERIFY(doc.lastGoodMap() != good);
}

void TestUi::saveIsAtomicRoundTrip()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("squares.map"), kSquares);
    MapDocument doc;
    QString error;
    QVERIFY2(doc.open(path, &error), qPrintable(error));
    QVERIFY(!doc.isModified());
    QTextCursor c(doc.textDocument());
    c.insertText(QStringLiteral("# edited\n"));
    QVERIFY(doc.isModified());
    QVERIFY2(doc.save(&error), qPrintable(error));
    QVERIFY(!doc.isModified());
    QCOMPARE(readFile(path), QByteArray("# edited\n") + kSquares);
    // QSaveFile leaves no temporary files behind.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList({"squares.map"}));
    // A save into a folder that does not exist fails with a message and keeps the edits.
    c.insertText(QStringLiteral("# more\n"));
    QVERIFY(!doc.saveAs(dir.filePath("missing/x.map"), &error));
    QVERIFY(error.contains("missing"));
    QVERIFY(doc.isModified());
    QCOMPARE(doc.path(), path);
}

void TestUi::autosaveRecovery()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("squares.map"), kSquares);
    {
        MapDocument crashed;
        QVERIFY(crashed.open(path, nullptr));
        QTextCursor c(crashed.textDocument());
        c.insertText(QStringLiteral("# unsaved\n"));
        QVERIFY(crashed.writeAutosave(nullptr));
        // No clean shutdown: the autosave stays.
    }
    QCOMPARE(MapDocument::autosavePath(path), path + ".autosave");
    QVERIFY(MapDocument::hasRecovery(path));
    MapDocument doc;
    QVERIFY(doc.open(path, nullptr));
    QVERIFY(doc.recover(nullptr));
    QVERIFY(doc.isModified());
    QVERIFY(doc.text().startsWith("# unsaved\n"));
    QVERIFY(doc.lastGoodMap());
    // Saving makes the autosave obsolete.
    QVERIFY(doc.save(nullptr));
    QVERIFY(!QFile::exists(path + ".autosave"));
    QVERIFY(!MapDocument::hasRecovery(path));
    // An autosave identical to the file is nothing to recover.
    writeFile(path + ".autosave", readFile(path));
    QVERIFY(!MapDocument::hasRecovery(path));
}

void TestUi::lutPoints_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("normalized");
    QTest::newRow("complete") << "0:0,128:200,255:255" << "0:0,128:200,255:255";
    // MapServer starts at 0:0 and ends with an implicit 255:255: made explicit.
    QTest::newRow("implicit ends") << "64:32,192:224" << "0:0,64:32,192:224,255:255";
    QTest::newRow("unsorted, spaces, newline") << "192:224, 64:32\n0:10" << "0:10,64:32,192:224,255:255";
    QTest::newRow("clamped") << "0:0,300:400" << "0:0,255:255";
}

void TestUi::lutPoints()
{
    QFETCH(QString, text);
    QFETCH(QString, normalized);
    const QList<QPoint> points = LutCurves::parsePoints(text);
    QCOMPARE(LutCurves::pointsText(points), normalized);
    // Normalizing never changes the table MapServer builds (unsorted input aside).
    if (QTest::currentDataTag() != QByteArray("unsorted, spaces, newline")
        && QTest::currentDataTag() != QByteArray("clamped")) {
        const Lut a = Lut::fromPoints(text.toLatin1()), b = Lut::fromPoints(normalized.toLatin1());
        for (int i = 0; i < 256; ++i) QCOMPARE(a[i], b[i]);
    }
}

void TestUi::lutDirectives()
{
    LutCurves curves = LutCurves::fromProcessing({"BANDS=1,2,3", "LUT=0:0,128:200", "LUT_3=0:20,255:235"});
    QCOMPARE(curves.points(LutCurves::Master), QList<QPoint>({{0, 0}, {128, 200}, {255, 255}}));
    QVERIFY(curves.isIdentity(LutCurves::Red));
    QCOMPARE(curves.directives(), QStringList({"LUT=0:0,128:200,255:255", "LUT_3=0:20,255:235"}));
    // LUT_n replaces LUT for its band (MapServer does not compose them).
    QCOMPARE(int(curves.lutForBand(1)[128]), 200);
    QCOMPARE(int(curves.lutForBand(3)[0]), 20);
    curves.setPoints(LutCurves::Master, LutCurves::identity());
    QCOMPARE(curves.directives(), QStringList({"LUT_3=0:20,255:235"}));
    QString note;
    LutCurves::fromProcessing({"LUT=ortho.curves"}, &note);
    QVERIFY(note.contains("ortho.curves"));
    QCOMPARE(replaceLutDirectives({"BANDS=1,2,3", "LUT=1:2", "LUT_1=3:4", "RESAMPLE=NEAREST"}, {"LUT=9:9"}),
             QStringList({"BANDS=1,2,3", "LUT=9:9", "RESAMPLE=NEAREST"}));
}

void TestUi::lutDragWritesProcessing()
{
    QTemporaryDir dir;
    QVERIFY(writeFlatRaster(dir.filePath("flat.tif")));
    const QString path = writeFile(dir.filePath("flat.map"), kRasterMap);
    MapDocument doc;
    QVERIFY(doc.open(path, nullptr));
    QVERIFY2(doc.lastGoodMap(), qPrintable(doc.diagnostics().isEmpty() ? QString() : doc.diagnostics()[0].toString()));
    LutPanel panel(&doc);
    panel.setMap(doc.lastGoodMap());
    QCOMPARE(panel.layerName(), QString("flat"));
    QCOMPARE(panel.curves().points(LutCurves::Master), QList<QPoint>({{0, 0}, {255, 128}}));

    // Reset to identity, then drag a new point from (128,128) up to (128,192).
    panel.applyPreset(QStringLiteral("Identity"));
    LutCurveWidget* curve = panel.curveWidget();
    curve->resize(271, 271);  // a 255-pixel plot: one pixel per value
    QSignalSpy previews(&panel, &LutPanel::previewChanged);
    const QPoint from = curve->toWidget({128, 128}).toPoint();
    const QPoint to = curve->toWidget({128, 192}).toPoint();
    QTest::mousePress(curve, Qt::LeftButton, {}, from);
    QTest::mouseMove(curve, to);
    QTest::mouseRelease(curve, Qt::LeftButton, {}, to);
    QCOMPARE(panel.curves().directives(), QStringList({"LUT=0:0,128:192,255:255"}));
    QVERIFY(previews.count() >= 2);

    // The preview map draws the raster value 100 through the new table:
    // 100 * 192 / 128 = 150 (MapServer's floor(v + 0.5)).
    RenderRequest request;
    request.bbox = Rect{0, 0, 4, 4};
    request.width = 4;
    request.height = 4;
    request.encode = false;
    const RenderResult result = MapRenderer(panel.previewMap()).render(request);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(QColor(result.image.pixel(1, 1)), QColor(150, 150, 150));

    // Written into the text in place of the old LUT line, as one undo step.
    const QString before = doc.text();
    QVERIFY(panel.writeToMapfile());
    QVERIFY(doc.text().contains("    PROCESSING \"BANDS=1,2,3\"\n    PROCESSING \"LUT=0:0,128:192,255:255\"\n  END"));
    QVERIFY(!doc.text().contains("255:128"));
    QVERIFY(doc.compileNow());
    QCOMPARE(doc.lastGoodMap()->layer("flat")->processing, QStringList({"BANDS=1,2,3", "LUT=0:0,128:192,255:255"}));
    doc.textDocument()->undo();
    QCOMPARE(doc.text(), before);
}

void TestUi::lutInsertsProcessingLine()
{
    QTemporaryDir dir;
    QVERIFY(writeFlatRaster(dir.filePath("flat.tif")));
    MapDocument doc;
    doc.setText(QString::fromUtf8(kRasterMap), dir.filePath("flat.map"));
    QVERIFY(doc.lastGoodMap());
    QString error;
    QVERIFY2(writeLutToText(doc.textDocument(), *doc.lastGoodMap(), "plain", {"LUT_2=0:255,255:0"}, &error),
             qPrintable(error));
    QVERIFY(doc.text().contains("    NAME \"plain\"\n    PROCESSING \"LUT_2=0:255,255:0\"\n    TYPE RASTER"));
    // The other layer's LUT is untouched.
    QVERIFY(doc.text().contains("PROCESSING \"LUT=0:0,255:128\""));
    QVERIFY(doc.compileNow());
    QCOMPARE(doc.lastGoodMap()->layer("plain")->processing, QStringList({"LUT_2=0:255,255:0"}));
}

void TestUi::traceRelayQueuesToGuiThread()
{
    TraceRelay relay;
    QSignalSpy spy(&relay, &TraceRelay::traceReady);
    Trace trace;
    trace.totalMs = 7;
    std::thread worker([&] { relay.traceFinished("demo", trace); });
    worker.join();
    QVERIFY(spy.wait(2000) || spy.count() == 1);
    QCOMPARE(spy.first().at(1).value<Trace>().totalMs, 7.0);
}

void TestUi::serverPanelServesAndStops()
{
    QTemporaryDir dir;
    QByteArray served(kSquares);
    served.replace("  IMAGECOLOR", "  WEB METADATA \"wms_enable_request\" \"*\" \"wms_srs\" \"EPSG:3857\" END END\n"
                                   "  PROJECTION \"init=epsg:3857\" END\n  IMAGECOLOR");
    const QString path = writeFile(dir.filePath("squares.map"), served);
    ServerPanel panel;
    QSignalSpy running(&panel, &ServerPanel::runningChanged);
    panel.setMapPath(path);
    panel.setPort(0);
    QString error;
    QVERIFY2(panel.start(&error), qPrintable(error));
    QCOMPARE(running.count(), 1);
    const int port = panel.port();
    QVERIFY(port > 0);
    QCOMPARE(panel.baseUrl(), QStringLiteral("http://127.0.0.1:%1/squares").arg(port));

    httplib::Client client("127.0.0.1", port);
    client.set_connection_timeout(2);
    auto health = client.Get("/health");
    QVERIFY(health);
    QCOMPARE(health->status, 200);
    QCOMPARE(QByteArray::fromStdString(health->body).trimmed(), QByteArray("ok"));

    // The capabilities URL the panel shows answers, and the request is logged.
    const QUrl caps(panel.capabilitiesUrl());
    auto capabilities = client.Get((caps.path() + "?" + caps.query()).toStdString());
    QVERIFY(capabilities);
    QCOMPARE(capabilities->status, 200);
    QVERIFY2(QByteArray::fromStdString(capabilities->body).contains("<Name>red</Name>"), capabilities->body.c_str());
    QTRY_COMPARE(panel.servedCount(), qint64(1));
    QCOMPARE(panel.log()->topLevelItemCount(), 1);
    QCOMPARE(panel.log()->topLevelItem(0)->text(1), QStringLiteral("GetCapabilities"));
    QCOMPARE(panel.log()->topLevelItem(0)->text(2), QStringLiteral("200"));

    // A save on disk is served without a restart (the registry's watcher).
    QByteArray edited(served);
    edited.replace("NAME \"blue\"", "NAME \"navy\"");
    QVERIFY(QFile::remove(path));
    writeFile(path, edited);
    QTRY_VERIFY_WITH_TIMEOUT(QByteArray::fromStdString(
                                 client.Get((caps.path() + "?" + caps.query()).toStdString())->body)
                                 .contains("<Name>navy</Name>"),
                             5000);

    panel.stop();
    QVERIFY(!panel.isRunning());
    QCOMPARE(panel.port(), -1);
    QCOMPARE(running.count(), 2);
    httplib::Client after("127.0.0.1", port);
    after.set_connection_timeout(1);
    QVERIFY(!after.Get("/health"));
}

void TestUi::timingsDbSeries()
{
    TimingsPanel panel;
    Trace trace;
    trace.layers << layerTrace("roads", 30) << layerTrace("water", 5);
    DbTrace first, second;
    first.poolWaitMs = 1;
    first.connectMs = 2;
    first.queryMs = 10;
    first.fetchMs = 4;
    second.poolWaitMs = 0.5;
    second.queryMs = 3;
    second.fetchMs = 1;
    trace.layers[0].db << first << second;
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

void TestUi::timingsPercentile_data()
{
    QTest::addColumn<QList<double>>("values");
    QTest::addColumn<double>("p");
    QTest::addColumn<double>("expected");
    // Nearest rank: the ceil(p/100*n)-th smallest.
    QTest::newRow("empty") << QList<double>{} << 50.0 << 0.0;
    QTest::newRow("one") << QList<double>{7} << 95.0 << 7.0;
    QTest::newRow("p50 of 4") << QList<double>{4, 1, 3, 2} << 50.0 << 2.0;
    QTest::newRow("p95 of 20") << QList<double>{20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
                               << 95.0 << 19.0;
    QTest::newRow("p100") << QList<double>{3, 9, 1} << 100.0 << 9.0;
}

void TestUi::timingsPercentile()
{
    QFETCH(QList<double>, values);
    QFETCH(double, p);
    QFETCH(double, expected);
    QCOMPARE(TimingsPanel::percentile(values, p), expected);
}

void TestUi::timingsServedRequests()
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
    // The window of the newest point holds all four: p50 = 2nd smallest, p95 = largest.
    QCOMPARE(p50->data()->at(last)->value, 20.0);
    QCOMPARE(p95->data()->at(last)->value, 100.0);
}

void TestUi::identifyQuery_data()
{
    QTest::addColumn<QPointF>("point");
    QTest::addColumn<double>("unitsPerPixel");
    QTest::addColumn<QStringList>("expected");  // "layer:first attribute", top layer first
    // The tolerance is 3 px: 3 map units at 1 unit/px, 9 at 3 units/px.
    QTest::newRow("inside alpha") << QPointF(20, 20) << 1.0 << QStringList{"parcels:alpha"};
    QTest::newRow("on the road, inside beta") << QPointF(60, 51) << 1.0 << QStringList{"road:main", "parcels:beta"};
    QTest::newRow("near the road only") << QPointF(20, 52.5) << 1.0 << QStringList{"road:main"};
    QTest::newRow("between everything") << QPointF(45, 45) << 1.0 << QStringList{};
    // 7.07 from both squares' corners, 5 from the road.
    QTest::newRow("wide tolerance") << QPointF(45, 45) << 3.0 << QStringList{"road:main", "parcels:alpha", "parcels:beta"};
}

void TestUi::identifyQuery()
{
    QFETCH(QPointF, point);
    QFETCH(double, unitsPerPixel);
    QFETCH(QStringList, expected);
    LoadResult loaded = parseMapText(kParcels, QString());
    QVERIFY(loaded.ok());
    const IdentifyQuery query(MapDefPtr(loaded.map), {"road", "parcels"}, point, unitsPerPixel);
    QStringList got;
    for (const IdentifyLayerResult& r : query.run()) {
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        for (const Feature& f : r.features) got << r.layer + ":" + f.values.value(0);
    }
    QCOMPARE(got, expected);
}

void TestUi::identifyPanelShowsAttributes()
{
    LoadResult loaded = parseMapText(kParcels, QString());
    QVERIFY(loaded.ok());
    IdentifyPanel panel;
    QSignalSpy done(&panel, &IdentifyPanel::finished);
    panel.identify(MapDefPtr(loaded.map), {"road", "parcels"}, QPointF(70, 70), 1.0);
    QVERIFY(done.wait(5000));
    QCOMPARE(done.first().at(0).toInt(), 1);
    QTreeWidget* tree = panel.tree();
    QCOMPARE(tree->topLevelItemCount(), 1);  // the road is 20 units away
    QTreeWidgetItem* layer = tree->topLevelItem(0);
    QCOMPARE(layer->text(0), QStringLiteral("parcels"));
    QCOMPARE(layer->childCount(), 1);
    QTreeWidgetItem* feature = layer->child(0);
    QCOMPARE(feature->childCount(), 2);
    QCOMPARE(feature->child(0)->text(0), QStringLiteral("name"));
    QCOMPARE(feature->child(0)->text(1), QStringLiteral("beta"));
    QCOMPARE(feature->child(1)->text(0), QStringLiteral("area"));
    QCOMPARE(feature->child(1)->text(1), QStringLiteral("1600"));
}

void TestUi::canvasClickEmitsMapPoint()
{
    MapCanvas canvas;
    canvas.resize(200, 200);
    canvas.setMap(squaresMap());
    QSignalSpy clicks(&canvas, &MapCanvas::clicked);
    QTest::mouseClick(&canvas, Qt::LeftButton, {}, QPoint(50, 150));
    QCOMPARE(clicks.count(), 1);
    // The point under the clicked pixel, in the view before the click (a click never pans).
    const QPointF expected = canvas.toMap(QPointF(50, 150));
    QCOMPARE(clicks.first().at(0).toPointF(), expected);
    QVERIFY(expected.x() > 0 && expected.x() < 50 && expected.y() > 0 && expected.y() < 50);  // lower left quarter
    // A drag pans and is no click.
    QTest::mousePress(&canvas, Qt::LeftButton, {}, QPoint(20, 20));
    QMouseEvent move(QEvent::MouseMove, QPointF(40, 40), canvas.mapToGlobal(QPointF(40, 40)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&canvas, &move);
    QTest::mouseRelease(&canvas, Qt::LeftButton, {}, QPoint(40, 40));
    QCOMPARE(clicks.count(), 1);
}

void TestUi::layerExtentForZoom_data()
{
    QTest::addColumn<QString>("layer");
    QTest::addColumn<Rect>("expected");
    // Feature bounds plus 5% on each side; the flat road borrows its padding from its length.
    QTest::newRow("parcels") << "parcels" << Rect{6, 6, 94, 94};
    QTest::newRow("road") << "road" << Rect{-5, 45, 105, 55};
}

void TestUi::layerExtentForZoom()
{
    QFETCH(QString, layer);
    QFETCH(Rect, expected);
    LoadResult loaded = parseMapText(kParcels, QString());
    QVERIFY(loaded.ok());
    QString error;
    const std::optional<Rect> extent = layerExtentInMapCrs(*loaded.map, *loaded.map->layer(layer), &error);
    QVERIFY2(extent, qPrintable(error));
    QCOMPARE(extent->minx, expected.minx);
    QCOMPARE(extent->miny, expected.miny);
    QCOMPARE(extent->maxx, expected.maxx);
    QCOMPARE(extent->maxy, expected.maxy);
}

void TestUi::includeFilesOpenInTabs()
{
    QTemporaryDir dir;
    const QByteArray layer = "LAYER\n  NAME \"inc\"\n  TYPE POINT\n  STATUS ON\n"
                             "  FEATURE POINTS 5 5 END END\n  CLASS STYLE COLOR 0 0 0 END END\nEND\n";
    writeFile(dir.filePath("layer.inc"), layer);
    const QString path = writeFile(dir.filePath("main.map"),
                                   "MAP\n  NAME \"main\"\n  SIZE 10 10\n  EXTENT 0 0 10 10\n  INCLUDE \"layer.inc\"\nEND\n");
    MapDocument doc;
    EditorPanel panel(&doc);
    QString error;
    QVERIFY2(doc.open(path, &error), qPrintable(error));
    QVERIFY(doc.lastGoodMap());
    QCOMPARE(panel.tabs()->count(), 2);
    QCOMPARE(panel.tabs()->tabText(0), QStringLiteral("main.map"));
    auto* included = qobject_cast<QPlainTextEdit*>(panel.tabs()->widget(1));
    QVERIFY(included);
    QVERIFY(included->isReadOnly());
    QCOMPARE(included->toPlainText(), QString::fromUtf8(layer));
    QCOMPARE(panel.showIncluded(dir.filePath("layer.inc"), 2), included);
    QCOMPARE(panel.tabs()->currentIndex(), 1);
    QCOMPARE(included->textCursor().blockNumber(), 1);
    // An edit that drops the INCLUDE closes its tab.
    doc.textDocument()->setPlainText("MAP\n  NAME \"main\"\n  SIZE 10 10\n  EXTENT 0 0 10 10\nEND\n");
    QVERIFY(doc.compileNow());
    QCOMPARE(panel.tabs()->count(), 1);
}

QTEST_MAIN(TestUi)
#include "test_ui.moc"
