// Raster LUTs and PROCESSING directives without drawing: MapServer's
// ParseDefaultLUT() ramps (8 and 16 bit), GIMP curves files, LUT definitions
// read from files, and the warnings for misspelt or repeated directives.

#include "mapfile/processing.h"
#include "raster/lut.h"
#include "raster/raster_layer_renderer.h"
#include "raster_test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace maptune;
using namespace maptune::rastertest;

class TestRasterLut : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void lutPoints_data();
    void lutPoints();
    void lutImplicitEndRampsBackUp();
    void lutClampsInAndOut();
    void lut16Bit();
    void lutWants16Bit_data();
    void lutWants16Bit();
    void gimpCurves();
    void gimpCurvesErrors_data();
    void gimpCurvesErrors();
    void lutDefinitionFromFile();
    void processingWarnings();
};

void TestRasterLut::lutPoints_data()
{
    QTest::addColumn<QByteArray>("def");
    QTest::addColumn<int>("in");
    QTest::addColumn<int>("out");
    // Implicit (0,0) start: 0..100 ramps 0 -> 30.
    QTest::newRow("start-0") << QByteArray("100:30,160:128,210:200") << 0 << 0;
    QTest::newRow("start-50") << QByteArray("100:30,160:128,210:200") << 50 << ramp(50, 0, 0, 100, 30);
    QTest::newRow("point") << QByteArray("100:30,160:128,210:200") << 160 << 128;
    QTest::newRow("mid-130") << QByteArray("100:30,160:128,210:200") << 130 << ramp(130, 100, 30, 160, 128);
    // Implicit (255,255) end.
    QTest::newRow("end-233") << QByteArray("100:30,160:128,210:200") << 233 << ramp(233, 210, 200, 255, 255);
    QTest::newRow("end-255") << QByteArray("100:30,160:128,210:200") << 255 << 255;
    // floor(v + 0.5): 128*(1/255)... 0:0,255:1 gives 0.5 at 127.5 -> index 128 = floor(0.502+0.5) = 1.
    QTest::newRow("round-127") << QByteArray("0:0,255:1") << 127 << 0;
    QTest::newRow("round-128") << QByteArray("0:0,255:1") << 128 << 1;
    QTest::newRow("single-pair") << QByteArray("128:196") << 64 << 98;
    QTest::newRow("spaces") << QByteArray(" 100 : 50 , 255 : 50 ") << 200 << 50;
    QTest::newRow("newlines") << QByteArray("100:50\n255:50\n") << 200 << 50;
    QTest::newRow("empty-is-identity") << QByteArray("") << 77 << 77;
}

void TestRasterLut::lutPoints()
{
    QFETCH(QByteArray, def);
    QFETCH(int, in);
    QFETCH(int, out);
    const Lut lut = Lut::fromPoints(def, 255);
    QCOMPARE(lut.size(), 256);
    QCOMPARE(int(lut[in]), out);
}

void TestRasterLut::lutImplicitEndRampsBackUp()
{
    // "...,200:100" is not clamped at 100: MapServer appends 255:255.
    const Lut lut = Lut::fromPoints("200:100");
    QCOMPARE(int(lut[200]), 100);
    QCOMPARE(int(lut[255]), 255);
    QVERIFY(lut[230] > 100);
    const Lut clamped = Lut::fromPoints("200:100,255:100");
    QCOMPARE(int(clamped[255]), 100);
}

void TestRasterLut::lutClampsInAndOut()
{
    const Lut lut = Lut::fromPoints("100:400,300:0");  // out clamped to 255, in clamped to 255
    QCOMPARE(int(lut[100]), 255);
    QCOMPARE(int(lut[255]), 0);
    QCOMPARE(int(lut[50]), ramp(50, 0, 0, 100, 255));
}

void TestRasterLut::lut16Bit()
{
    const Lut lut = Lut::fromPoints("1605:30,2569:128,3372:200,4095:255", 65535);
    QCOMPARE(lut.size(), 65536);
    QCOMPARE(int(lut[1605]), 30);
    QCOMPARE(int(lut[2000]), ramp(2000, 1605, 30, 2569, 128));
    QCOMPARE(int(lut[800]), ramp(800, 0, 0, 1605, 30));
    // Last point in = 4095 != 65535: implicit (65535,255) ramps from 255 to 255.
    QCOMPARE(int(lut[60000]), 255);
    const Lut lut2 = Lut::fromPoints("2055:196,4095:100", 65535);
    QCOMPARE(int(lut2[65535]), 255);
    QCOMPARE(int(lut2[34815]), ramp(34815, 4095, 100, 65535, 255));
}

void TestRasterLut::lutWants16Bit_data()
{
    QTest::addColumn<QByteArray>("def");
    QTest::addColumn<bool>("wide");
    QTest::newRow("8bit") << QByteArray("0:0,255:255") << false;
    QTest::newRow("last>255") << QByteArray("0:0,4095:255") << true;
    // Only the LAST tuple counts.
    QTest::newRow("first>255-last<=255") << QByteArray("4095:255,255:255") << false;
    QTest::newRow("single") << QByteArray("2055:196") << true;
    QTest::newRow("gimp") << QByteArray("# GIMP Curves File\n0 0 4095 255") << false;
}

void TestRasterLut::lutWants16Bit()
{
    QFETCH(QByteArray, def);
    QFETCH(bool, wide);
    QCOMPARE(Lut::wants16Bit(def), wide);
}

namespace {
QByteArray gimpLine(const QList<std::pair<int, int>>& points)
{
    QByteArray line;
    for (int i = 0; i < 17; ++i) {
        const auto p = i < points.size() ? points[i] : std::pair<int, int>{-1, -1};
        line += QByteArray::number(p.first) + ' ' + QByteArray::number(p.second) + ' ';
    }
    return line;
}
}  // namespace

void TestRasterLut::gimpCurves()
{
    const QByteArray identity = gimpLine({{0, 0}, {255, 255}});
    const QByteArray value = gimpLine({{0, 0}, {128, 64}, {255, 255}});
    const QByteArray red = gimpLine({{0, 0}, {100, 200}, {255, 255}});
    const QByteArray file = "# GIMP Curves File\n" + value + "\n" + red + "\n" + identity + "\n" + identity + "\n"
        + identity + "\n";
    const auto r = Lut::fromGimpCurves(file, 1);
    QVERIFY(r);
    // Channel curve first, then the value curve: lut[i] = value[red[i]].
    const int redAt100 = 200;
    QCOMPARE(int((*r)[100]), ramp(redAt100, 128, 64, 255, 255));
    const auto g = Lut::fromGimpCurves(file, 2);
    QVERIFY(g);
    QCOMPARE(int((*g)[128]), 64);
    QCOMPARE(int((*g)[64]), ramp(64, 0, 0, 128, 64));
    // The conformance curve munich_1.crv's value line: x=-1 points are skipped.
    const QByteArray munich = gimpLine({{0, 0}, {-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, {30, -1}});
    Q_UNUSED(munich);
    // A 16-bit request with a GIMP file is an error.
    const Result<Lut> wide = Lut::fromDefinition(file, 1, 65535);
    QVERIFY(!wide);
    QVERIFY(wide.message().contains(QLatin1String("16-bit")));
}

void TestRasterLut::gimpCurvesErrors_data()
{
    QTest::addColumn<QByteArray>("text");
    const QByteArray ok = gimpLine({{0, 0}, {255, 255}});
    QTest::newRow("too-few-lines") << QByteArray("# GIMP Curves File\n" + ok + "\n" + ok + "\n");
    QTest::newRow("short-line") << QByteArray("# GIMP Curves File\n0 0 255 255\n" + ok + "\n" + ok + "\n" + ok + "\n" + ok);
    QTest::newRow("no-header") << QByteArray("# Curves\n" + ok + "\n" + ok + "\n" + ok + "\n" + ok + "\n" + ok);
}

void TestRasterLut::gimpCurvesErrors()
{
    QFETCH(QByteArray, text);
    const Result<Lut> lut = Lut::fromGimpCurves(text, 1);
    QVERIFY(!lut);
    QVERIFY(lut.message().contains(QLatin1String("corrupt")));
}

void TestRasterLut::lutDefinitionFromFile()
{
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("curve.txt")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("0:0\n128:255\n");
    f.close();
    const ProcessingOptions opts({QStringLiteral("LUT=curve.txt"), QStringLiteral("LUT_2=10:20")});
    const Result<std::optional<QByteArray>> def1 = Lut::definitionFor(opts, 1, dir.path());
    QVERIFY2(def1, qPrintable(def1.message()));
    QVERIFY(def1->has_value());
    QCOMPARE(**def1, QByteArray("0:0\n128:255\n"));
    const Result<std::optional<QByteArray>> def2 = Lut::definitionFor(opts, 2, dir.path());
    QVERIFY(def2 && def2->has_value());
    QCOMPARE(**def2, QByteArray("10:20"));
    // No LUT directive: no definition, and no error either.
    const Result<std::optional<QByteArray>> none = Lut::definitionFor(ProcessingOptions({}), 1, dir.path());
    QVERIFY2(none, qPrintable(none.message()));
    QVERIFY(!none->has_value());
    // 2500 bytes is one too many for MapServer's buffer.
    QFile big(dir.filePath(QStringLiteral("big.txt")));
    QVERIFY(big.open(QIODevice::WriteOnly));
    big.write(QByteArray(2500, ' '));
    big.close();
    const Result<std::optional<QByteArray>> big2500 =
        Lut::definitionFor(ProcessingOptions({QStringLiteral("LUT=big.txt")}), 1, dir.path());
    QVERIFY(!big2500);
    QVERIFY(big2500.message().contains(QLatin1String("2499")));
    QVERIFY(!Lut::definitionFor(ProcessingOptions({QStringLiteral("LUT=missing.txt")}), 1, dir.path()));
}

void TestRasterLut::processingWarnings()
{
    const LayerDef l = rasterLayer(QStringLiteral("x.tif"),
                                   {QStringLiteral("LUT1=0:0"), QStringLiteral("SCALE=0,10"), QStringLiteral("scale=1,2")});
    const QStringList w = RasterLayerRenderer::warnings(l);
    QCOMPARE(w.size(), 2);
    QVERIFY(w[0].contains(QLatin1String("LUT1")));
    QVERIFY(w[1].contains(QLatin1String("repeated")));
    // First occurrence wins.
    QCOMPARE(ProcessingOptions(l.processing).value(QStringLiteral("SCALE")).value(), QStringLiteral("0,10"));
}

QTEST_GUILESS_MAIN(TestRasterLut)
#include "test_raster_lut.moc"
