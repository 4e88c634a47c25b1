// MapRenderer's LINE layers: style passes, row bands on two threads,
// hairline coverage, vertex thinning, perpendicular offsets, lines cut at
// a projection's edge.

#include "render_test_maps.h"
#include "render/engine.h"
#include "render/render_load.h"

#include <QtTest>

using namespace maptune;
using namespace maptune::rendertest;

class TestRenderLines : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void lineStylesDrawInPasses()
    {
        // Two crossing roads with a wide black casing and a thin yellow fill:
        // drawn in passes, the crossing is yellow (no casing over the fill).
        auto m = baseMap();
        m->layers << lineLayer({"LINESTRING(0 50, 100 50)", "LINESTRING(50 0, 50 100)"},
                               {lineStyle(Color::rgb(0, 0, 0), 9), lineStyle(Color::rgb(255, 255, 0), 5)});
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(pixel(r, 50, 50), qRgb(255, 255, 0));   // the crossing
        QCOMPARE(pixel(r, 20, 50), qRgb(255, 255, 0));   // fill of the horizontal road
        QCOMPARE(pixel(r, 20, 46), qRgb(0, 0, 0));       // its casing, 4 px above
    }

    void linesDrawnInBandsMatchOneThread()
    {
        // Enough casing+fill lines for the renderer to split the canvas into
        // two row bands on two threads when it runs alone; with a second
        // render counted as running it draws on one thread. Same pixels.
        auto m = baseMap();
        QStringList wkts;
        for (int i = 0; i < 300; ++i) {
            const double y0 = (i * 37) % 100, y1 = (i * 53) % 100;
            wkts << QStringLiteral("LINESTRING(-5 %1, 40 %2, 105 %3)").arg(y0).arg((y0 + y1) / 2 + 3).arg(y1);
        }
        StyleDef fill = lineStyle(Color::rgb(250, 200, 120), 2.5);
        fill.pattern = {6, 2};
        m->layers << lineLayer(wkts, {lineStyle(Color::rgb(90, 30, 30), 4.5), fill});
        const RenderResult banded = MapRenderer(m).render({});
        QVERIFY2(banded.ok(), qPrintable(banded.error));
        RenderResult single;
        {
            const RenderLoad::Scope another(RenderLoad::Scope::Kind::Elsewhere);  // as if a second request were rendering
            single = MapRenderer(m).render({});
        }
        QVERIFY2(single.ok(), qPrintable(single.error));
        QCOMPARE(banded.image, single.image);
        QVERIFY(banded.image.pixel(50, 50) != qRgb(255, 255, 255) || banded.image.pixel(20, 20) != qRgb(255, 255, 255));
    }

    void boundStylesReadEachFeaturesValues()
    {
        // STYLE COLOR [tint] WIDTH [w]: each line in its own colour and width,
        // in bands on two threads and on one.
        auto m = baseMap();
        StyleDef bound;
        bound.color.attribute = QStringLiteral("tint");
        bound.width.attribute = QStringLiteral("w");
        LayerDef l = lineLayer({"LINESTRING(0 20, 100 20)", "LINESTRING(0 50, 100 50)", "LINESTRING(0 80, 100 80)"}, {bound});
        l.processing = {"ITEMS=tint,w"};
        const QStringList rows{"255 0 0;3", "0 0 255;7", "0 160 0;3"};
        for (int i = 0; i < rows.size(); ++i) l.features[i].items = rows[i];
        m->layers << l;
        const RenderResult banded = MapRenderer(m).render({});
        QVERIFY2(banded.ok(), qPrintable(banded.error));
        // Rows from the top: the lines' centres at 79.5, 49.5 and 19.5.
        QCOMPARE(pixel(banded, 50, 80), qRgb(255, 0, 0));
        QCOMPARE(pixel(banded, 50, 50), qRgb(0, 0, 255));
        QCOMPARE(pixel(banded, 50, 46), qRgb(0, 0, 255));        // 7 px wide: rows 46..52
        QCOMPARE(pixel(banded, 50, 20), qRgb(0, 160, 0));
        QCOMPARE(pixel(banded, 50, 17), qRgb(255, 255, 255));    // 3 px wide: rows 18..20
        RenderResult single;
        {
            const RenderLoad::Scope another(RenderLoad::Scope::Kind::Elsewhere);
            single = MapRenderer(m).render({});
        }
        QVERIFY2(single.ok(), qPrintable(single.error));
        QCOMPARE(single.image, banded.image);
    }

    // A WMS request holds a scope from its arrival and its render another,
    // on the worker that adopted it: one request counts once; one on
    // another thread counts too.

    void hairlineHasExactCoverage()
    {
        // A 1 px black line along pixel y 50.0 covers rows 49 and 50 by half
        // each, as AGG's area-coverage rasteriser draws it.
        auto m = baseMap();
        m->layers << lineLayer({"LINESTRING(10 49.5, 90 49.5)"}, {lineStyle(Color::rgb(0, 0, 0), 1)});
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        for (int y : {49, 50}) {
            const int v = qRed(pixel(r, 50, y));
            QVERIFY2(v >= 120 && v <= 135, qPrintable(QString("row %1: %2").arg(y).arg(v)));
        }
        QCOMPARE(pixel(r, 50, 48), qRgb(255, 255, 255));
        QCOMPARE(pixel(r, 50, 51), qRgb(255, 255, 255));
    }

    void dropsVerticesWithinAPixel()
    {
        // MapServer's AGG path drops a vertex less than 1 px from the previous
        // kept one: the dip to pixel y 50.8 vanishes and the line stays on
        // y 50.0, leaving row 51 untouched.
        auto m = baseMap();
        m->layers << lineLayer({"LINESTRING(10 49.5, 50 49.5, 50.5 48.7, 90 49.5)"}, {lineStyle(Color::rgb(0, 0, 0), 1)});
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(pixel(r, 50, 51), qRgb(255, 255, 255));
        QCOMPARE(pixel(r, 49, 51), qRgb(255, 255, 255));
        QVERIFY(qRed(pixel(r, 50, 50)) < 140);
    }

    void perpendicularLineOffset_data()
    {
        QTest::addColumn<double>("offsetX");
        QTest::addColumn<double>("offsetY");
        QTest::addColumn<QList<int>>("inkRows");   // rows around which the line lies
        QTest::addColumn<QList<int>>("blankRows");
        // The line runs east along pixel y 50.0. OFFSET x -99: one curve x px
        // to the right of the direction of travel (south on screen); -999:
        // two curves at +-x/2; otherwise a plain translation.
        QTest::newRow("single sided") << 10.0 << -99.0 << QList<int>{59, 60} << QList<int>{49, 50, 40};
        QTest::newRow("single sided, left") << -10.0 << -99.0 << QList<int>{39, 40} << QList<int>{49, 50, 60};
        QTest::newRow("double sided") << 20.0 << -999.0 << QList<int>{39, 40, 59, 60} << QList<int>{49, 50};
        QTest::newRow("translation") << 0.0 << 5.0 << QList<int>{54, 55} << QList<int>{49, 50};
    }

    void perpendicularLineOffset()
    {
        QFETCH(double, offsetX);
        QFETCH(double, offsetY);
        QFETCH(QList<int>, inkRows);
        QFETCH(QList<int>, blankRows);
        auto m = baseMap();
        StyleDef st = lineStyle(Color::rgb(0, 0, 0), 1);
        st.offsetX.value = offsetX;
        st.offsetY.value = offsetY;
        m->layers << lineLayer({"LINESTRING(10 49.5, 90 49.5)"}, {st});
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        for (int y : inkRows) QVERIFY2(qRed(pixel(r, 50, y)) < 140, qPrintable(QString("row %1").arg(y)));
        for (int y : blankRows) QCOMPARE(pixel(r, 50, y), qRgb(255, 255, 255));
    }

    void reprojectedLineStopsAtDomainEdge()
    {
        // An equator line from lon 0 to lon 120 on an orthographic globe: the
        // far part does not project. As MapServer does, the line ends on the
        // horizon (lon 90, x = 6378137 m, pixel x 95.06) instead of vanishing
        // with the vertex beyond it.
        auto m = baseMap();
        m->extent = {-6930000, -6930000, 6930000, 6930000};  // 140 km pixels, edges at +-7000 km
        m->projection.args = QStringList{"+proj=ortho +lon_0=0 +lat_0=0 +datum=WGS84"};
        LayerDef l = lineLayer({"LINESTRING(0 0, 120 0)"}, {lineStyle(Color::rgb(0, 0, 0), 2)});
        l.projection.args = QStringList{"+proj=longlat +datum=WGS84"};
        m->layers << l;
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(qRed(pixel(r, 70, 49)) < 100);
        QVERIFY(qRed(pixel(r, 93, 49)) < 100);
        QCOMPARE(pixel(r, 98, 49), qRgb(255, 255, 255));
    }
};

QTEST_MAIN(TestRenderLines)
#include "test_render_lines.moc"
