// Workbench tests: the layer list model, the canvas' asynchronous render and cancellation,
// view history, clicks, identify and zoom to layer.

#include "ui_test_support.h"

#include "identify_panel.h"
#include "render/identify_query.h"
#include "render/layer_extent.h"
#include "layer_list_model.h"
#include "map_canvas.h"
#include "trace_relay.h"

#include "mapfile/map_loader.h"
#include "render/engine.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>
#include <QWheelEvent>

#include <thread>

Q_DECLARE_METATYPE(maptune::Rect)

using namespace maptune;
using namespace maptune::testing;

class TestUiCanvas : public QObject {
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
    void canvasClickEmitsMapPoint();
    void identifyQuery_data();
    void identifyQuery();
    void identifyHonoursLayerTolerance_data();
    void identifyHonoursLayerTolerance();
    void identifyPanelShowsAttributes();
    void layerExtentForZoom_data();
    void layerExtentForZoom();
    void traceRelayQueuesToGuiThread();
};

void TestUiCanvas::initTestCase()
{
    initEngine();
    QVERIFY(squaresMap() != nullptr);
}

void TestUiCanvas::layerModelIsSound()
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

void TestUiCanvas::layerVisibility()
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

void TestUiCanvas::layerScaleRange_data()
{
    QTest::addColumn<double>("scale");
    QTest::addColumn<bool>("blueInScale");
    // MapServer draws a layer when scale < MAXSCALEDENOM.
    QTest::newRow("below max") << 4999.0 << true;
    QTest::newRow("at max") << 5000.0 << false;
    QTest::newRow("above max") << 20000.0 << false;
}

void TestUiCanvas::layerScaleRange()
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

void TestUiCanvas::layerTraceTimes()
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

void TestUiCanvas::canvasRendersAsynchronously()
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

void TestUiCanvas::canvasSecondRequestCancelsFirst()
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

void TestUiCanvas::canvasZoomKeepsCursorPoint()
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

void TestUiCanvas::canvasHistory()
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

void TestUiCanvas::canvasClickEmitsMapPoint()
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

void TestUiCanvas::identifyQuery_data()
{
    QTest::addColumn<QPointF>("point");
    QTest::addColumn<double>("unitsPerPixel");
    QTest::addColumn<QStringList>("expected");  // "layer:first attribute", top layer first
    // GetFeatureInfo's rule (MapServer's): TOLERANCE defaults to 3 px for
    // points and lines -- 3 map units at 1 unit/px, 9 at 3 units/px -- and to
    // 0 for polygons, which a click finds by being inside.
    QTest::newRow("inside alpha") << QPointF(20, 20) << 1.0 << QStringList{"parcels:alpha"};
    QTest::newRow("on the road, inside beta") << QPointF(60, 51) << 1.0 << QStringList{"road:main", "parcels:beta"};
    QTest::newRow("near the road only") << QPointF(20, 52.5) << 1.0 << QStringList{"road:main"};
    QTest::newRow("between everything") << QPointF(45, 45) << 1.0 << QStringList{};
    // 7.07 from both squares' corners, 5 from the road.
    QTest::newRow("wide tolerance") << QPointF(45, 45) << 3.0 << QStringList{"road:main"};
}

void TestUiCanvas::identifyQuery()
{
    QFETCH(QPointF, point);
    QFETCH(double, unitsPerPixel);
    QFETCH(QStringList, expected);
    LoadResult loaded = parseMapText(kParcels, QString());
    QVERIFY(loaded.ok());
    const IdentifyQuery query(PreparedMap::prepare(loaded.map), {"road", "parcels"}, point, unitsPerPixel);
    QStringList got;
    for (const IdentifyLayerResult& r : query.run()) {
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        for (const Feature& f : r.features) got << r.layer + ":" + f.values.value(0);
    }
    QCOMPARE(got, expected);
}

// The layer's own TOLERANCE and TOLERANCEUNITS decide, as in GetFeatureInfo.
void TestUiCanvas::identifyHonoursLayerTolerance_data()
{
    QTest::addColumn<double>("tolerance");
    QTest::addColumn<QString>("units");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("5 px: both corners are 7.07 away") << 5.0 << "PIXELS" << QStringList{};
    QTest::newRow("8 px") << 8.0 << "PIXELS" << QStringList{"parcels:alpha", "parcels:beta"};
    QTest::newRow("4 px at 2 units/px") << 4.0 << "" << QStringList{"parcels:alpha", "parcels:beta"};
    QTest::newRow("7 map units") << 7.0 << "meters" << QStringList{};
    QTest::newRow("7.5 map units") << 7.5 << "meters" << QStringList{"parcels:alpha", "parcels:beta"};
}

void TestUiCanvas::identifyHonoursLayerTolerance()
{
    QFETCH(double, tolerance);
    QFETCH(QString, units);
    QFETCH(QStringList, expected);
    LoadResult loaded = parseMapText(kParcels, QString());
    QVERIFY(loaded.ok());
    for (LayerDef& l : loaded.map->layers) {
        if (l.name != QLatin1String("parcels")) continue;
        l.tolerance = tolerance;
        l.toleranceUnits = units;
    }
    const double unitsPerPixel = units.isEmpty() ? 2.0 : 1.0;
    const IdentifyQuery query(PreparedMap::prepare(loaded.map), {"parcels"}, QPointF(45, 45), unitsPerPixel);
    QStringList got;
    for (const IdentifyLayerResult& r : query.run())
        for (const Feature& f : r.features) got << r.layer + ":" + f.values.value(0);
    QCOMPARE(got, expected);
}

void TestUiCanvas::identifyPanelShowsAttributes()
{
    LoadResult loaded = parseMapText(kParcels, QString());
    QVERIFY(loaded.ok());
    IdentifyPanel panel;
    QSignalSpy done(&panel, &IdentifyPanel::finished);
    panel.identify(PreparedMap::prepare(loaded.map), {"road", "parcels"}, QPointF(70, 70), 1.0);
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

void TestUiCanvas::layerExtentForZoom_data()
{
    QTest::addColumn<QString>("layer");
    QTest::addColumn<Rect>("expected");
    // Feature bounds plus 5% on each side; the flat road borrows its padding from its length.
    QTest::newRow("parcels") << "parcels" << Rect{6, 6, 94, 94};
    QTest::newRow("road") << "road" << Rect{-5, 45, 105, 55};
}

void TestUiCanvas::layerExtentForZoom()
{
    QFETCH(QString, layer);
    QFETCH(Rect, expected);
    LoadResult loaded = parseMapText(kParcels, QString());
    QVERIFY(loaded.ok());
    const Result<std::optional<Rect>> found = layerExtentInMapCrs(*loaded.map, *loaded.map->layer(layer), EngineContext());
    QVERIFY2(found, qPrintable(found.message()));
    const std::optional<Rect> extent = *found;
    QVERIFY(extent);
    QCOMPARE(extent->minx, expected.minx);
    QCOMPARE(extent->miny, expected.miny);
    QCOMPARE(extent->maxx, expected.maxx);
    QCOMPARE(extent->maxy, expected.maxy);
}

void TestUiCanvas::traceRelayQueuesToGuiThread()
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

QTEST_MAIN(TestUiCanvas)
#include "test_ui_canvas.moc"
