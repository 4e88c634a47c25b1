// CONNECTIONTYPE KERNELDENSITY and IDW: a surface from another layer's
// points, on the map's pixel grid, coloured by the layer's raster classes.

#include "mapfile/map_loader.h"
#include "mapfile/map_validator.h"
#include "mapfile/map_writer.h"
#include "raster/interpolation_grid.h"
#include "render/engine.h"
#include "render/map_renderer.h"
#include "render/prepared_map.h"

#include <QTemporaryDir>
#include <algorithm>
#include <QTest>

using namespace maptune;

class TestInterpolation : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void densityPeaksAtTheSample();
    void densityLeavesTheBorderWithoutComputeBorders();
    void fixedNormalizationScalesBySum();
    void idwIsTheSampleValueWithinTheRadius();
    void processingKeys();
    void heatMapDrawnWithItsClasses();
    void weightsFromTheStyleSize();
    void idwLayerDrawn();
    void badConnectionsNameTheLayer_data();
    void badConnectionsNameTheLayer();
    void unknownColorspaceIsAnError();
    void writerKeepsTheConnectionType();

private:
    QTemporaryDir m_dir;
};

namespace {

InterpolationParams density(int radius, bool borders, double normalization = 0)
{
    InterpolationParams p;
    p.radius = radius;
    p.computeBorders = borders;
    p.normalization = normalization;
    return p;
}

int at(const std::vector<uint8_t>& v, int width, int x, int y) { return v[size_t(y * width + x)]; }

// Points at pixel centres of a 100x100 map over 0..100: (x + 0.5, 99.5 - y).
QByteArray heatMap(const QByteArray& heatLayer, const QByteArray& points = "20 80 50 50 52 50")
{
    QByteArray features;
    const QList<QByteArray> xy = points.split(' ');
    for (int i = 0; i + 1 < xy.size(); i += 2)
        features += "  FEATURE POINTS " + xy[i] + " " + xy[i + 1] + " END ITEMS \"" + QByteArray::number(i / 2 + 1) + "\" END\n";
    return "MAP\n SIZE 100 100\n EXTENT 0.5 0.5 99.5 99.5\n IMAGECOLOR 255 255 255\n"
           " LAYER\n  NAME \"pts\"\n  TYPE POINT\n  STATUS OFF\n  PROCESSING \"ITEMS=w\"\n" + features + " END\n"
           + heatLayer + "END\n";
}

const QByteArray kHeat = " LAYER\n  NAME \"heat\"\n  TYPE RASTER\n  STATUS ON\n  CONNECTIONTYPE KERNELDENSITY\n"
                         "  CONNECTION \"pts\"\n  PROCESSING \"KERNELDENSITY_RADIUS=10\"\n"
                         "  PROCESSING \"KERNELDENSITY_COMPUTE_BORDERS=ON\"\n  OFFSITE 0 0 0\n"
                         "  CLASS STYLE COLORRANGE 0 0 255 255 0 0 DATARANGE 1 255 END END\n END\n";

RenderResult render(const QByteArray& text, const QString& path)
{
    LoadResult loaded = parseMapText(text, path);
    if (!loaded.ok()) return RenderResult{};
    return MapRenderer(PreparedMap::prepare(loaded.map)).render({});
}

}  // namespace

void TestInterpolation::initTestCase()
{
    initEngine();
    QVERIFY(m_dir.isValid());
}

void TestInterpolation::densityPeaksAtTheSample()
{
    InterpolationGrid grid(41, 41, density(5, true));
    grid.add(20 + 5, 20 + 5, 1);  // grid pixels include the margin
    const std::vector<uint8_t> v = grid.values();
    // AUTO divides by the largest value after taking the smallest off: just under 255.
    QCOMPARE(at(v, 41, 20, 20), int(*std::max_element(v.begin(), v.end())));
    QVERIFY(at(v, 41, 20, 20) >= 250);
    QVERIFY(at(v, 41, 23, 20) < 255 && at(v, 41, 23, 20) > 0);
    QCOMPARE(at(v, 41, 23, 20), at(v, 41, 17, 20));  // symmetric
    QCOMPARE(at(v, 41, 20, 23), at(v, 41, 20, 17));
    QVERIFY(at(v, 41, 22, 20) > at(v, 41, 24, 20));  // falls off with distance
    QCOMPARE(at(v, 41, 30, 20), 0);                  // beyond the kernel
}

void TestInterpolation::densityLeavesTheBorderWithoutComputeBorders()
{
    InterpolationGrid grid(30, 30, density(5, false));
    grid.add(2, 2, 1);
    grid.add(15, 15, 1);
    const std::vector<uint8_t> v = grid.values();
    // Only pixels the whole kernel covers are written.
    for (int i = 0; i < 30; ++i) {
        QCOMPARE(at(v, 30, i, 0), 0);
        QCOMPARE(at(v, 30, 0, i), 0);
        QCOMPARE(at(v, 30, i, 29), 0);
    }
    QVERIFY(at(v, 30, 15, 15) >= 250);
    QVERIFY(at(v, 30, 5, 5) > 0);  // the corner sample still spreads inwards
}

void TestInterpolation::fixedNormalizationScalesBySum()
{
    // NORMALIZATION n maps a blurred value of 1/n to 255: a weight of 2
    // peaks twice as high as a weight of 1.
    InterpolationGrid one(21, 21, density(3, true, 1.0 / 0.5));
    one.add(13, 13, 1);
    InterpolationGrid two(21, 21, density(3, true, 1.0 / 0.5));
    two.add(13, 13, 2);
    const int a = at(one.values(), 21, 10, 10), b = at(two.values(), 21, 10, 10);
    QVERIFY2(a > 0 && std::abs(b - 2 * a) <= 1, qPrintable(QStringLiteral("%1 and %2").arg(a).arg(b)));
}

void TestInterpolation::idwIsTheSampleValueWithinTheRadius()
{
    InterpolationParams p;
    p.method = InterpolationParams::Method::Idw;
    p.radius = 5;
    InterpolationGrid grid(20, 20, p);
    grid.add(10, 10, 100);
    const std::vector<uint8_t> v = grid.values();
    QCOMPARE(at(v, 20, 10, 10), 100);
    QCOMPARE(at(v, 20, 13, 10), 99);   // num / den with den's epsilon: just under the value
    QCOMPARE(at(v, 20, 16, 10), 0);    // outside the radius: no sample
    // Two samples: the nearer one weighs more.
    grid.add(14, 10, 200);
    const std::vector<uint8_t> w = grid.values();
    QVERIFY(at(w, 20, 11, 10) < at(w, 20, 13, 10));
    QVERIFY(at(w, 20, 12, 10) > 100 && at(w, 20, 12, 10) < 200);
}

void TestInterpolation::processingKeys()
{
    using M = InterpolationParams::Method;
    const auto kd = InterpolationParams::fromProcessing(M::KernelDensity, ProcessingOptions({}), 300, 200);
    QCOMPARE(kd.radius, 10);
    QVERIFY(!kd.computeBorders);
    QCOMPARE(kd.normalization, 0.0);
    const auto fixed = InterpolationParams::fromProcessing(
        M::KernelDensity, ProcessingOptions({"KERNELDENSITY_NORMALIZATION=20", "KERNELDENSITY_COMPUTE_BORDERS=on"}), 300, 200);
    QCOMPARE(fixed.normalization, 1.0 / 20);
    QVERIFY(fixed.computeBorders);
    const auto idw = InterpolationParams::fromProcessing(M::Idw, ProcessingOptions({"IDW_POWER=2"}), 300, 200);
    QCOMPARE(idw.radius, 300);  // the larger image side
    QCOMPARE(idw.power, 2.0);
    const auto negative = InterpolationParams::fromProcessing(M::KernelDensity, ProcessingOptions({"KERNELDENSITY_RADIUS=-4"}), 10, 10);
    QCOMPARE(negative.radius, 0);
}

void TestInterpolation::heatMapDrawnWithItsClasses()
{
    const RenderResult r = render(heatMap(kHeat), m_dir.filePath("h.map"));
    QCOMPARE(r.trace.layers.size(), 1);
    const LayerTrace& t = r.trace.layers.first();
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    QCOMPARE(t.computePhase, QStringLiteral("density"));
    QCOMPARE(t.features, qint64(3));
    // The two close points make the hottest spot: red; the lone one bluer; far away: OFFSITE, the background.
    const QColor hot = r.image.pixelColor(51, 49), lone = r.image.pixelColor(19, 19), far = r.image.pixelColor(90, 90);
    QVERIFY2(hot.red() > 200 && hot.blue() < 60, qPrintable(hot.name()));
    QVERIFY2(lone.red() < hot.red() - 60 && lone.blue() > 60, qPrintable(lone.name()));
    QCOMPARE(far, QColor(255, 255, 255));
}

void TestInterpolation::weightsFromTheStyleSize()
{
    // The lone point weighs 10 through its class's SIZE [w]: now it is the hottest.
    QByteArray text = heatMap(kHeat);
    text.replace("  PROCESSING \"ITEMS=w\"\n", "  PROCESSING \"ITEMS=w\"\n  CLASS EXPRESSION ([w] = 1) STYLE SIZE 10 END END\n"
                                                 "  CLASS STYLE SIZE 1 END END\n");
    const RenderResult r = render(text, m_dir.filePath("h.map"));
    QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
    const QColor lone = r.image.pixelColor(19, 19), pair = r.image.pixelColor(51, 49);
    QVERIFY2(lone.red() > 200, qPrintable(lone.name()));
    QVERIFY2(pair.blue() > pair.red(), qPrintable(pair.name()));
}

void TestInterpolation::idwLayerDrawn()
{
    QByteArray idw = kHeat;
    idw.replace("KERNELDENSITY_RADIUS=10", "IDW_RADIUS=8").replace("KERNELDENSITY_COMPUTE_BORDERS=ON", "IDW_POWER=1");
    idw.replace("CONNECTIONTYPE KERNELDENSITY", "CONNECTIONTYPE IDW");
    QByteArray text = heatMap(idw);
    text.replace("  PROCESSING \"ITEMS=w\"\n", "  PROCESSING \"ITEMS=w\"\n  CLASS STYLE SIZE 200 END END\n");
    const RenderResult r = render(text, m_dir.filePath("i.map"));
    const LayerTrace& t = r.trace.layers.first();
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    QCOMPARE(t.computePhase, QStringLiteral("idw"));
    // Within 8 pixels of a sample the value is about its weight (200: red-ish); beyond, nothing.
    const QColor near = r.image.pixelColor(22, 19);
    QVERIFY2(near.red() > near.blue(), qPrintable(near.name()));
    QCOMPARE(r.image.pixelColor(90, 90), QColor(255, 255, 255));
}

void TestInterpolation::badConnectionsNameTheLayer_data()
{
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<QString>("validation");
    QTest::addColumn<QString>("render");
    QTest::newRow("unknown layer") << QByteArray("CONNECTION \"pts\"") << QByteArray("CONNECTION \"nope\"")
                                   << QStringLiteral("names no layer or group 'nope'")
                                   << QStringLiteral("layer 'heat': CONNECTION names no layer or group 'nope'");
    QTest::newRow("no connection") << QByteArray("CONNECTION \"pts\"") << QByteArray("")
                                   << QStringLiteral("needs a CONNECTION") << QStringLiteral("layer 'heat': no CONNECTION");
    QTest::newRow("a raster") << QByteArray("CONNECTION \"pts\"") << QByteArray("CONNECTION \"heat\"")
                              << QStringLiteral("is a RASTER layer") << QStringLiteral("which is not a vector layer");
}

void TestInterpolation::badConnectionsNameTheLayer()
{
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(QString, validation);
    QFETCH(QString, render);
    QByteArray text = heatMap(kHeat);
    text.replace(from, to);
    LoadResult loaded = parseMapText(text, m_dir.filePath("bad.map"));
    QVERIFY(loaded.ok());
    QString found;
    for (const Diagnostic& d : validateMap(*loaded.map)) found += d.toString() + QLatin1Char('\n');
    QVERIFY2(found.contains(validation) && found.contains(QStringLiteral("LAYER 'heat'")), qPrintable(found));
    QVERIFY2(found.contains(QStringLiteral("bad.map:")), qPrintable(found));
    const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
    QVERIFY2(r.trace.layers.first().error.contains(render), qPrintable(r.trace.layers.first().error));
}

void TestInterpolation::unknownColorspaceIsAnError()
{
    QByteArray text = heatMap(kHeat);
    text.replace("  OFFSITE 0 0 0\n", "  OFFSITE 0 0 0\n  PROCESSING \"RANGE_COLORSPACE=LAB\"\n");
    const RenderResult r = render(text, m_dir.filePath("h.map"));
    const QString error = r.trace.layers.first().error;
    QVERIFY2(error.contains(QStringLiteral("layer 'heat'")) && error.contains(QStringLiteral("RANGE_COLORSPACE \"LAB\"")),
             qPrintable(error));
    // HSL is known; from blue to red its hue passes green, where RGB passes purple.
    text.replace("RANGE_COLORSPACE=LAB", "RANGE_COLORSPACE=HSL");
    const RenderResult hsl = render(text, m_dir.filePath("h.map"));
    QVERIFY2(hsl.trace.layers.first().error.isEmpty(), qPrintable(hsl.trace.layers.first().error));
    const QColor hslMid = hsl.image.pixelColor(19, 19);
    QVERIFY2(hslMid.green() > hslMid.red() && hslMid.green() > hslMid.blue(), qPrintable(hslMid.name()));
    text.replace("RANGE_COLORSPACE=HSL", "RANGE_COLORSPACE=RGB");
    const QColor rgbMid = render(text, m_dir.filePath("h.map")).image.pixelColor(19, 19);
    QVERIFY2(rgbMid.green() == 0 && rgbMid.red() > 60 && rgbMid.blue() > 60, qPrintable(rgbMid.name()));
}

void TestInterpolation::writerKeepsTheConnectionType()
{
    LoadResult loaded = parseMapText(heatMap(kHeat), m_dir.filePath("h.map"));
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.map->layers[1].connectionType, ConnectionType::KernelDensity);
    const QString written = writeMapFile(*loaded.map);
    QVERIFY2(written.contains(QStringLiteral("CONNECTIONTYPE KERNELDENSITY")), qPrintable(written));
    LoadResult again = parseMapText(written.toUtf8(), m_dir.filePath("h2.map"));
    QVERIFY(again.ok());
    QCOMPARE(again.map->layers[1].connectionType, ConnectionType::KernelDensity);
}

QTEST_GUILESS_MAIN(TestInterpolation)
#include "test_interpolation.moc"
