#include "raster/raster_resampler.h"

#include "geo/map_view.h"
#include "mapfile/processing.h"
#include "raster/resample_plan.h"
#include "trace/trace.h"

#include <gdal.h>

#include <QPainter>

#include <cmath>
#include <vector>

namespace maptune {

namespace {

// msAlphaBlendPM onto a canvas pixel: the source is premultiplied, yet
// MapServer weighs it by its alpha once more -- a half-transparent raster
// comes out darker than src-over would paint it, and so it does here.
inline void blendPremultiplied(QRgb& dst, int r, int g, int b, int a)
{
    if (a <= 0) return;
    if (a >= 255) {
        dst = qRgba(r, g, b, 255);
        return;
    }
    const int da = qAlpha(dst);
    if (da == 0) {
        dst = qRgba(r, g, b, a);
        return;
    }
    const int w = 255 - a;
    dst = qRgba((a * r + qRed(dst) * w) >> 8, (a * g + qGreen(dst) * w) >> 8, (a * b + qBlue(dst) * w) >> 8,
                da == 255 ? 255 : (255 * a + da * w) >> 8);
}

// msAlphaBlend (RB_MIX_PIXEL): the source colour is not premultiplied.
inline void blendStraight(QRgb& dst, int r, int g, int b, int a)
{
    if (a <= 0) return;
    if (a >= 255) {
        dst = qRgba(r, g, b, 255);
        return;
    }
    r = r * a / 255, g = g * a / 255, b = b * a / 255;
    const int da = qAlpha(dst);
    if (da == 0) {
        dst = qRgba(r, g, b, a);
        return;
    }
    const int w = 256 - a;
    dst = qRgba((256 * r + qRed(dst) * w) >> 8, (256 * g + qGreen(dst) * w) >> 8, (256 * b + qBlue(dst) * w) >> 8,
                da == 255 ? 255 : (256 * a + da * w) >> 8);
}

inline QRgb pixelAt(const QImage& src, int x, int y) { return reinterpret_cast<const QRgb*>(src.constScanLine(y))[x]; }

// msNearestRasterResampler.
void sampleNearest(const QImage& src, const double* x, const double* y, const int* ok, int n, QRgb* out)
{
    const int w = src.width(), h = src.height();
    for (int i = 0; i < n; ++i) {
        if (!ok[i] || x[i] < 0 || y[i] < 0) continue;
        const int sx = int(x[i]), sy = int(y[i]);
        if (sx >= w || sy >= h) continue;
        const QRgb p = pixelAt(src, sx, sy);
        blendPremultiplied(out[i], qRed(p), qGreen(p), qBlue(p), qAlpha(p));
    }
}

// msBilinearRasterResampler: premultiplied samples weighted by their alpha,
// edge pixels repeated; the sums are not divided back.
void sampleBilinear(const QImage& src, const double* x, const double* y, const int* ok, int n, QRgb* out)
{
    const int w = src.width(), h = src.height();
    for (int i = 0; i < n; ++i) {
        if (!ok[i] || std::floor(x[i]) < 0 || std::floor(y[i]) < 0 || std::floor(x[i]) >= w || std::floor(y[i]) >= h)
            continue;
        const double fx = x[i] - 0.5, fy = y[i] - 0.5;
        int x1 = int(std::floor(fx)), y1 = int(std::floor(fy));
        const double rx = fx - x1, ry = fy - y1;
        const int x2 = std::min(x1 + 1, w - 1), y2 = std::min(y1 + 1, h - 1);
        x1 = std::max(x1, 0);
        y1 = std::max(y1, 0);
        double sum[3] = {0, 0, 0}, weightSum = 0;
        const auto add = [&](int sx, int sy, double wgt) {
            const QRgb p = pixelAt(src, sx, sy);
            if (qAlpha(p) <= 1) return;
            sum[0] += qRed(p) * wgt;
            sum[1] += qGreen(p) * wgt;
            sum[2] += qBlue(p) * wgt;
            weightSum += wgt * (qAlpha(p) / 255.0);
        };
        add(x1, y1, (1 - rx) * (1 - ry));
        add(x2, y1, rx * (1 - ry));
        add(x1, y2, (1 - rx) * ry);
        add(x2, y2, rx * ry);
        if (weightSum <= 0.001) continue;
        const auto byte = [](double v) { return int(std::max(0.0, std::min(255.0, v))); };
        blendPremultiplied(out[i], byte(sum[0]), byte(sum[1]), byte(sum[2]), byte(255.5 * weightSum));
    }
}

// msAverageRasterResampler: the footprint's four corners bound the source
// pixels averaged, weighted by area and alpha.
void sampleAverage(const QImage& src, const double* tx, const double* ty, const double* bx, const double* by, const int* okTop,
                   const int* okBottom, int n, QRgb* out)
{
    const int w = src.width(), h = src.height();
    for (int i = 0; i < n; ++i) {
        if (!okTop[i] || !okTop[i + 1] || !okBottom[i] || !okBottom[i + 1]) continue;
        double xMin = std::min(std::min(tx[i], tx[i + 1]), std::min(bx[i], bx[i + 1]));
        double yMin = std::min(std::min(ty[i], ty[i + 1]), std::min(by[i], by[i + 1]));
        double xMax = std::max(std::max(tx[i], tx[i + 1]), std::max(bx[i], bx[i + 1]));
        double yMax = std::max(std::max(ty[i], ty[i + 1]), std::max(by[i], by[i + 1]));
        xMin = std::min(std::max(xMin, 0.0), w + 1.0), yMin = std::min(std::max(yMin, 0.0), h + 1.0);
        xMax = std::min(std::max(-1.0, xMax), double(w)), yMax = std::min(std::max(-1.0, yMax), double(h));
        double sum[3] = {0, 0, 0}, weightSum = 0, maxWeight = 0;
        for (int sy = int(yMin); sy < int(std::ceil(yMax)); ++sy) {
            const double wy = std::min(sy + 1.0, yMax) - std::max(double(sy), yMin);
            for (int sx = int(xMin); sx < int(std::ceil(xMax)); ++sx) {
                const double wgt = (std::min(sx + 1.0, xMax) - std::max(double(sx), xMin)) * wy;
                maxWeight += wgt;
                const QRgb p = pixelAt(src, sx, sy);
                if (qAlpha(p) <= 1) continue;
                sum[0] += qRed(p) * wgt;
                sum[1] += qGreen(p) * wgt;
                sum[2] += qBlue(p) * wgt;
                weightSum += wgt * (qAlpha(p) / 255.0);
            }
        }
        if (weightSum == 0) continue;
        const double alpha01 = weightSum / maxWeight;
        if (!(alpha01 > 0)) continue;
        const auto byte = [](double v) { return int(std::max(0.0, std::min(255.0, v + 0.5))); };
        blendStraight(out[i], byte(sum[0] / weightSum), byte(sum[1] / weightSum), byte(sum[2] / weightSum), byte(255 * alpha01));
    }
}

// Samples `loaded` for every pixel of `dst`, blending into it as MapServer
// does; `t` maps map pixels to pixels of `loaded`.
void resampleInto(QImage& dst, const QImage& loaded, const PixelTransform& t, Resample mode)
{
    const int w = dst.width();
    std::vector<double> x(size_t(w) + 1), y(size_t(w) + 1), x2(size_t(w) + 1), y2(size_t(w) + 1);
    std::vector<int> ok(size_t(w) + 1), ok2(size_t(w) + 1);
    for (int row = 0; row < dst.height(); ++row) {
        QRgb* out = reinterpret_cast<QRgb*>(dst.scanLine(row));
        if (mode == Resample::Average) {
            // Footprint corners: the top and bottom edges of each map pixel.
            for (int i = 0; i <= w; ++i) {
                x[size_t(i)] = i, y[size_t(i)] = row;
                x2[size_t(i)] = i, y2[size_t(i)] = row + 1;
            }
            t.apply(w + 1, x.data(), y.data(), ok.data());
            t.apply(w + 1, x2.data(), y2.data(), ok2.data());
            sampleAverage(loaded, x.data(), y.data(), x2.data(), y2.data(), ok.data(), ok2.data(), w, out);
            continue;
        }
        for (int i = 0; i < w; ++i) x[size_t(i)] = i + 0.5, y[size_t(i)] = row + 0.5;
        t.apply(w, x.data(), y.data(), ok.data());
        if (mode == Resample::Bilinear)
            sampleBilinear(loaded, x.data(), y.data(), ok.data(), w, out);
        else
            sampleNearest(loaded, x.data(), y.data(), ok.data(), w, out);
    }
}

}  // namespace

Status RasterResampler::render(const RasterSource& src, const GeoTransform& srcGt, const Crs& srcCrs, const MapView& view,
                               LayerTrace& trace, QImage& target)
{
    const ProcessingOptions& opt = *src.options;
    const int sx = GDALGetRasterXSize(src.dataset), sy = GDALGetRasterYSize(src.dataset);
    const PixelTransform t(srcGt, srcCrs, view);
    if (t.failed())
        return Error(QStringLiteral("cannot build a transformation from the layer CRS to the map CRS"));
    const std::optional<LoadPlan> plan = planLoad(t, srcGt, sx, sy, view, opt);
    if (!plan) return {};  // no overlap

    const Result<QImage> loaded = RasterComposer::compose(src, plan->window, trace);
    if (!loaded) return loaded.error();

    Stopwatch sw;
    const PixelTransform toLoaded(plan->loadedGt, srcCrs, view);
    if (target.format() == QImage::Format_ARGB32_Premultiplied && target.size() == QSize(view.width, view.height)) {
        resampleInto(target, *loaded, toLoaded, resampleMode(opt));
    } else {
        QImage out(view.width, view.height, QImage::Format_ARGB32_Premultiplied);
        out.fill(Qt::transparent);
        resampleInto(out, *loaded, toLoaded, resampleMode(opt));
        QPainter(&target).drawImage(0, 0, out);
    }
    trace.drawMs += sw.elapsedMs();
    trace.pixels += qint64(view.width) * view.height;
    return {};
}

}  // namespace maptune
