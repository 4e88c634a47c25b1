// GRID layers (MapServer's graticule): the interval chosen for a view, the
// lines drawn, the edge labels' formats, and an unusable LABELFORMAT refused.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/graticule_source.h"
#include "render/map_renderer.h"
#include "render/prepared_map.h"

#include <QTest>

using namespace maptune;

namespace {

QByteArray gridMap(const QByteArray& grid, const QByteArray& label = {})
{
    return "MAP\n SIZE 200 100\n EXTENT 0 0 2000 1000\n UNITS METERS\n IMAGECOLOR 255 255 255\n"
           " LAYER\n  NAME \"grid\"\n  TYPE LINE\n  STATUS ON\n"
           "  CLASS STYLE COLOR 0 0 0 END " + label + " END\n"
           "  GRID " + grid + " END\n END\nEND\n";
}

// A 1-px line lands across pixel edges: the darkest of a pixel and its neighbours.
bool dark(const QImage& image, int x, int y)
{
    int darkest = 255;
    for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy) darkest = std::min(darkest, qGray(image.pixel(x + dx, y + dy)));
    return darkest < 180;
}

}  // namespace

class TestGraticule : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void axisWidenedToWholeIntervals()
    {
        // 0..2000 with a set interval of 500: 0, 500, ... 2000.
        GraticuleAxis a = graticuleAxis(0, 2000, 500, 16);
        QCOMPARE(a.min, 0.0);
        QCOMPARE(a.max, 2000.0);
        // No interval: a power of ten under a tenth of the range, halved until 16 lines show.
        a = graticuleAxis(3, 97, 0, 16);
        QCOMPARE(a.max, 100.0);
        QVERIFY2(a.interval > 0 && (a.max - a.min) / a.interval >= 16, qPrintable(QString::number(a.interval)));
    }

    void linesAtTheInterval()
    {
        LoadResult loaded = parseMapText(gridMap("MININTERVAL 500 MAXINTERVAL 500"), QStringLiteral("grid.map"));
        QVERIFY(loaded.ok());
        const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
        QVERIFY2(r.ok() && r.trace.layers.first().error.isEmpty(), qPrintable(r.error + r.trace.layers.first().error));
        // Meridians every 50 px (x = 500 m), parallels at y = 500 m (row 50).
        QVERIFY(dark(r.image, 50, 20) && dark(r.image, 100, 20) && dark(r.image, 150, 20));
        QVERIFY(dark(r.image, 20, 50));
        QVERIFY(!dark(r.image, 75, 20) && !dark(r.image, 20, 25));
        // 200 x 100 px for 2000 x 1000 m: MapServer widens x to -5..2005 m
        // (square pixels), so the meridians run from -500 to 2500 (7), the
        // parallels 0, 500, 1000 (3).
        QCOMPARE(r.trace.layers.first().features, 7 + 3);
    }

    void labelFormats_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("default") << "" << 30.0 << "   30";
        QTest::newRow("DD") << "DD" << -120.0 << "-120";
        QTest::newRow("DDMM") << "DDMM" << 45.5 << " 45 30";
        QTest::newRow("DDMMSS") << "DDMMSS" << 10.2575 << " 10 15 27";
        QTest::newRow("printf number") << "%.1f m" << 1500.0 << "1500.0 m";
    }
    void labelFormats()
    {
        QFETCH(QString, format);
        QFETCH(double, value);
        QFETCH(QString, text);
        GraticuleSettings s;
        s.labelFormat = format;
        const Result<QString> out = s.format(value);
        QVERIFY2(out, qPrintable(out.message()));
        QCOMPARE(*out, text);
    }

    void unsafeFormatsRefused_data()
    {
        QTest::addColumn<QString>("format");
        QTest::newRow("string conversion") << "%s";
        QTest::newRow("two conversions") << "%g %g";
        QTest::newRow("write count") << "%n";
        QTest::newRow("huge width") << "%999999g";
    }
    void unsafeFormatsRefused()
    {
        QFETCH(QString, format);
        GraticuleSettings s;
        s.labelFormat = format;
        QVERIFY(!s.format(1.0));
        // In a map: the layer fails with the reason, the program goes on.
        LoadResult loaded = parseMapText(gridMap("LABELFORMAT '" + format.toUtf8() + "' MININTERVAL 500", "LABEL SIZE 8 END"),
                                         QStringLiteral("grid.map"));
        QVERIFY(loaded.ok());
        const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
        QVERIFY2(r.trace.layers.first().error.contains(QLatin1String("LABELFORMAT")), qPrintable(r.trace.layers.first().error));
    }

    void edgeLabelsDrawn()
    {
        LoadResult loaded = parseMapText(gridMap("MININTERVAL 500 MAXINTERVAL 500", "LABEL SIZE 8 COLOR 255 0 0 END"),
                                         QStringLiteral("grid.map"));
        QVERIFY(loaded.ok());
        const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
        QVERIFY2(r.ok() && r.trace.layers.first().error.isEmpty(), qPrintable(r.error + r.trace.layers.first().error));
        QVERIFY2(r.trace.layers.first().labelsPlaced > 0, "labels where the lines meet the edges");
        int red = 0;
        for (int y = 0; y < 100; ++y)
            for (int x = 0; x < 200; ++x)
                red += qRed(r.image.pixel(x, y)) > 200 && qGreen(r.image.pixel(x, y)) < 100;
        QVERIFY(red > 20);
    }

    // An orthographic map whose left corners lie off the globe: those
    // corners keep their map coordinates (msProjectPointEx), so the bottom
    // edge still meets every meridian and each gets its label there.
    void labelsWhereCornersAreOffTheGlobe()
    {
        const QByteArray text = "MAP\n SIZE 400 200\n EXTENT -10000000 -2500000 0 2500000\n IMAGECOLOR 255 255 255\n"
                                " PROJECTION \"+proj=ortho +datum=WGS84\" END\n"
                                " LAYER NAME \"grid\" TYPE LINE STATUS ON\n"
                                "  PROJECTION \"init=epsg:4326\" END\n"
                                "  CLASS STYLE COLOR 0 0 0 END LABEL SIZE 8 COLOR 255 0 0 END END\n"
                                "  GRID LABELFORMAT \"DD\" MAXARCS 10 MAXINTERVAL 5 MAXSUBDIVIDE 2 END\n END\nEND\n";
        LoadResult loaded = parseMapText(text, QStringLiteral("ortho_grid.map"));
        QVERIFY(loaded.ok());
        const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
        QVERIFY2(r.ok() && r.trace.layers.first().error.isEmpty(), qPrintable(r.error + r.trace.layers.first().error));
        int red = 0;
        for (int y = 170; y < 200; ++y)
            for (int x = 140; x < 360; ++x)
                red += qRed(r.image.pixel(x, y)) > 200 && qGreen(r.image.pixel(x, y)) < 100;
        QVERIFY2(red > 40, qPrintable(QString::number(red)));
        // The meridians reach the horizon at 90 degrees west: a line near the limb.
        int darkLeft = 0;
        for (int x = 140; x < 160; ++x) darkLeft += dark(r.image, x, 100);
        QVERIFY(darkLeft > 0);
    }
};

QTEST_GUILESS_MAIN(TestGraticule)
#include "test_graticule.moc"
