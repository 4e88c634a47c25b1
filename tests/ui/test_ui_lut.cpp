// Workbench tests: the LUT editor: point lists, PROCESSING directives, dragging a control
// point, writing the LUT back into the mapfile text.

#include "ui_test_support.h"

#include "lut_curve_widget.h"
#include "raster/lut_curves.h"
#include "lut_panel.h"
#include "map_canvas.h"
#include "map_document.h"

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/map_renderer.h"

#include <QApplication>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace maptune;
using namespace maptune::testing;

class TestUiLut : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void lutPoints_data();
    void lutPoints();
    void lutDirectives();
    void lutDragWritesProcessing();
    void lutInsertsProcessingLine();
    void gimpCurvesRoundTrip_data();
    void gimpCurvesRoundTrip();
    void gimpCurvesFileFormat();
    void splitShowsLayerWithoutAndWithLut();
};

Q_DECLARE_METATYPE(maptune::LutCurves)

namespace {

LutCurves curvesOf(const QList<QPoint>& master, const QList<QPoint>& red = LutCurves::identity())
{
    LutCurves c;
    c.setPoints(LutCurves::Master, master);
    c.setPoints(LutCurves::Red, red);
    return c;
}

// kRasterMap, unsaved, in `dir` beside its raster; true when it gave a map.
bool openRasterMap(MapDocument* doc, const QString& dir)
{
    if (!writeFlatRaster(dir + "/flat.tif")) return false;
    doc->setText(QString::fromUtf8(kRasterMap), dir + "/flat.map");
    return doc->lastGoodMap() != nullptr;
}

// GIMP 2.x's untouched curve: ends in slots 0 and 16, the 15 slots between unused.
QByteArray gimpIdentityLine()
{
    return "0 0 " + QByteArray("-1 -1 ").repeated(15) + "255 255 \n";
}

}  // namespace

void TestUiLut::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // the panel keeps its split switch in QSettings
    QSettings().clear();
    initEngine();
}

void TestUiLut::lutPoints_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("normalized");
    QTest::newRow("complete") << "0:0,128:200,255:255" << "0:0,128:200,255:255";
    // MapServer starts at 0:0 and ends with an implicit 255:255: made explicit.
    QTest::newRow("implicit ends") << "64:32,192:224" << "0:0,64:32,192:224,255:255";
    QTest::newRow("unsorted, spaces, newline") << "192:224, 64:32\n0:10" << "0:10,64:32,192:224,255:255";
    QTest::newRow("clamped") << "0:0,300:400" << "0:0,255:255";
}

void TestUiLut::lutPoints()
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

void TestUiLut::lutDirectives()
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

void TestUiLut::lutDragWritesProcessing()
{
    QTemporaryDir dir;
    QVERIFY(writeFlatRaster(dir.filePath("flat.tif")));
    const QString path = writeFile(dir.filePath("flat.map"), kRasterMap);
    MapDocument doc;
    QVERIFY(doc.open(path));
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

void TestUiLut::lutInsertsProcessingLine()
{
    QTemporaryDir dir;
    MapDocument doc;
    QVERIFY(openRasterMap(&doc, dir.path()));
    const Status written = writeLutToText(doc.textDocument(), *doc.lastGoodMap(), "plain", {"LUT_2=0:255,255:0"});
    QVERIFY2(written, qPrintable(written.message()));
    QVERIFY(doc.text().contains("    NAME \"plain\"\n    PROCESSING \"LUT_2=0:255,255:0\"\n    TYPE RASTER"));
    // The other layer's LUT is untouched.
    QVERIFY(doc.text().contains("PROCESSING \"LUT=0:0,255:128\""));
    QVERIFY(doc.compileNow());
    QCOMPARE(doc.lastGoodMap()->layer("plain")->processing, QStringList({"LUT_2=0:255,255:0"}));
}

void TestUiLut::gimpCurvesRoundTrip_data()
{
    QTest::addColumn<LutCurves>("curves");
    QTest::newRow("identity") << LutCurves();
    QTest::newRow("master") << curvesOf({{0, 0}, {64, 32}, {192, 224}, {255, 255}});
    QTest::newRow("inverted") << curvesOf({{0, 255}, {255, 0}});
    QTest::newRow("off the ends") << curvesOf({{0, 40}, {128, 128}, {255, 200}});
    // LUT_1 replaces the master for red; green and blue keep the master.
    QTest::newRow("band and master") << curvesOf({{0, 0}, {128, 200}, {255, 255}}, {{0, 20}, {255, 235}});
    QList<QPoint> seventeen;
    for (int i = 0; i < 17; ++i) seventeen << QPoint(i * 255 / 16, (i % 2) ? 255 - i * 255 / 16 : i * 255 / 16);
    QTest::newRow("17 points") << curvesOf(seventeen);
}

void TestUiLut::gimpCurvesRoundTrip()
{
    QFETCH(LutCurves, curves);
    const Result<QByteArray> written = curves.toGimpCurves();
    QVERIFY2(written, qPrintable(written.message()));
    const QByteArray file = *written;
    QVERIFY(!file.isEmpty());
    const QList<QByteArray> lines = file.split('\n');
    QCOMPARE(lines.size(), 7);  // header, value, R, G, B, A, and the final newline's empty rest
    QCOMPARE(lines[0], QByteArray("# GIMP Curves File"));
    QCOMPARE(lines[5] + '\n', gimpIdentityLine());  // alpha untouched
    // MapServer's reader builds the same table for every output band as the editor's curves.
    for (int band = 1; band <= 3; ++band) {
        const Result<Lut> read = Lut::fromGimpCurves(file, band);
        QVERIFY2(read, qPrintable(read.message()));
        const Lut expected = curves.lutForBand(band);
        for (int v = 0; v < 256; ++v) QCOMPARE((*read)[v], expected[v]);
    }
    // And the editor reads the file back to the same tables.
    const Result<LutCurves> back = LutCurves::fromGimpCurves(file);
    QVERIFY2(back, qPrintable(back.message()));
    for (int band = 1; band <= 3; ++band)
        for (int v = 0; v < 256; ++v) QCOMPARE(back->lutForBand(band)[v], curves.lutForBand(band)[v]);
}

void TestUiLut::gimpCurvesFileFormat()
{
    // Untouched curves are GIMP's own default file, byte for byte.
    QCOMPARE(LutCurves().toGimpCurves().valueOr({}), "# GIMP Curves File\n" + gimpIdentityLine().repeated(5));
    // The ends stay in slots 0 and 16; the point between goes to the middle slot.
    const QByteArray file = curvesOf({{0, 0}, {128, 64}, {255, 255}}).toGimpCurves().valueOr({});
    QCOMPARE(file.split('\n').value(1),
             "0 0 " + QByteArray("-1 -1 ").repeated(7) + "128 64 " + QByteArray("-1 -1 ").repeated(7) + "255 255 ");
    // More points than a GIMP curve holds: refused with a message.
    QList<QPoint> many;
    for (int i = 0; i < 18; ++i) many << QPoint(i * 15, i * 15);
    const Result<QByteArray> tooMany = curvesOf(many).toGimpCurves();
    QVERIFY(!tooMany);
    QVERIFY(tooMany.message().contains("17"));
    // A file that curves both the value and a channel composes them: no LUT/LUT_n equivalent.
    QByteArray both = LutCurves().toGimpCurves().valueOr({});
    both.replace(both.indexOf("0 0 "), 4, "0 9 ");                      // value line
    both.replace(both.indexOf("0 0 ", both.indexOf("0 9 ") + 4), 4, "0 7 "); // red line
    QVERIFY(!LutCurves::fromGimpCurves(both));
    const Result<LutCurves> truncated = LutCurves::fromGimpCurves("# GIMP Curves File\n0 0 255 255\n");
    QVERIFY(!truncated);
    QVERIFY(truncated.message().contains("GIMP"));
    // Through the panel: export to a file, import it back.
    QTemporaryDir dir;
    MapDocument doc;
    QVERIFY(openRasterMap(&doc, dir.path()));
    LutPanel panel(&doc);
    panel.setMap(doc.lastGoodMap());
    QCOMPARE(panel.curves().directives(), QStringList({"LUT=0:0,255:128"}));
    const Status exported = panel.exportGimpCurves(dir.filePath("flat.curves"));
    QVERIFY2(exported, qPrintable(exported.message()));
    QVERIFY(Lut::isGimpCurves(readFile(dir.filePath("flat.curves"))));
    panel.applyPreset(QStringLiteral("Identity"));
    const Status imported = panel.importGimpCurves(dir.filePath("flat.curves"));
    QVERIFY2(imported, qPrintable(imported.message()));
    QCOMPARE(panel.curves().directives(), QStringList({"LUT=0:0,255:128"}));
}

void TestUiLut::splitShowsLayerWithoutAndWithLut()
{
    QTemporaryDir dir;
    MapDocument doc;
    QVERIFY(openRasterMap(&doc, dir.path()));
    LutPanel panel(&doc);
    MapCanvas canvas;
    QObject::connect(&panel, &LutPanel::compareChanged, &canvas, &MapCanvas::setCompareMap);
    canvas.resize(200, 200);
    canvas.show();
    QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    QSignalSpy finished(&canvas, &MapCanvas::renderFinished);
    canvas.setMap(doc.lastGoodMap());
    panel.setMap(doc.lastGoodMap());
    QVERIFY(!canvas.compareMap());
    panel.setCompareEnabled(true);
    QVERIFY(canvas.compareMap());
    QVERIFY(!canvas.compareMap()->layer("flat")->processing.join(",").contains("LUT"));
    QTRY_VERIFY_WITH_TIMEOUT(!canvas.compareImage().isNull(), 10000);

    // Raster value 100: as is left of the divider, through LUT=0:0,255:128 right of it
    // (100 * 128 / 255 = 50.2, MapServer's floor(v + 0.5) = 50).
    const auto grey = [&](int x) { return QColor(canvas.grab().toImage().pixel(x, 150)); };
    QCOMPARE(canvas.splitPosition(), 0.5);
    QCOMPARE(grey(20), QColor(100, 100, 100));
    QCOMPARE(grey(180), QColor(50, 50, 50));

    // Dragging the divider moves the split and does not pan the map.
    const CanvasView view = canvas.view();
    QSignalSpy moved(&canvas, &MapCanvas::splitMoved);
    QTest::mousePress(&canvas, Qt::LeftButton, {}, QPoint(100, 150));
    QMouseEvent move(QEvent::MouseMove, QPointF(40, 150), canvas.mapToGlobal(QPointF(40, 150)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&canvas, &move);
    QTest::mouseRelease(&canvas, Qt::LeftButton, {}, QPoint(40, 150));
    QVERIFY(moved.count() >= 1);
    QCOMPARE(canvas.splitPosition(), 0.2);
    QCOMPARE(canvas.view(), view);
    QCOMPARE(grey(20), QColor(100, 100, 100));
    QCOMPARE(grey(60), QColor(50, 50, 50));

    // Off: the whole canvas shows the LUT.
    panel.setCompareEnabled(false);
    QVERIFY(!canvas.compareMap());
    QCOMPARE(grey(20), QColor(50, 50, 50));
}

QTEST_MAIN(TestUiLut)
#include "test_ui_lut.moc"
