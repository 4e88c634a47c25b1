// Raw band values resampled onto a view (MapServer's raw-data image mode):
// AVERAGE weighs the source pixels under each view pixel by area, no-data
// pixels weigh nothing, NEAREST takes the pixel under the centre.

#include "geo/map_view.h"
#include "mapfile/layer_def.h"
#include "mapfile/processing.h"
#include "raster/raw_band_resampler.h"

#include <gdal.h>

#include <QTest>

using namespace maptune;

namespace {

// 4 x 2 pixels of 1 x 1 over 0..4 x 0..2; band 1 holds 0..7 row by row
// (7 is no-data), band 2 ten times as much.
GDALDatasetH makeRaster()
{
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("MEM"), "", 4, 2, 2, GDT_Float32, nullptr);
    double gt[6] = {0, 1, 0, 2, 0, -1};
    GDALSetGeoTransform(ds, gt);
    float v[8];
    for (int band = 1; band <= 2; ++band) {
        for (int i = 0; i < 8; ++i) v[i] = float(i * (band == 1 ? 1 : 10));
        GDALRasterBandH b = GDALGetRasterBand(ds, band);
        GDALSetRasterNoDataValue(b, band == 1 ? 7 : 70);
        if (GDALRasterIO(b, GF_Write, 0, 0, 4, 2, v, 4, 2, GDT_Float32, 0, 0) != CE_None) return nullptr;
    }
    return ds;
}

// The test raster resampled onto a view of `extent` at w x h pixels.
Result<RawRaster> resample(Resample mode, const Rect& extent, int w, int h)
{
    GDALDatasetH ds = makeRaster();
    if (!ds) return Error(QStringLiteral("cannot make the test raster"));
    const LayerDef layer;
    const ProcessingOptions options(QStringList{});
    GeoTransform gt;
    gt.c = {0, 1, 0, 2, 0, -1};
    MapView view;
    view.extent = extent;
    view.width = w, view.height = h;
    const RawBandsRequest r{ds, {1, 2}, &layer, &options, mode};
    Result<RawRaster> out = RawBandResampler::render(r, gt, Crs(), view);
    GDALClose(ds);
    return out;
}

}  // namespace

class TestRawBandResampler : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { GDALAllRegister(); }

    void averageWeighsByAreaAndSkipsNoData()
    {
        // Two view pixels, each over a 2 x 2 block of the raster.
        const Result<RawRaster> out = resample(Resample::Average, {0, 0, 4, 2}, 2, 1);
        QVERIFY2(out, qPrintable(out.message()));
        QVERIFY(out->isValid(0) && out->isValid(1));
        QCOMPARE(out->bands[0][0], (0.f + 1 + 4 + 5) / 4);
        QCOMPARE(out->bands[1][0], (0.f + 10 + 40 + 50) / 4);
        // The right block's 7 / 70 is no-data: the mean of the other three.
        QCOMPARE(out->bands[0][1], (2.f + 3 + 6) / 3);
    }

    void nearestTakesThePixelUnderTheCentre()
    {
        const Result<RawRaster> out = resample(Resample::Nearest, {0, 0, 4, 2}, 4, 2);
        QVERIFY2(out, qPrintable(out.message()));
        for (int i = 0; i < 7; ++i) QCOMPARE(out->bands[0][size_t(i)], float(i));
        QVERIFY(!out->isValid(7));  // no-data in every band
    }

    void nearlySquarePixelsAreReadAsMapServerReadsThem()
    {
        // Pixels 0.5 % shorter than wide: MapServer fits the loaded rows to
        // the window in x units (#1715), stretching y by 0.995.
        GeoTransform gt;
        gt.c = {0, 1, 0, 100, 0, -0.995};
        MapView view;
        view.extent = {0, 0.5, 100, 100};
        view.width = 10, view.height = 10;
        const PixelTransform t(gt, Crs(), view);
        const ProcessingOptions options(QStringList{});
        const std::optional<LoadPlan> plan = planLoad(t, gt, 100, 100, view, options);
        QVERIFY(plan);
        // The loaded image's geotransform: the window's origin, pixels the
        // window's size over the size read, both in x units (the fit).
        const RasterWindow& w = plan->window;
        QCOMPARE(plan->loadedGt.c[0], double(w.srcX));
        QCOMPARE(plan->loadedGt.c[3], 100 - 0.995 * w.srcY);
        QCOMPARE(plan->loadedGt.c[1], double(w.srcWidth) / w.dstWidth);
        QCOMPARE(plan->loadedGt.c[5], -double(w.srcHeight) / w.dstHeight);
        // Pixels far from square keep their own height.
        gt.c[5] = -0.5;
        const std::optional<LoadPlan> tall = planLoad(PixelTransform(gt, Crs(), view), gt, 100, 200, view, options);
        QVERIFY(tall);
        QCOMPARE(tall->loadedGt.c[5], -0.5 * tall->window.srcWidth / tall->window.dstWidth);
    }

    void outsideTheRasterNothingIsValid()
    {
        const Result<RawRaster> out = resample(Resample::Average, {10, 10, 14, 12}, 2, 1);
        QVERIFY2(out, qPrintable(out.message()));
        QVERIFY(!out->isValid(0) && !out->isValid(1));
    }
};

QTEST_GUILESS_MAIN(TestRawBandResampler)
#include "test_raw_band_resampler.moc"
