// MapRenderer on hand-built maps: layer selection, polygons, classes, scale
// tokens, opacity, errors, reprojection, traces. Pixel checks use the centre
// of shapes so that antialiasing at edges cannot make them flaky. Lines:
// test_render_lines; markers and symbols: test_render_symbols.

#include "render_test_maps.h"
#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/render_load.h"
#include "render/scale_tokens.h"

#include <QtTest>
#include <thread>

using namespace maptune;
using namespace maptune::rendertest;

class TestRender : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void fillsPolygonInMapCoordinates()
    {
        auto m = baseMap();
        // y grows upwards in the map, downwards in the image.
        m->layers << polygonLayer("sq", "POLYGON((10 60, 40 60, 40 90, 10 90, 10 60))", Color::rgb(255, 0, 0));
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.image.size(), QSize(100, 100));
        QCOMPARE(pixel(r, 25, 25), qRgb(255, 0, 0));     // map (25, 75)
        QCOMPARE(pixel(r, 25, 75), qRgb(255, 255, 255)); // map (25, 25): background
        QVERIFY(r.bytes.startsWith("\x89PNG"));
        QCOMPARE(r.trace.layers.size(), 1);
        QCOMPARE(r.trace.layers[0].features, 1);
    }

    void pointsOutsideTheMapExtentAreNotDrawn()
    {
        // msDrawShape: a POINT layer's point outside the map's extent (the
        // corner pixels' centres, 0.5..99.5 here) is not drawn, even where
        // its marker would reach into the image.
        const QByteArray text = "MAP SIZE 100 100 EXTENT 0.5 0.5 99.5 99.5 IMAGECOLOR 255 255 255\n"
                                " SYMBOL NAME 'sq' TYPE VECTOR FILLED TRUE POINTS 0 0 1 0 1 1 0 1 0 0 END END\n"
                                " LAYER NAME 'p' TYPE POINT STATUS DEFAULT\n"
                                "  FEATURE POINTS 50 50 END END FEATURE POINTS 99.8 20 END END\n"
                                "  CLASS STYLE SYMBOL 'sq' SIZE 10 COLOR 255 0 0 END END\n END\nEND\n";
        LoadResult loaded = parseMapText(text, QStringLiteral("/tmp/points.map"));
        QVERIFY(loaded.ok());
        const RenderResult r = MapRenderer(loaded.map).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(pixel(r, 50, 50), qRgb(255, 0, 0));
        for (int x = 90; x < 100; ++x) QCOMPARE(pixel(r, x, 80), qRgb(255, 255, 255));
    }

    // loadOutputFormat: IMAGEMODE RGBA alone is transparent; with TRANSPARENT
    // OFF the image keeps its alpha channel over an opaque IMAGECOLOR.

    void rgbaTransparentOffKeepsTheImageColor_data()
    {
        QTest::addColumn<QByteArray>("transparent");
        QTest::addColumn<int>("alpha");
        QTest::newRow("RGBA alone") << QByteArray() << 0;
        QTest::newRow("RGBA, TRANSPARENT OFF") << QByteArray("TRANSPARENT OFF") << 255;
        QTest::newRow("RGBA, TRANSPARENT ON") << QByteArray("TRANSPARENT ON") << 0;
    }

    void rgbaTransparentOffKeepsTheImageColor()
    {
        QFETCH(QByteArray, transparent);
        QFETCH(int, alpha);
        const QByteArray text = "MAP SIZE 10 10 EXTENT 0 0 10 10 IMAGECOLOR 255 255 0\n"
                                " OUTPUTFORMAT NAME 'rgba' DRIVER AGG/PNG IMAGEMODE RGBA " + transparent + " END\nEND\n";
        LoadResult loaded = parseMapText(text, QStringLiteral("/tmp/rgba.map"));
        QVERIFY(loaded.ok());
        const RenderResult r = MapRenderer(loaded.map).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QImage img = QImage::fromData(r.bytes).convertToFormat(QImage::Format_ARGB32);
        QCOMPARE(qAlpha(img.pixel(5, 5)), alpha);
        if (alpha) QCOMPARE(img.pixel(5, 5), qRgb(255, 255, 0));
        QVERIFY(img.hasAlphaChannel());
    }

    void layerSelectionFollowsMap2img_data()
    {
        QTest::addColumn<QStringList>("layers");
        QTest::addColumn<bool>("given");
        QTest::addColumn<QStringList>("drawn");
        QTest::addColumn<bool>("error");
        QTest::newRow("mapfile status") << QStringList{} << false << QStringList{"on", "default"} << false;
        QTest::newRow("switch on off layer") << QStringList{"off"} << true << QStringList{"off", "default"} << false;
        QTest::newRow("by group, any case") << QStringList{"GRP"} << true << QStringList{"off", "default"} << false;
        QTest::newRow("unknown name") << QStringList{"nosuch"} << true << QStringList{} << true;
    }

    void layerSelectionFollowsMap2img()
    {
        QFETCH(QStringList, layers);
        QFETCH(bool, given);
        QFETCH(QStringList, drawn);
        QFETCH(bool, error);
        MapDef m = *baseMap();
        LayerDef on = polygonLayer("on", "POLYGON((0 0,1 0,1 1,0 0))", Color::rgb(0, 0, 0), LayerStatus::On);
        LayerDef off = polygonLayer("off", "POLYGON((0 0,1 0,1 1,0 0))", Color::rgb(0, 0, 0), LayerStatus::Off);
        off.group = "grp";
        LayerDef def = polygonLayer("default", "POLYGON((0 0,1 0,1 1,0 0))", Color::rgb(0, 0, 0), LayerStatus::Default);
        m.layers = {on, off, def};
        RenderRequest req;
        req.layers = layers;
        req.layersGiven = given;
        const Result<QList<int>> selected = MapRenderer::selectLayers(m, req);
        QStringList names;
        if (selected)
            for (int i : *selected) names << m.layers[i].name;
        QCOMPARE(!selected.ok(), error);
        QCOMPARE(names, drawn);
    }

    void renderLoadCountsEachRequestOnce()
    {
        const int before = RenderLoad::active();
        {
            const RenderLoad::Scope request;
            const RenderLoad::Scope render;
            QCOMPARE(RenderLoad::active(), before + 1);
            int seenByOther = 0;
            std::thread other([&] {
                const RenderLoad::Scope second;
                seenByOther = RenderLoad::active();
            });
            other.join();
            QCOMPARE(seenByOther, before + 2);
            std::thread worker([&] {  // a render worker serving this request
                const RenderLoad::Scope adopted(RenderLoad::Scope::Kind::Adopted);
                const RenderLoad::Scope render;
                seenByOther = RenderLoad::active();
            });
            worker.join();
            QCOMPARE(seenByOther, before + 1);
            const RenderLoad::Scope third(RenderLoad::Scope::Kind::Elsewhere);
            QCOMPARE(RenderLoad::active(), before + 2);
            QVERIFY(!RenderLoad::hasSpareCore());
        }
        QCOMPARE(RenderLoad::active(), before);
    }

    void polygonEdgesUseAggGamma()
    {
        // The right edge at map x 41 is pixel x 40.5: pixel 40 is half covered.
        // MapServer's AGG maps coverage through gamma_linear(0, 0.75):
        // 0.5 -> 0.667 opacity, so red on white leaves green at 255 * 0.333.
        auto m = baseMap();
        m->layers << polygonLayer("sq", "POLYGON((10.5 10, 41 10, 41 90, 10.5 90, 10.5 10))", Color::rgb(255, 0, 0));
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(pixel(r, 30, 50), qRgb(255, 0, 0));
        const int g = qGreen(pixel(r, 40, 50));
        QVERIFY2(g >= 80 && g <= 90, qPrintable(QString::number(g)));
        QCOMPARE(pixel(r, 41, 50), qRgb(255, 255, 255));
    }

    void scaleTokensPickValueByScale_data()
    {
        QTest::addColumn<double>("scale");
        QTest::addColumn<QString>("data");
        QTest::addColumn<int>("filterType");
        QTest::addColumn<QString>("filterText");
        // Entries apply from their minimum scale up to the next entry's.
        QTest::newRow("below first") << 100.0 << "a.shp" << int(ExpressionDef::Type::Logical) << "[ID]=1";
        QTest::newRow("exactly second") << 25000.0 << "b.shp" << int(ExpressionDef::Type::Regex) << "^x";
        QTest::newRow("above last") << 1e9 << "c.shp" << int(ExpressionDef::Type::None) << "";
    }

    void scaleTokensPickValueByScale()
    {
        QFETCH(double, scale);
        QFETCH(QString, data);
        QFETCH(int, filterType);
        QFETCH(QString, filterText);
        LayerDef l;
        l.data = "%shp%";
        l.filter = {ExpressionDef::Type::String, "%f%"};
        ScaleTokenDef shp{"%shp%", {{"0", "a.shp"}, {"25000", "b.shp"}, {"35000", "c.shp"}}};
        ScaleTokenDef flt{"%f%", {{"0", "([ID]=1)"}, {"25000", "/^x/"}, {"600000", ""}}};
        l.scaleTokens = {shp, flt};
        const LayerDef out = ScaleTokens::apply(l, scale);
        QCOMPARE(out.data, data);
        QCOMPARE(int(out.filter.type), filterType);
        QCOMPARE(out.filter.text, filterText);
    }

    void scaleTokenFilterSelectsFeatures()
    {
        // The map is at about 1:378 (1 unit per pixel, 100 px): the "0" entry
        // applies, so only the feature with ID 1 passes the FILTER.
        auto m = baseMap();
        LayerDef l = polygonLayer("p", "POLYGON((10 10, 40 10, 40 40, 10 40, 10 10))", Color::rgb(255, 0, 0));
        l.features[0].items = "1";
        InlineFeatureDef b;
        b.wkt = "POLYGON((60 60, 90 60, 90 90, 60 90, 60 60))";
        b.items = "2";
        l.features << b;
        l.processing << "ITEMS=ID";
        l.filter = {ExpressionDef::Type::String, "%f%"};
        l.scaleTokens = {ScaleTokenDef{"%f%", {{"0", "([ID]=1)"}, {"1000000", "([ID]=2)"}}}};
        m->layers << l;
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(pixel(r, 25, 75), qRgb(255, 0, 0));       // map (25, 25): ID 1
        QCOMPARE(pixel(r, 75, 25), qRgb(255, 255, 255));   // map (75, 75): ID 2 filtered out
    }

    void mapAngleRotatesAboutCentre()
    {
        // ANGLE 90 turns the view rectangle counter-clockwise, so the map is
        // drawn turned clockwise: what lies east of the centre ends up below it.
        auto m = baseMap();
        m->angle = 90;
        m->layers << polygonLayer("east", "POLYGON((80 45, 90 45, 90 55, 80 55, 80 45))", Color::rgb(255, 0, 0));
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(pixel(r, 50, 85), qRgb(255, 0, 0));
        QCOMPARE(pixel(r, 85, 50), qRgb(255, 255, 255));
    }

    void labelTextDrawsWithoutLabelItem()
    {
        // LABEL TEXT "..." labels a feature even without LABELITEM or class TEXT.
        auto m = baseMap();
        LayerDef l;
        l.name = "pt";
        l.type = LayerType::Point;
        l.status = LayerStatus::Default;
        InlineFeatureDef f;
        f.wkt = "POINT(50 50)";
        l.features << f;
        ClassDef c;
        LabelDef lab;
        lab.text = {ExpressionDef::Type::String, "MMMM"};
        lab.color.color = Color::rgb(0, 0, 0);
        c.labels << lab;
        l.classes << c;
        m->layers << l;
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        int dark = 0;
        for (int y = 30; y < 70; ++y)
            for (int x = 20; x < 80; ++x) dark += qRed(pixel(r, x, y)) < 128;
        QVERIFY2(dark > 10, qPrintable(QString::number(dark)));
    }

    void classExpressionSelectsStyle()
    {
        auto m = baseMap();
        LayerDef l;
        l.name = "classes";
        l.type = LayerType::Polygon;
        l.status = LayerStatus::Default;
        l.classItem = "kind";
        l.processing = {"ITEMS=kind"};
        InlineFeatureDef a, b;
        a.wkt = "POLYGON((0 0,50 0,50 100,0 100,0 0))";
        a.items = "water";
        b.wkt = "POLYGON((50 0,100 0,100 100,50 100,50 0))";
        b.items = "land";
        l.features = {a, b};
        ClassDef water, other;
        water.expression = {ExpressionDef::Type::String, "water"};
        StyleDef ws;
        ws.color = Color::rgb(0, 0, 255);
        water.styles << ws;
        StyleDef os;
        os.color = Color::rgb(0, 128, 0);
        other.styles << os;
        l.classes = {water, other};
        m->layers << l;
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(pixel(r, 25, 50), qRgb(0, 0, 255));
        QCOMPARE(pixel(r, 75, 50), qRgb(0, 128, 0));
    }

    void layerOpacityBlends()
    {
        auto m = baseMap();
        LayerDef l = polygonLayer("half", "POLYGON((0 0,100 0,100 100,0 100,0 0))", Color::rgb(0, 0, 0));
        l.composites << LayerCompositeDef{50, {}};
        m->layers << l;
        const RenderResult r = MapRenderer(m).render({});
        const QColor c = QColor::fromRgb(pixel(r, 50, 50));
        QVERIFY(qAbs(c.red() - 128) <= 1);
    }

    void badRequestsAreErrorsNotCrashes()
    {
        auto m = baseMap();
        RenderRequest huge;
        huge.width = 100000;
        huge.height = 10;
        QVERIFY(MapRenderer(m).render(huge).error.contains("MAXSIZE"));
        RenderRequest fmt;
        fmt.format = "image/nosuch";
        QVERIFY(!MapRenderer(m).render(fmt).ok());
        auto noExtent = baseMap();
        noExtent->extent = {};
        QVERIFY(MapRenderer(noExtent).render({}).error.contains("EXTENT"));
    }

    void brokenLayerDoesNotStopOthers()
    {
        auto m = baseMap();
        LayerDef broken;
        broken.name = "broken";
        broken.type = LayerType::Line;
        broken.status = LayerStatus::Default;
        broken.data = "/nonexistent/file.shp";
        m->layers << broken;
        m->layers << polygonLayer("ok", "POLYGON((0 0,100 0,100 100,0 100,0 0))", Color::rgb(0, 255, 0));
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY(r.ok());
        QCOMPARE(pixel(r, 50, 50), qRgb(0, 255, 0));
        QCOMPARE(r.warnings.size(), 1);
        QVERIFY(r.warnings[0].contains("broken"));
        QVERIFY(r.trace.layers[0].error.contains("file.shp"));
    }

    void reprojectsVectorLayer()
    {
        // Map in Web Mercator, layer in lon/lat: a square around the palace.
        auto m = baseMap();
        m->projection.args = {"init=epsg:3857"};
        m->extent = {15556210, 4256391, 15558210, 4258391};
        LayerDef l = polygonLayer("ll", "POLYGON((139.74 35.68,139.76 35.68,139.76 35.69,139.74 35.69,139.74 35.68))",
                                  Color::rgb(255, 0, 255));
        l.projection.args = {"init=epsg:4326"};
        m->layers << l;
        const RenderResult r = MapRenderer(m).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        // The palace point (15557210, 4257391) is the image centre and inside the square.
        QCOMPARE(pixel(r, 50, 50), qRgb(255, 0, 255));
    }

    void serverTimingNamesLayers()
    {
        auto m = baseMap();
        m->layers << polygonLayer("a\"b", "POLYGON((0 0,1 0,1 1,0 0))", Color::rgb(0, 0, 0));
        const RenderResult r = MapRenderer(m).render({});
        const QString st = r.trace.serverTiming();
        QVERIFY2(st.startsWith("layer;desc=\"a\\\"b\";dur="), qPrintable(st));
        QVERIFY(st.contains("encode;dur="));
        QVERIFY(st.contains("total;dur="));
    }
};

QTEST_MAIN(TestRender)
#include "test_render.moc"
