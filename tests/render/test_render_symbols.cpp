// MapRenderer's markers and symbols: CIRCLE layers, ellipse rings, markers
// along lines (GAP), POLAROFFSET.

#include "render_test_maps.h"
#include "render/engine.h"

#include <QtTest>

using namespace maptune;
using namespace maptune::rendertest;

class TestRenderSymbols : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void circleLayerUsesBoundingBox()
    {
        // TYPE CIRCLE: the two points are opposite corners of the bounding box:
        // centre (40, 40), radius 20 map units = 20 px.
        auto m = baseMap();
        LayerDef l = polygonLayer("c", {}, Color::rgb(0, 0, 0));
        l.type = LayerType::Circle;
        l.features[0].wkt.clear();
        l.features[0].parts = {{{20, 20}, {60, 60}}};
        m->layers << l;
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        // map (40, 40) is pixel (39.5, 59.5), snapped to (40, 60) as MapServer does.
        QCOMPARE(pixel(r, 40, 60), qRgb(0, 0, 0));
        QCOMPARE(pixel(r, 55, 60), qRgb(0, 0, 0));          // 15 px east: inside
        QCOMPARE(pixel(r, 40, 46), qRgb(0, 0, 0));          // 14 px north: inside
        QCOMPARE(pixel(r, 65, 60), qRgb(255, 255, 255));    // 25 px east: outside
        QCOMPARE(pixel(r, 56, 44), qRgb(255, 255, 255));    // 22.6 px diagonal: outside
        QCOMPARE(pixel(r, 21, 77), qRgb(255, 255, 255));    // corner of the bounding square
    }

    void unfilledEllipseSymbolIsARing()
    {
        // An unfilled ELLIPSE symbol of SIZE 8 is a 1 px ring of radius 4
        // stroked in COLOR; AGG puts a vertex at angle 0, 4 px east.
        auto m = baseMap();
        m->symbols << ellipseSymbol("circle", false);
        // Pixel (50.5, 50.5): the centre of pixel (50, 50).
        m->layers << featureLayer(LayerType::Point, {"POINT(51 49)"}, {symbolStyle("circle", 8, Color::rgb(0, 0, 0))});
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(pixel(r, 50, 50), qRgb(255, 255, 255));    // hollow
        QVERIFY(qRed(pixel(r, 54, 50)) < 100);              // the ring, east
        QVERIFY(qRed(pixel(r, 46, 50)) < 160);              // the ring, west
        QCOMPARE(pixel(r, 57, 50), qRgb(255, 255, 255));    // outside
    }

    void negativeGapAlignsMarkersWithLine_data()
    {
        QTest::addColumn<double>("gap");
        QTest::addColumn<bool>("vertical");
        QTest::newRow("negative: follows the line") << -40.0 << true;
        QTest::newRow("positive: device x axis") << 40.0 << false;
    }

    void negativeGapAlignsMarkersWithLine()
    {
        // A 10 x 2 bar symbol every 40 px along a line running north; the first
        // marker sits gap/2 = 20 px from the start, at pixel (50.5, 69.5).
        QFETCH(double, gap);
        QFETCH(bool, vertical);
        auto m = baseMap();
        SymbolDef bar;
        bar.name = "bar";
        bar.type = SymbolType::Vector;
        bar.filled = true;
        bar.points = {{0, 0}, {10, 0}, {10, 2}, {0, 2}, {0, 0}};
        m->symbols << bar;
        StyleDef st = symbolStyle("bar", 2, Color::rgb(0, 0, 0));
        st.gap = gap;
        m->layers << lineLayer({"LINESTRING(51 10, 51 90)"}, {st});
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QRgb white = qRgb(255, 255, 255), black = qRgb(0, 0, 0);
        QCOMPARE(pixel(r, 50, 66), vertical ? black : white);
        QCOMPARE(pixel(r, 54, 69), vertical ? white : black);
    }

    void polarOffsetMovesMarker_data()
    {
        QTest::addColumn<double>("angle");
        QTest::addColumn<QPoint>("at");
        // POLAROFFSET r a: r px in direction a, counter-clockwise from east.
        QTest::newRow("north") << 90.0 << QPoint(50, 30);
        QTest::newRow("east") << 0.0 << QPoint(70, 50);
        QTest::newRow("south-west") << 225.0 << QPoint(36, 64);
    }

    void polarOffsetMovesMarker()
    {
        QFETCH(double, angle);
        QFETCH(QPoint, at);
        auto m = baseMap();
        m->symbols << ellipseSymbol("dot", true);
        StyleDef st = symbolStyle("dot", 6, Color::rgb(255, 0, 0));
        st.polarOffsetRadius.value = 20;
        st.polarOffsetAngle.value = angle;
        m->layers << featureLayer(LayerType::Point, {"POINT(51 49)"}, {st});  // centre of pixel (50, 50)
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(pixel(r, at.x(), at.y()), qRgb(255, 0, 0));
        QCOMPARE(pixel(r, 50, 50), qRgb(255, 255, 255));
    }
};

QTEST_MAIN(TestRenderSymbols)
#include "test_render_symbols.moc"
