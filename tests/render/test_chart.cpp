// TYPE CHART layers: pies, bars and stacked bars per feature, a slice or bar
// per class whose expression holds, sized by the class's STYLE SIZE.

#include "mapfile/map_loader.h"
#include "render/chart_layer.h"
#include "render/engine.h"
#include "render/map_renderer.h"
#include "render/prepared_map.h"

#include <QTemporaryDir>
#include <QTest>

using namespace maptune;

class TestChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void pieSlicesByValue();
    void pieDiameterFromSizeRange();
    void barsFromTheOrigin();
    void stackedBars();
    void chartsThatDoNotFitAreLeftOut();
    void badSettingsNameTheLayer_data();
    void badSettingsNameTheLayer();

private:
    RenderResult render(const QByteArray& processing, const QByteArray& feature = "WKT \"POINT(50 50)\" ITEMS \"3;1\"");
    QTemporaryDir m_dir;
};

namespace {

bool near(const QColor& c, const QColor& want) { return std::abs(c.red() - want.red()) < 40 && std::abs(c.green() - want.green()) < 40 && std::abs(c.blue() - want.blue()) < 40; }

}  // namespace

void TestChart::initTestCase()
{
    initEngine();
    QVERIFY(m_dir.isValid());
}

RenderResult TestChart::render(const QByteArray& processing, const QByteArray& feature)
{
    const QByteArray text = "MAP\n SIZE 100 100\n EXTENT 0.5 0.5 99.5 99.5\n IMAGECOLOR 255 255 255\n"
                            " LAYER\n  NAME \"charts\"\n  TYPE CHART\n  STATUS ON\n  PROCESSING \"ITEMS=a,b\"\n" + processing +
                            "  FEATURE " + feature + " END\n"
                            "  CLASS NAME \"a\" STYLE SIZE [a] COLOR 255 0 0 END END\n"
                            "  CLASS NAME \"b\" STYLE SIZE [b] COLOR 0 0 255 END END\n"
                            " END\nEND\n";
    LoadResult loaded = parseMapText(text, m_dir.filePath("chart.map"));
    if (!loaded.ok()) return {};
    return MapRenderer(PreparedMap::prepare(loaded.map)).render({});
}

void TestChart::pieSlicesByValue()
{
    const RenderResult r = render("  PROCESSING \"CHART_SIZE=40\"\n");
    QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
    QCOMPARE(r.trace.layers.first().features, qint64(1));
    // a = 3 of 4: red from east clockwise (image y down) through south and west
    // to north; b = 1 of 4: blue in the north-east quarter.
    QVERIFY(near(r.image.pixelColor(50, 60), Qt::red));   // south
    QVERIFY(near(r.image.pixelColor(40, 50), Qt::red));   // west
    QVERIFY(near(r.image.pixelColor(57, 43), Qt::blue));  // north-east
    QCOMPARE(r.image.pixelColor(50, 25), QColor(Qt::white));  // outside the 40 px pie
    QVERIFY(near(r.image.pixelColor(50, 32), Qt::red) || near(r.image.pixelColor(50, 32), Qt::blue));
}

void TestChart::pieDiameterFromSizeRange()
{
    // a = 3 maps onto 10..30 px over 0..6: 20 px.
    const RenderResult r = render("  PROCESSING \"CHART_SIZE_RANGE=a 10 30 0 6\"\n");
    QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
    QCOMPARE(r.image.pixelColor(50, 63), QColor(Qt::white));   // beyond 10 px
    QVERIFY(!(r.image.pixelColor(50, 56) == QColor(Qt::white)));  // within it
    ChartSettings s;
    s.sizeRange = ChartSettings::SizeRange{"a", 10, 30, 0, 6, 0};
    QCOMPARE(s.pieDiameter(-1), 10.0);
    QCOMPARE(s.pieDiameter(3), 20.0);
    QCOMPARE(s.pieDiameter(100), 30.0);
    s.sizeRange->exponent = 2;  // square root: 10 + sqrt(0.25) * 20
    QCOMPARE(s.pieDiameter(1.5), 20.0);
}

void TestChart::barsFromTheOrigin()
{
    // 40 x 40 bars, two classes: each 20 wide; a = 3 is the tallest (full height), b = 1 a third.
    const RenderResult r = render("  PROCESSING \"CHART_TYPE=BAR\"\n  PROCESSING \"CHART_SIZE=40\"\n");
    QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
    QVERIFY(near(r.image.pixelColor(40, 35), Qt::red));    // left bar near the top
    QVERIFY(near(r.image.pixelColor(60, 65), Qt::blue));   // right bar near the bottom
    QCOMPARE(r.image.pixelColor(60, 40), QColor(Qt::white)); // above the short bar
}

void TestChart::stackedBars()
{
    // VBAR: a on top of... a first from the bottom (3 px x 5), then b (1 px x 5) above it.
    const RenderResult r = render("  PROCESSING \"CHART_TYPE=VBAR\"\n  PROCESSING \"CHART_SIZE=10\"\n  PROCESSING \"CHART_SCALE=5\"\n");
    QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
    // 20 px high around y = 50: red from 60 up to 45, blue from 45 to 40.
    QVERIFY(near(r.image.pixelColor(50, 55), Qt::red));
    QVERIFY(near(r.image.pixelColor(50, 42), Qt::blue));
    QCOMPARE(r.image.pixelColor(50, 37), QColor(Qt::white));
    QCOMPARE(r.image.pixelColor(58, 50), QColor(Qt::white));  // 10 px wide
}

void TestChart::chartsThatDoNotFitAreLeftOut()
{
    const RenderResult r = render("  PROCESSING \"CHART_SIZE=40\"\n", "WKT \"POINT(10 50)\" ITEMS \"3;1\"");
    QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
    for (int x = 0; x < 40; ++x) QCOMPARE(r.image.pixelColor(x, 50), QColor(Qt::white));
    // A polygon's chart sits at its label point.
    const RenderResult p = render("  PROCESSING \"CHART_SIZE=20\"\n", "WKT \"POLYGON((20 20,80 20,80 80,20 80,20 20))\" ITEMS \"1;0\"");
    QVERIFY(near(p.image.pixelColor(50, 50), Qt::red));
    QCOMPARE(p.image.pixelColor(25, 50), QColor(Qt::white));
}

void TestChart::badSettingsNameTheLayer_data()
{
    QTest::addColumn<QByteArray>("processing");
    QTest::addColumn<QByteArray>("feature");
    QTest::addColumn<QString>("message");
    const QByteArray point = "WKT \"POINT(50 50)\" ITEMS \"3;1\"";
    QTest::newRow("chart type") << QByteArray("  PROCESSING \"CHART_TYPE=DONUT\"\n") << point << QStringLiteral("CHART_TYPE \"DONUT\"");
    QTest::newRow("size") << QByteArray("  PROCESSING \"CHART_SIZE=big\"\n") << point << QStringLiteral("\"CHART_SIZE\"");
    QTest::newRow("range") << QByteArray("  PROCESSING \"CHART_SIZE_RANGE=a 10 30\"\n") << point << QStringLiteral("four numbers");
    QTest::newRow("range attribute") << QByteArray("  PROCESSING \"CHART_SIZE_RANGE=zz 1 2 3 4\"\n") << point << QStringLiteral("'zz'");
    QTest::newRow("bar limits") << QByteArray("  PROCESSING \"CHART_TYPE=BAR\"\n  PROCESSING \"CHART_BAR_MINVAL=5\"\n"
                                              "  PROCESSING \"CHART_BAR_MAXVAL=1\"\n") << point << QStringLiteral("CHART_BAR_MINVAL");
    QTest::newRow("negative pie") << QByteArray() << QByteArray("WKT \"POINT(50 50)\" ITEMS \"-3;1\"") << QStringLiteral("negative values");
}

void TestChart::badSettingsNameTheLayer()
{
    QFETCH(QByteArray, processing);
    QFETCH(QByteArray, feature);
    QFETCH(QString, message);
    const RenderResult r = render(processing, feature);
    QCOMPARE(r.trace.layers.size(), 1);
    const QString error = r.trace.layers.first().error;
    QVERIFY2(error.startsWith(QStringLiteral("layer 'charts'")) && error.contains(message), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestChart)
#include "test_chart.moc"
