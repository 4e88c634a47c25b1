// MapServer's own msautotest/gdal renders (the shared conformance corpus,
// when present) drawn by RasterLayerRenderer and compared with MapServer's
// expected images: at most 1% of the pixels may differ by more than 16.

#include "geo/crs.h"
#include "geo/map_view.h"
#include "raster/dataset_cache.h"
#include "raster/raster_layer_renderer.h"
#include "raster_test_support.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QtTest>

#include <gdal.h>

using namespace maptune;
using namespace maptune::rastertest;

namespace {

struct ConfLayer {
    QString data;
    QStringList processing;
    Color offsite;
    QStringList projection;
    double opacity = 100;
    Rect extent;
    QString tileIndex;
    QString tileSrs;
    QList<std::pair<QString, QString>> connectionOptions;
    QList<StyleDef> rangeStyles;  // one class holding these COLORRANGE styles
    QList<ClassDef> classes;
};

struct ConfCase {
    int width, height;
    Rect extent;
    Color background;
    bool transparent;
    QStringList projection;
    QList<ConfLayer> layers;
};

StyleDef range(Color from, Color to, double min, double max)
{
    StyleDef s;
    s.hasRange = true;
    s.colorRangeMin = from;
    s.colorRangeMax = to;
    s.dataRangeMin = min;
    s.dataRangeMax = max;
    return s;
}

ClassDef exprClass(const char* logical, Color color)
{
    ClassDef c;
    c.expression = {ExpressionDef::Type::Logical, QString::fromLatin1(logical)};
    StyleDef s;
    s.color.color = color;
    c.styles.append(s);
    return c;
}

QList<ClassDef> threeClasses(const char* a, const char* b, const char* c)
{
    return {exprClass(a, Color::rgb(255, 0, 0)), exprClass(b, Color::rgb(0, 255, 0)), exprClass(c, Color::rgb(0, 0, 255))};
}

QString conformanceDir()
{
    return QStringLiteral(MAPTUNE_SOURCE_DIR "/../shared/conformance/msautotest/gdal");
}

}  // namespace

Q_DECLARE_METATYPE(ConfCase)

class TestRasterConformance : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { GDALAllRegister(); }
    void cleanup() { DatasetCache::clear(); }

    void conformance_data();
    void conformance();
};

void TestRasterConformance::conformance_data()
{
    QTest::addColumn<ConfCase>("c");
    const Color yellow = Color::rgb(255, 255, 0);
    const Rect std400{0.5, 0.5, 399.5, 299.5};
    const auto one = [](QString data, QStringList proc = {}) { ConfLayer l; l.data = data; l.processing = proc; return l; };
    const QStringList utm11{QStringLiteral("+proj=utm +zone=11 +datum=WGS84")};
    const QStringList utm12{QStringLiteral("proj=utm"), QStringLiteral("zone=12"), QStringLiteral("datum=WGS84")};
    const QStringList utm12ell{QStringLiteral("proj=utm"), QStringLiteral("zone=12"), QStringLiteral("ellps=WGS84")};
    const QStringList utm12shift{QStringLiteral("proj=utm"), QStringLiteral("zone=12"), QStringLiteral("ellps=WGS84"),
                                 QStringLiteral("towgs84=1,0,0")};
    const QStringList ll{QStringLiteral("init=epsg:4326")};

    QTest::newRow("5band") << ConfCase{400, 300, std400, yellow, true, {}, {one("data/5band.vrt")}};
    {
        ConfLayer a = one("data/rgba.tif");
        a.offsite = Color::rgb(111, 222, 111);
        QTest::newRow("alpha_on_alpha_overlay") << ConfCase{400, 300, std400, yellow, true, {}, {a, a}};
    }
    QTest::newRow("average_rgb") << ConfCase{12, 9, std400, yellow, false, {}, {one("data/rgb.tif", {"RESAMPLE=AVERAGE"})}};
    QTest::newRow("bilinear_src_transp")
        << ConfCase{400, 40, {0.5, 1.5, 39.5, 2.5}, Color::rgb(0, 0, 0), true, {}, {one("data/leftredrighttransp.tif", {"RESAMPLE=BILINEAR"})}};
    QTest::newRow("grayalpha") << ConfCase{400, 300, std400, yellow, false, {}, {one("data/pct22.tif"), one("data/greyalpha.vrt")}};
    QTest::newRow("simplealpha") << ConfCase{400, 300, std400, yellow, true, {}, {one("data/greyalpha.vrt")}};
    QTest::newRow("lut_1_crv") << ConfCase{400, 300, std400, yellow, false, {}, {one("data/grey.tif", {"LUT=data/munich_1.crv"})}};
    QTest::newRow("lut_rgb_crv") << ConfCase{400, 300, std400, yellow, false, {}, {one("data/rgb.tif", {"LUT=data/munich_rgb.crv"})}};
    QTest::newRow("lut_float") << ConfCase{400, 300, std400, yellow, false, {}, {one("data/float.tif", {"SCALE=0,60", "LUT_1=0:0,127:255"})}};
    QTest::newRow("lut_inline") << ConfCase{400, 300, std400, yellow, false, {},
                                           {one("data/rgb.tif", {"LUT_1=100:30,160:128,210:200", "LUT_2=128:196"})}};
    QTest::newRow("lut_inline_12bits")
        << ConfCase{400, 300, std400, yellow, false, {},
                    {one("data/rgb_12bit.tif", {"LUT_1=1605:30,2569:128,3372:200,4095:255", "LUT_2=2055:196,4095:255", "LUT_3=0:0,4095:255"})}};
    QTest::newRow("mask_1") << ConfCase{200, 200, {0, 0, 19, 19}, Color::rgb(255, 0, 0), false, {}, {one("data/test_with_mask_1bit.tif")}};
    QTest::newRow("nodata_8bit") << ConfCase{200, 150, std400, yellow, false, {}, {one("data/pct22.tif", {"NODATA=22"})}};
    {
        ConfLayer l = one("data/red_square.tif");
        l.projection = ll;
        QTest::newRow("nodata_rgb") << ConfCase{100, 100, {0, -90, 180, 90}, Color::rgb(255, 255, 255), false, ll, {l}};
        l.connectionOptions = {{QStringLiteral("OVERVIEW_LEVEL"), QStringLiteral("0")}};
        QTest::newRow("connectionoptions") << ConfCase{100, 100, {0, -90, 180, 90}, Color::rgb(255, 255, 255), false, ll, {l}};
    }
    QTest::newRow("nodata_scaled") << ConfCase{200, 150, std400, yellow, false, {}, {one("data/float.tif", {"SCALE=AUTO", "NODATA=-10"})}};
    {
        ConfLayer l = one("data/grey.tif");
        l.offsite = Color::rgb(255, 255, 255);
        QTest::newRow("offsite_8bitgrey") << ConfCase{200, 150, std400, yellow, false, {}, {l}};
        ConfLayer p = one("data/pct22.tif");
        p.offsite = Color::rgb(184, 184, 184);
        QTest::newRow("offsite_pct_rgb") << ConfCase{400, 300, std400, yellow, false, {}, {p}};
    }
    QTest::newRow("processing_bands") << ConfCase{400, 300, std400, yellow, true, {}, {one("data/rgba.tif", {"BANDS=4,4,4,4"})}};
    QTest::newRow("processing_scale_auto") << ConfCase{400, 300, std400, yellow, false, {}, {one("data/float.tif", {"SCALE=AUTO"})}};
    {
        ConfLayer l = one("data/rgb16.tif", {"SCALE=200,900"});
        l.offsite = Color::rgb(111, 222, 111);
        QTest::newRow("rgb_16bit") << ConfCase{400, 300, std400, yellow, false, {}, {l}};
    }
    {
        ConfLayer back = one("data/rgba.tif");
        ConfLayer grid = one("data/grid.gif");
        grid.opacity = 33;
        QTest::newRow("trlay1") << ConfCase{400, 300, std400, yellow, false, {}, {back, grid}};
    }
    QTest::newRow("unclassified") << ConfCase{400, 300, std400, yellow, true, {}, {one("data/rgba.tif", {"BANDS=1,2,3", "USE_MASK_BAND=NO"})}};
    QTest::newRow("wld_upsidedown") << ConfCase{200, 150, {1, 1, 399, 299}, yellow, false, {}, {one("data/grey_upsidedown.tif")}};
    {
        ConfLayer l = one("data/grey_rot.tif");
        l.projection = utm12ell;
        QTest::newRow("wld_rotate") << ConfCase{200, 200, {1, 1, 459, 459}, yellow, false, utm12, {l}};
        l.processing = QStringList{"EXTENT_PRIORITY=WORLD", "WORLDFILE=data/grey.wld"};
        QTest::newRow("wld_override") << ConfCase{200, 200, {1, 1, 459, 459}, yellow, false, utm12, {l}};
    }
    {
        ConfLayer l = one("data/grey_raw.tif");
        l.projection = QStringList{QStringLiteral("proj=latlong"), QStringLiteral("datum=WGS84")};
        l.extent = {-117, 34, -116.6, 34.3};
        QTest::newRow("reproj") << ConfCase{200, 200, {500001, 3762155.98, 536808.88, 3795492.60}, yellow, false,
                                            {QStringLiteral("proj=utm"), QStringLiteral("zone=11"), QStringLiteral("datum=WGS84")}, {l}};
    }
    {
        ConfLayer a = one("data/pct22.tif");
        a.projection = utm12shift;
        ConfLayer b = one("data/rgb.tif");
        b.projection = utm12shift;
        b.offsite = Color::rgb(111, 222, 111);
        QTest::newRow("rgb_overlay_res") << ConfCase{400, 300, std400, yellow, false, utm12, {a, b}};
    }
    {
        ConfLayer l;
        l.tileIndex = QStringLiteral("data/tile_index.shp");
        l.projection = QStringList{QStringLiteral("+proj=latlong +datum=WGS84")};
        QTest::newRow("tileindex") << ConfCase{400, 300, {0.5, 0.5, 79.5, 59.5}, yellow, false, l.projection, {l}};
        // Not yet matching MapServer (kept out): lon_wrap_180, nonsquare,
        // rot_out (need the map renderer's scalebar / rotation).
    }
    {
        // A tile whose TILESRS value is empty is read in its own SRS.
        ConfLayer l;
        l.tileIndex = QStringLiteral("data/tile_index_mixed_srs.shp");
        l.tileSrs = QStringLiteral("src_srs");
        l.projection = QStringList{QStringLiteral("+proj=latlong +datum=WGS84")};
        QTest::newRow("tileindexmixedsrs") << ConfCase{100, 100, {440720, 3745320, 446720, 3751320}, Color::rgb(0, 0, 0), false,
                                                       QStringList{QStringLiteral("+init=epsg:26711")}, {l}};
        // Half-transparent pixels resampled bilinearly, blended as msAlphaBlendPM does.
        const QStringList wgs84{QStringLiteral("+init=epsg:4326")};
        ConfLayer east = one("data/east.tif", {"RESAMPLE=BILINEAR"});
        east.projection = wgs84;
        ConfLayer west = one("data/west.tif", {"RESAMPLE=BILINEAR"});
        west.projection = wgs84;
        QTest::newRow("bilinear_left_right")
            << ConfCase{32, 320, {-3.515625, -35.15625, 3.515625, 35.15625}, Color::rgb(255, 255, 255), false, wgs84, {east, west}};
    }
    {
        ConfLayer g1 = one("data/grey.tif");
        g1.rangeStyles = {range(Color::rgb(255, 0, 0), Color::rgb(0, 0, 255), 100, 255)};
        ConfLayer g2 = one("data/grey.tif");
        g2.rangeStyles = {range(Color::rgb(255, 0, 0), Color::rgb(0, 255, 0), 0, 200),
                          range(Color::rgb(0, 255, 0), Color::rgb(0, 0, 255), 200, 255)};
        // RUN_PARMS draws grid1 only (-l grid1).
        Q_UNUSED(g2);
        QTest::newRow("class8_range") << ConfCase{400, 300, std400, yellow, true, {}, {g1}};
        ConfLayer f = one("data/float.tif", {"SCALE=-10.001,28.001"});
        f.rangeStyles = {range(Color::rgb(0, 0, 0), Color::rgb(255, 0, 0), -10, 14),
                         range(Color::rgb(255, 0, 0), Color::rgb(255, 255, 0), 14, 28)};
        QTest::newRow("class16_range") << ConfCase{400, 300, std400, yellow, true, {}, {f}};
    }
    {
        const auto cls = threeClasses("[pixel] < -3", "[pixel] >= -3 and [pixel] < 3", "[pixel] >= 3");
        ConfLayer f = one("data/float.tif");
        f.classes = cls;
        QTest::newRow("class16") << ConfCase{400, 300, std400, yellow, true, {}, {f}};
        ConfLayer i = one("data/int16.vrt", {"SCALE=-10.5,10.5", "SCALE_BUCKETS=4"});
        i.classes = cls;
        QTest::newRow("class16_intoddscale") << ConfCase{400, 300, std400, yellow, true, {}, {i}};
        ConfLayer n = one("data/float.tif", {"NODATA=-6", "SCALE=-100.5,100.5", "SCALE_BUCKETS=201"});
        n.classes = cls;
        QTest::newRow("class16_ndmap") << ConfCase{400, 300, std400, yellow, true, {}, {n}};
        ConfLayer s = one("data/float.tif", {"SCALE=0,28", "SCALE_BUCKETS=256", "CLASSIFY_SCALED=TRUE"});
        s.classes = threeClasses("[pixel] < 50", "[pixel] >=50 and [pixel] < 150", "[pixel] > 150");
        QTest::newRow("class16_classify_scaled") << ConfCase{400, 300, std400, yellow, true, {}, {s}};
        ConfLayer g = one("data/grid.gif");
        g.classes = {exprClass("[pixel] == 0", Color{-255, -255, -255, 255}), exprClass("[pixel] == 2", Color::rgb(0, 255, 0)),
                     exprClass("[red] == 96 and [green] == 32 and [blue] == 32", Color::rgb(255, 0, 0))};
        QTest::newRow("classtest1") << ConfCase{400, 300, std400, yellow, true, {}, {g}};
        ConfLayer h = one("data/rgb.tif");
        h.classes = {exprClass("[pixel] == 111", Color::rgb(255, 0, 0))};
        QTest::newRow("classtest2") << ConfCase{400, 300, std400, yellow, false, {}, {h}};
    }
}

void TestRasterConformance::conformance()
{
    QFETCH(ConfCase, c);
    const QString dir = conformanceDir();
    if (!QFileInfo::exists(dir)) QSKIP("the MapServer conformance corpus (../shared/conformance) is not present");
    const QString name = QString::fromLatin1(QTest::currentDataTag());
    MapDef map;
    map.path = dir + QLatin1Char('/') + name + QStringLiteral(".map");
    Crs crs;
    if (!c.projection.isEmpty()) {
        ProjectionDef p;
        p.args = c.projection;
        crs = Crs::fromProjection(p).value();
    }
    const MapView view = makeMapViewFromCenterExtent(c.extent, c.width, c.height, crs, QString(), 72);
    const QRgb bg = qRgba(c.background.r, c.background.g, c.background.b, c.transparent ? 0 : 255);
    QImage canvas = blankCanvas(c.width, c.height, bg);
    for (const ConfLayer& cl : c.layers) {
        LayerDef l = rasterLayer(cl.data, cl.processing);
        l.offsite = cl.offsite;
        l.projection.args = cl.projection;
        l.extent = cl.extent;
        l.tileIndex = cl.tileIndex;
        l.tileSrs = cl.tileSrs;
        for (const auto& [k, v] : cl.connectionOptions) l.connectionOptions.set(k, v);
        if (cl.opacity < 100) l.composites.append(LayerCompositeDef{cl.opacity, QString()});
        l.classes = cl.classes;
        if (!cl.rangeStyles.isEmpty()) {
            ClassDef cls;
            cls.styles = cl.rangeStyles;
            l.classes.append(cls);
        }
        LayerTrace trace;
        QVERIFY2(RasterLayerRenderer::render(map, l, view, canvas, trace, CancelToken()), qPrintable(trace.error));
    }
    const QImage actual = canvas.convertToFormat(QImage::Format_ARGB32);
    const QImage expected = QImage(dir + QStringLiteral("/expected/") + name + QStringLiteral(".png"))
                                .convertToFormat(QImage::Format_ARGB32);
    QVERIFY(!expected.isNull());
    QCOMPARE(actual.size(), expected.size());
    int bad = 0;
    for (int y = 0; y < actual.height(); ++y)
        for (int x = 0; x < actual.width(); ++x) {
            const QRgb a = actual.pixel(x, y), e = expected.pixel(x, y);
            if (qAlpha(a) == 0 && qAlpha(e) == 0) continue;
            if (qAbs(qRed(a) - qRed(e)) > 16 || qAbs(qGreen(a) - qGreen(e)) > 16 || qAbs(qBlue(a) - qBlue(e)) > 16
                || qAbs(qAlpha(a) - qAlpha(e)) > 16)
                ++bad;
        }
    const double ratio = double(bad) / (actual.width() * actual.height());
    if (ratio > 0.01) {
        const QString out = QStringLiteral(MAPTUNE_BINARY_DIR "/raster-conformance");
        QDir().mkpath(out);
        actual.save(out + QLatin1Char('/') + name + QStringLiteral(".png"));
    }
    QVERIFY2(ratio <= 0.01, qPrintable(QStringLiteral("%1 of %2 pixels differ (actual written to build dir)")
                                           .arg(bad)
                                           .arg(actual.width() * actual.height())));
}

QTEST_GUILESS_MAIN(TestRasterConformance)
#include "test_raster_conformance.moc"
