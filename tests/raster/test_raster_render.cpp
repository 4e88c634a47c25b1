// Pixel-exact raster layer renders of tiny rasters generated with GDAL:
// nearest-neighbour window reads and resampling, NODATA and OFFSITE, LUTs
// and SCALE applied before them, BANDS, palettes, alpha bands, opacity,
// open errors and reprojection.

#include "geo/crs.h"
#include "geo/map_view.h"
#include "raster/dataset_cache.h"
#include "raster/lut.h"
#include "raster/raster_layer_renderer.h"
#include "raster_test_support.h"

#include <QImage>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <gdal.h>

#include <array>
#include <functional>
#include <optional>

using namespace maptune;
using namespace maptune::rastertest;

namespace {

// A GeoTIFF in `dir` with the given bands (row-major values), geotransform
// (0,1,0,height,0,-1) unless given, optional nodata and colour table.
QString makeTiff(const QString& dir, const QString& name, int w, int h, GDALDataType type,
                 const QList<std::vector<double>>& bands, std::optional<double> nodata = std::nullopt,
                 std::array<double, 6> gt = {0, 1, 0, -1, 0, -1},
                 std::function<void(GDALRasterBandH)> decorate = {})
{
    const QString path = dir + QLatin1Char('/') + name;
    GDALDriverH drv = GDALGetDriverByName("GTiff");
    GDALDatasetH ds = GDALCreate(drv, path.toUtf8().constData(), w, h, int(bands.size()), type, nullptr);
    if (gt[3] == -1) gt[3] = h;
    GDALSetGeoTransform(ds, gt.data());
    for (int b = 0; b < bands.size(); ++b) {
        GDALRasterBandH band = GDALGetRasterBand(ds, b + 1);
        std::vector<double> v = bands[b];
        if (GDALRasterIO(band, GF_Write, 0, 0, w, h, v.data(), w, h, GDT_Float64, 0, 0) != CE_None) return {};
        if (nodata) GDALSetRasterNoDataValue(band, *nodata);
        if (decorate) decorate(band);
    }
    GDALClose(ds);
    return path;
}

MapView edgesView(const Rect& edges, int w, int h)
{
    return makeMapViewFromEdges(edges, w, h, Crs(), QString(), 72);
}

QImage renderLayer(const MapDef& map, const LayerDef& layer, const MapView& view, QRgb background, LayerTrace* traceOut = nullptr)
{
    QImage canvas = blankCanvas(view.width, view.height, background);
    LayerTrace trace;
    const bool ok = RasterLayerRenderer::render(map, layer, view, canvas, trace, CancelToken());
    if (!ok) qWarning() << trace.error;
    if (traceOut) *traceOut = trace;
    return ok ? canvas.convertToFormat(QImage::Format_ARGB32) : QImage();
}

}  // namespace

class TestRasterRender : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { GDALAllRegister(); }
    void cleanup() { DatasetCache::clear(); }

    void nearestUpsampling();
    void nearestDownsampling();
    void partialOverlapAndOffset();
    void fileNoDataIsTransparent();
    void noDataOffAndOverride();
    void offsiteRgb();
    void rgbLutBeforeOffsiteAndNoData();
    void bandsReorder();
    void scaleMinMax();
    void scaleThenLut();
    void lut16BitRender();
    void paletteRaster();
    void alphaBand();
    void layerOpacity();
    void resampledHalfTransparentAsMapServer_data();
    void resampledHalfTransparentAsMapServer();
    void resampledLastRowOnTheRasterEdge();
    void openErrorNamesLayerAndFile();
    void reprojectionKeepsPlaces();
};

void TestRasterRender::nearestUpsampling()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("g.tif"), 4, 2, GDT_Byte, {{0, 10, 20, 30, 40, 50, 60, 70}});
    MapDef map;
    const QImage img = renderLayer(map, rasterLayer(path), edgesView({0, 0, 4, 2}, 8, 4), qRgb(255, 0, 0));
    QVERIFY(!img.isNull());
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 8; ++x) {
            const int v = (y / 2) * 40 + (x / 2) * 10;
            QCOMPARE(img.pixel(x, y), qRgb(v, v, v));
        }
}

void TestRasterRender::nearestDownsampling()
{
    // 8x2 -> 4x1: the output pixel centre x+0.5 maps to source 2x+1.
    QTemporaryDir dir;
    std::vector<double> v;
    for (int i = 0; i < 16; ++i) v.push_back(i * 10);
    const QString path = makeTiff(dir.path(), QStringLiteral("g.tif"), 8, 2, GDT_Byte, {v});
    MapDef map;
    const QImage img = renderLayer(map, rasterLayer(path), edgesView({0, 0, 8, 2}, 4, 1), qRgb(255, 0, 0));
    QVERIFY(!img.isNull());
    for (int x = 0; x < 4; ++x) QCOMPARE(qRed(img.pixel(x, 0)), int(v[size_t(8 + 2 * x + 1)]));
}

void TestRasterRender::partialOverlapAndOffset()
{
    // Raster covers x 2..4 of a 0..4 view: left half keeps the background.
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("g.tif"), 2, 2, GDT_Byte, {{100, 100, 100, 100}},
                                  std::nullopt, {2, 1, 0, 2, 0, -1});
    MapDef map;
    const QImage img = renderLayer(map, rasterLayer(path), edgesView({0, 0, 4, 2}, 4, 2), qRgb(255, 0, 0));
    QCOMPARE(img.pixel(0, 0), qRgb(255, 0, 0));
    QCOMPARE(img.pixel(1, 1), qRgb(255, 0, 0));
    QCOMPARE(img.pixel(2, 0), qRgb(100, 100, 100));
    QCOMPARE(img.pixel(3, 1), qRgb(100, 100, 100));
}

void TestRasterRender::fileNoDataIsTransparent()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("g.tif"), 2, 1, GDT_Byte, {{3, 9}}, 3.0);
    MapDef map;
    const QImage img = renderLayer(map, rasterLayer(path), edgesView({0, 0, 2, 1}, 2, 1), qRgb(0, 0, 255));
    QCOMPARE(img.pixel(0, 0), qRgb(0, 0, 255));
    QCOMPARE(img.pixel(1, 0), qRgb(9, 9, 9));
}

void TestRasterRender::noDataOffAndOverride()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("g.tif"), 2, 1, GDT_Byte, {{3, 9}}, 3.0);
    MapDef map;
    const MapView view = edgesView({0, 0, 2, 1}, 2, 1);
    QImage img = renderLayer(map, rasterLayer(path, {QStringLiteral("NODATA=OFF")}), view, qRgb(0, 0, 255));
    QCOMPARE(img.pixel(0, 0), qRgb(3, 3, 3));
    img = renderLayer(map, rasterLayer(path, {QStringLiteral("NODATA=9")}), view, qRgb(0, 0, 255));
    QCOMPARE(img.pixel(0, 0), qRgb(3, 3, 3));
    QCOMPARE(img.pixel(1, 0), qRgb(0, 0, 255));
}

void TestRasterRender::offsiteRgb()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("rgb.tif"), 2, 1, GDT_Byte, {{10, 1}, {20, 2}, {30, 3}});
    MapDef map;
    LayerDef l = rasterLayer(path);
    l.offsite = Color::rgb(10, 20, 30);
    const QImage img = renderLayer(map, l, edgesView({0, 0, 2, 1}, 2, 1), qRgb(0, 255, 0));
    QCOMPARE(img.pixel(0, 0), qRgb(0, 255, 0));
    QCOMPARE(img.pixel(1, 0), qRgb(1, 2, 3));
}

namespace {

// The piecewise ramps of LUT "100:30,160:128,210:200" (implicit 0:0 and 255:255).
int rampLut(int v)
{
    if (v <= 100) return ramp(v, 0, 0, 100, 30);
    if (v <= 160) return ramp(v, 100, 30, 160, 128);
    if (v <= 210) return ramp(v, 160, 128, 210, 200);
    return ramp(v, 210, 200, 255, 255);
}

}  // namespace

// OFFSITE and NODATA compare with the values after the LUT, which is applied
// inside the compose loop.
void TestRasterRender::rgbLutBeforeOffsiteAndNoData()
{
    const int w = 100, h = 3, n = w * h;
    std::vector<double> r(n), g(n), b(n);
    for (int k = 0; k < n; ++k) r[k] = (k * 7) % 256, g[k] = (k * 13 + 5) % 256, b[k] = 255 - k % 256;
    QTemporaryDir dir;
    const QString rgb = makeTiff(dir.path(), QStringLiteral("rgb.tif"), w, h, GDT_Byte, {r, g, b});
    MapDef map;
    const MapView view = edgesView({0, 0, double(w), double(h)}, w, h);
    const QRgb bg = qRgb(0, 255, 0);

    // LUT_1 as above, LUT_2 "128:196" ramps to 196 then to 255, LUT_3 inverts.
    const auto lut2 = [](int v) { return v <= 128 ? ramp(v, 0, 0, 128, 196) : ramp(v, 128, 196, 255, 255); };
    const auto lut3 = [](int v) { return ramp(v, 0, 255, 255, 0); };
    const auto after = [&](int k) { return qRgb(rampLut(int(r[k])), lut2(int(g[k])), lut3(int(b[k]))); };
    LayerDef l = rasterLayer(rgb, {QStringLiteral("LUT_1=100:30,160:128,210:200"), QStringLiteral("LUT_2=128:196"),
                                   QStringLiteral("LUT_3=0:255,255:0")});
    const QRgb off = after(10);
    l.offsite = Color::rgb(qRed(off), qGreen(off), qBlue(off));
    QImage img = renderLayer(map, l, view, bg);
    QCOMPARE(img.size(), QSize(w, h));
    for (int k = 0; k < n; ++k)
        QCOMPARE(img.pixel(k % w, k / w), after(k) == off ? bg : after(k));
    QCOMPARE(img.pixel(10, 0), bg);

    // Grey in all three bands, one LUT: NODATA=30 drops input 100 (LUT 30),
    // not input 30 (LUT 9).
    std::vector<double> grey(n);
    for (int k = 0; k < n; ++k) grey[k] = k % 256;
    const QString greyPath = makeTiff(dir.path(), QStringLiteral("grey3.tif"), w, h, GDT_Byte, {grey, grey, grey});
    img = renderLayer(map, rasterLayer(greyPath, {QStringLiteral("LUT=100:30,160:128,210:200"), QStringLiteral("NODATA=30")}),
                      view, bg);
    for (int k = 0; k < n; ++k) {
        const int v = rampLut(k % 256);
        QCOMPARE(img.pixel(k % w, k / w), v == 30 ? bg : qRgb(v, v, v));
    }
    QCOMPARE(img.pixel(0, 1), bg);  // input 100
    QCOMPARE(img.pixel(30, 0), qRgb(9, 9, 9));
}

void TestRasterRender::bandsReorder()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("rgb.tif"), 1, 1, GDT_Byte, {{10}, {20}, {30}});
    MapDef map;
    const QImage img = renderLayer(map, rasterLayer(path, {QStringLiteral("BANDS=3,2,1")}), edgesView({0, 0, 1, 1}, 1, 1),
                                   qRgb(0, 0, 0));
    QCOMPARE(img.pixel(0, 0), qRgb(30, 20, 10));
    // BANDS=2 alone renders band 2 as grey.
    const QImage grey = renderLayer(map, rasterLayer(path, {QStringLiteral("BANDS=2")}), edgesView({0, 0, 1, 1}, 1, 1),
                                    qRgb(0, 0, 0));
    QCOMPARE(grey.pixel(0, 0), qRgb(20, 20, 20));
    // An illegal band is an error naming the directive.
    QImage canvas = blankCanvas(1, 1);
    LayerTrace trace;
    QVERIFY(!RasterLayerRenderer::render(map, rasterLayer(path, {QStringLiteral("BANDS=4")}), edgesView({0, 0, 1, 1}, 1, 1),
                                         canvas, trace, CancelToken()));
    QVERIFY(trace.error.contains(QLatin1String("BANDS")));
}

void TestRasterRender::scaleMinMax()
{
    // v = (x - min) * 256 / (max - min), clamped to 0..255, truncated.
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("u16.tif"), 4, 1, GDT_UInt16, {{200, 500, 900, 100}});
    MapDef map;
    const QImage img = renderLayer(map, rasterLayer(path, {QStringLiteral("SCALE=200,900")}), edgesView({0, 0, 4, 1}, 4, 1),
                                   qRgb(255, 0, 0));
    QCOMPARE(qRed(img.pixel(0, 0)), 0);
    QCOMPARE(qRed(img.pixel(1, 0)), int((500 - 200) * 256.0 / 700));  // 109
    QCOMPARE(qRed(img.pixel(2, 0)), 255);                              // 256 clamps
    QCOMPARE(qRed(img.pixel(3, 0)), 0);                                // negative clamps
    // SCALE=AUTO takes min/max of the window: 100 -> 0, 900 -> 255.
    const QImage autoImg = renderLayer(map, rasterLayer(path, {QStringLiteral("SCALE=AUTO")}),
                                       edgesView({0, 0, 4, 1}, 4, 1), qRgb(255, 0, 0));
    QCOMPARE(qRed(autoImg.pixel(3, 0)), 0);
    QCOMPARE(qRed(autoImg.pixel(2, 0)), 255);
    QCOMPARE(qRed(autoImg.pixel(1, 0)), int((500 - 100) * 256.0 / 800));  // 128
}

void TestRasterRender::scaleThenLut()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("f.tif"), 2, 1, GDT_Float32, {{15, 30}});
    MapDef map;
    // SCALE=0,60: 15 -> 64, 30 -> 128; then LUT 0:0,127:255 -> 64 -> ramp, 128 -> 255 (end ramp from 255).
    const QImage img = renderLayer(map, rasterLayer(path, {QStringLiteral("SCALE=0,60"), QStringLiteral("LUT_1=0:0,127:255")}),
                                   edgesView({0, 0, 2, 1}, 2, 1), qRgb(255, 0, 0));
    QCOMPARE(qRed(img.pixel(0, 0)), ramp(64, 0, 0, 127, 255));
    QCOMPARE(qRed(img.pixel(1, 0)), 255);
}

void TestRasterRender::lut16BitRender()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("u16.tif"), 3, 1, GDT_UInt16, {{0, 2048, 4095}});
    MapDef map;
    const MapView view = edgesView({0, 0, 3, 1}, 3, 1);
    const QImage img = renderLayer(map, rasterLayer(path, {QStringLiteral("LUT=0:0,4095:255")}), view, qRgb(255, 0, 0));
    QCOMPARE(qRed(img.pixel(0, 0)), 0);
    QCOMPARE(qRed(img.pixel(1, 0)), ramp(2048, 0, 0, 4095, 255));
    QCOMPARE(qRed(img.pixel(2, 0)), 255);
    // Without a 16-bit LUT the data is read as Byte: 2048 saturates.
    const QImage sat = renderLayer(map, rasterLayer(path), view, qRgb(255, 0, 0));
    QCOMPARE(qRed(sat.pixel(1, 0)), 255);
}

void TestRasterRender::paletteRaster()
{
    QTemporaryDir dir;
    // TIFF palettes carry no alpha: index 2 is made transparent as NODATA.
    const QString path = makeTiff(dir.path(), QStringLiteral("pal.tif"), 3, 1, GDT_Byte, {{0, 1, 2}}, 2.0,
                                  {0, 1, 0, -1, 0, -1}, [](GDALRasterBandH band) {
                                      GDALColorTableH ct = GDALCreateColorTable(GPI_RGB);
                                      const GDALColorEntry e0{255, 0, 0, 255}, e1{0, 0, 255, 255}, e2{0, 0, 0, 0};
                                      GDALSetColorEntry(ct, 0, &e0);
                                      GDALSetColorEntry(ct, 1, &e1);
                                      GDALSetColorEntry(ct, 2, &e2);
                                      GDALSetRasterColorTable(band, ct);
                                      GDALDestroyColorTable(ct);
                                  });
    MapDef map;
    const QImage img = renderLayer(map, rasterLayer(path), edgesView({0, 0, 3, 1}, 3, 1), qRgb(0, 255, 0));
    QCOMPARE(img.pixel(0, 0), qRgb(255, 0, 0));
    QCOMPARE(img.pixel(1, 0), qRgb(0, 0, 255));
    QCOMPARE(img.pixel(2, 0), qRgb(0, 255, 0));  // nodata entry: transparent
}

void TestRasterRender::alphaBand()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("rgba.tif"), 2, 1, GDT_Byte, {{200, 200}, {0, 0}, {0, 0}, {255, 0}},
                                  std::nullopt, {0, 1, 0, -1, 0, -1}, [](GDALRasterBandH band) {
                                      if (GDALGetBandNumber(band) == 4) GDALSetRasterColorInterpretation(band, GCI_AlphaBand);
                                  });
    MapDef map;
    const QImage img = renderLayer(map, rasterLayer(path), edgesView({0, 0, 2, 1}, 2, 1), qRgb(0, 0, 255));
    QCOMPARE(img.pixel(0, 0), qRgb(200, 0, 0));
    QCOMPARE(img.pixel(1, 0), qRgb(0, 0, 255));
}

void TestRasterRender::layerOpacity()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("g.tif"), 1, 1, GDT_Byte, {{0}});
    MapDef map;
    LayerDef l = rasterLayer(path);
    l.composites.append(LayerCompositeDef{50, QString()});
    const QImage img = renderLayer(map, l, edgesView({0, 0, 1, 1}, 1, 1), qRgb(255, 255, 255));
    QVERIFY(qAbs(qRed(img.pixel(0, 0)) - 128) <= 1);
}

// Resampling blends onto the map with MapServer's arithmetic: nearest and
// bilinear weigh the premultiplied colour by its alpha again
// (msAlphaBlendPM), average blends it once (msAlphaBlend). Values from
// Debian's MapServer 8 over the same raster.
void TestRasterRender::resampledHalfTransparentAsMapServer_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QRgb>("expected");
    QTest::newRow("nearest") << "NEAREST" << qRgb(190, 126, 126);
    QTest::newRow("bilinear") << "BILINEAR" << qRgb(190, 126, 126);
    QTest::newRow("average") << "AVERAGE" << qRgb(255, 127, 127);
}

void TestRasterRender::resampledHalfTransparentAsMapServer()
{
    QFETCH(QString, mode);
    QFETCH(QRgb, expected);
    QTemporaryDir dir;
    const std::vector<double> red(16, 255), zero(16, 0), alpha(16, 128);
    const QString path = makeTiff(dir.path(), QStringLiteral("half.tif"), 4, 4, GDT_Byte, {red, zero, zero, alpha},
                                  std::nullopt, {0, 1, 0, -1, 0, -1}, [](GDALRasterBandH band) {
                                      if (GDALGetBandNumber(band) == 4) GDALSetRasterColorInterpretation(band, GCI_AlphaBand);
                                  });
    MapDef map;
    const QImage img = renderLayer(map, rasterLayer(path, {QStringLiteral("RESAMPLE=") + mode}), edgesView({1, 1, 3, 3}, 4, 4),
                                   qRgb(255, 255, 255));
    QCOMPARE(img.pixel(1, 1), expected);
}

// A map row whose centre falls on the raster's last edge: drawn or not on
// the side MapServer's transform puts it (misc/runtime_sub, 30 x 30 over 0..300).
void TestRasterRender::resampledLastRowOnTheRasterEdge()
{
    QTemporaryDir dir;
    const QString path = makeTiff(dir.path(), QStringLiteral("grey.tif"), 400, 300, GDT_Byte, {std::vector<double>(400 * 300, 50)});
    MapDef map;
    const MapView view = makeMapViewFromCenterExtent({0, 0, 300, 300}, 30, 30, Crs(), QStringLiteral("METERS"), 72);
    const QImage img = renderLayer(map, rasterLayer(path, {QStringLiteral("RESAMPLE=NEAREST")}), view, qRgb(255, 255, 255));
    QCOMPARE(img.pixel(5, 29), qRgb(50, 50, 50));  // the bottom row's centre lies on y = 0
    QCOMPARE(img.pixel(0, 5), qRgb(255, 255, 255));  // the left column's centre lies on x = 0: left out
}

void TestRasterRender::openErrorNamesLayerAndFile()
{
    MapDef map;
    LayerDef l = rasterLayer(QStringLiteral("data/missing.tif"));
    l.name = QStringLiteral("ortho");
    QImage canvas = blankCanvas(4, 4);
    LayerTrace trace;
    QVERIFY(!RasterLayerRenderer::render(map, l, edgesView({0, 0, 4, 4}, 4, 4), canvas, trace, CancelToken()));
    QVERIFY2(trace.error.startsWith(QLatin1String("layer 'ortho': cannot open data/missing.tif")), qPrintable(trace.error));
}

void TestRasterRender::reprojectionKeepsPlaces()
{
    // A lon/lat raster with a white pixel at lon 10..11, lat 50..51 drawn into
    // UTM 32N: the pixel must land where PROJ puts (10.5, 50.5).
    QTemporaryDir dir;
    std::vector<double> v(20 * 20, 0);
    v[size_t(9 * 20 + 10)] = 255;  // row 9 = lat 51..50 when origin lat 60
    const QString path = makeTiff(dir.path(), QStringLiteral("ll.tif"), 20, 20, GDT_Byte, {v}, std::nullopt,
                                  {0, 1, 0, 60, 0, -1});
    const auto utm = Crs::fromUserInput(QStringLiteral("EPSG:32632"));
    QVERIFY(utm);
    MapDef map;
    LayerDef l = rasterLayer(path);
    l.projection.args = QStringList{QStringLiteral("init=epsg:4326")};
    // (10.5E, 50.5N) is (606379.3, 5595300.0) in UTM 32N (PROJ); 1 km pixels around it.
    const MapView view = makeMapViewFromEdges({556379, 5545300, 656379, 5645300}, 100, 100, *utm, QString(), 72);
    const QImage img = renderLayer(map, l, view, qRgb(255, 0, 0));
    QVERIFY(!img.isNull());
    QCOMPARE(qRed(img.pixel(50, 50)), 255);
    QCOMPARE(qGreen(img.pixel(50, 50)), 255);
    QCOMPARE(qGreen(img.pixel(5, 5)), 0);
}

QTEST_GUILESS_MAIN(TestRasterRender)
#include "test_raster_render.moc"
