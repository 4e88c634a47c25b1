#include "raster/raster_resampler.h"

#include "geo/map_view.h"
#include "mapfile/processing.h"
#include "raster/resample_plan.h"
#include "trace/trace.h"

#include <gdal.h>

#include <cmath>
#include <vector>

namespace maptune {

namespace {

void sampleNearest(const QImage& src, const double* x, const double* y, const int* ok, int n, QRgb* out)
{
    const int w = src.width(), h = src.height();
    for (int i = 0; i < n; ++i) {
        if (!ok[i] || x[i] < 0 || y[i] < 0) continue;
        const int sx = int(x[i]), sy = int(y[i]);
        if (sx >= w || sy >= h) continue;
        out[i] = reinterpret_cast<const QRgb*>(src.constScanLine(sy))[sx];
    }
}

// Bilinear over premultiplied pixels: transparent neighbours weigh nothing,
// edge pixels repeat, as in MapServer's msBilinearRasterResampler().
void sampleBilinear(const QImage& src, const double* x, const double* y, const int* ok, int n, QRgb* out)
{
    const int w = src.width(), h = src.height();
    for (int i = 0; i < n; ++i) {
        if (!ok[i] || std::floor(x[i]) < 0 || std::floor(y[i]) < 0 || std::floor(x[i]) >= w || std::floor(y[i]) >= h)
            continue;
        const double fx = x[i] - 0.5, fy = y[i] - 0.5;
        int x1 = int(std::floor(fx)), y1 = int(std::floor(fy));
        const double rx = fx - x1, ry = fy - y1;
        int x2 = std::min(x1 + 1, w - 1), y2 = std::min(y1 + 1, h - 1);
        x1 = std::max(x1, 0);
        y1 = std::max(y1, 0);
        double sum[4] = {0, 0, 0, 0};
        const auto add = [&](int sx, int sy, double wgt) {
            const QRgb p = reinterpret_cast<const QRgb*>(src.constScanLine(sy))[sx];
            if (qAlpha(p) <= 1) return;
            sum[0] += qRed(p) * wgt;
            sum[1] += qGreen(p) * wgt;
            sum[2] += qBlue(p) * wgt;
            sum[3] += qAlpha(p) / 255.0 * wgt;
        };
        add(x1, y1, (1 - rx) * (1 - ry));
        add(x2, y1, rx * (1 - ry));
        add(x1, y2, (1 - rx) * ry);
        add(x2, y2, rx * ry);
        if (sum[3] <= 0.001) continue;
        const int a = std::clamp(int(255.5 * sum[3]), 0, 255);
        const auto c = [a](double v) { return std::clamp(int(v + 0.5), 0, a); };
        out[i] = qRgba(c(sum[0]), c(sum[1]), c(sum[2]), a);
    }
}

// Area-weighted mean of the source pixels under the map pixel's footprint.
void sampleAverage(const QImage& src, const double* x0, const double* y0, const double* x1, const double* y1,
                   const int* ok, int n, QRgb* out)
{
    const int w = src.width(), h = src.height();
    for (int i = 0; i < n; ++i) {
        if (!ok[i]) continue;
        const double ax = std::min(x0[i], x1[i]), bx = std::max(x0[i], x1[i]);
        const double ay = std::min(y0[i], y1[i]), by = std::max(y0[i], y1[i]);
        const int ix0 = std::max(0, int(std::floor(ax))), ix1 = std::min(w - 1, int(std::ceil(bx)) - 1);
        const int iy0 = std::max(0, int(std::floor(ay))), iy1 = std::min(h - 1, int(std::ceil(by)) - 1);
        double sum[4] = {0, 0, 0, 0}, total = 0;
        for (int sy = iy0; sy <= iy1; ++sy) {
            const double wy = std::min(by, sy + 1.0) - std::max(ay, double(sy));
            const QRgb* line = reinterpret_cast<const QRgb*>(src.constScanLine(sy));
            for (int sx = ix0; sx <= ix1; ++sx) {
                const double wgt = wy * (std::min(bx, sx + 1.0) - std::max(ax, double(sx)));
                if (wgt <= 0) continue;
                const QRgb p = line[sx];
                sum[0] += qRed(p) * wgt;
                sum[1] += qGreen(p) * wgt;
                sum[2] += qBlue(p) * wgt;
                sum[3] += qAlpha(p) * wgt;
                total += wgt;
            }
        }
        if (total <= 0 || sum[3] / total < 1) continue;
        const int a = std::clamp(int(sum[3] / total + 0.5), 0, 255);
        const auto c = [&](double v) { return std::clamp(int(v / total + 0.5), 0, a); };
        out[i] = qRgba(c(sum[0]), c(sum[1]), c(sum[2]), a);
    }
}

void resampleInto(QImage& dst, const QImage& loaded, const PixelTransform& t, const LoadPlan& m, Resample mode)
{
    const int w = dst.width();
    std::vector<double> x(size_t(w) + 1), y(size_t(w) + 1), x2(size_t(w) + 1), y2(size_t(w) + 1);
    std::vector<int> ok(size_t(w) + 1), ok2(size_t(w) + 1);
    const auto toLoaded = [&](double* xs, double* ys, int n) {
        for (int i = 0; i < n; ++i) {
            xs[i] = (xs[i] - m.x0) * m.fx;
            ys[i] = (ys[i] - m.y0) * m.fy;
        }
    };
    for (int row = 0; row < dst.height(); ++row) {
        QRgb* out = reinterpret_cast<QRgb*>(dst.scanLine(row));
        if (mode == Resample::Average) {
            // Footprint corners: top-left and bottom-right of each map pixel.
            for (int i = 0; i <= w; ++i) {
                x[size_t(i)] = i, y[size_t(i)] = row;
                x2[size_t(i)] = i, y2[size_t(i)] = row + 1;
            }
            t.apply(w + 1, x.data(), y.data(), ok.data());
            t.apply(w + 1, x2.data(), y2.data(), ok2.data());
            toLoaded(x.data(), y.data(), w + 1);
            toLoaded(x2.data(), y2.data(), w + 1);
            for (int i = 0; i < w; ++i) ok[size_t(i)] = ok[size_t(i)] && ok2[size_t(i) + 1];
            sampleAverage(loaded, x.data(), y.data(), x2.data() + 1, y2.data() + 1, ok.data(), w, out);
            continue;
        }
        for (int i = 0; i < w; ++i) x[size_t(i)] = i + 0.5, y[size_t(i)] = row + 0.5;
        t.apply(w, x.data(), y.data(), ok.data());
        toLoaded(x.data(), y.data(), w);
        if (mode == Resample::Bilinear)
            sampleBilinear(loaded, x.data(), y.data(), ok.data(), w, out);
        else
            sampleNearest(loaded, x.data(), y.data(), ok.data(), w, out);
    }
}

}  // namespace

Result<QImage> RasterResampler::render(const RasterSource& src, const GeoTransform& srcGt, const Crs& srcCrs,
                                       const MapView& view, LayerTrace& trace)
{
    const ProcessingOptions& opt = *src.options;
    const int sx = GDALGetRasterXSize(src.dataset), sy = GDALGetRasterYSize(src.dataset);
    const PixelTransform t(srcGt, srcCrs, view);
    if (t.failed())
        return Error(QStringLiteral("cannot build a transformation from the layer CRS to the map CRS"));
    const std::optional<LoadPlan> plan = planLoad(t, srcGt, sx, sy, view, opt);
    if (!plan) return QImage();  // no overlap

    const Result<QImage> loaded = RasterComposer::compose(src, plan->window, trace);
    if (!loaded) return loaded.error();

    Stopwatch sw;
    QImage out(view.width, view.height, QImage::Format_ARGB32_Premultiplied);
    out.fill(Qt::transparent);
    resampleInto(out, *loaded, t, *plan, resampleMode(opt));
    trace.drawMs += sw.elapsedMs();
    return out;
}

}  // namespace maptune
