#include "raster/raster_resampler.h"

#include "geo/coordinate_transform.h"
#include "geo/map_view.h"
#include "mapfile/processing.h"
#include "trace/trace.h"

#include <cpl_string.h>
#include <gdal.h>
#include <gdal_alg.h>

#include <cmath>
#include <vector>

namespace maptune {

namespace {

// Map pixel/line -> dataset pixel/line, through PROJ when reprojecting:
// GDAL's approximating transformer (0.125 px, as MapServer's warp) over our
// own base transformer, which uses this thread's cached PROJ operation --
// GDAL's GenImgProj transformer would look the operation up in proj.db on
// every request, a tenth of a 256-pixel tile's time.
class PixelTransform {
public:
    PixelTransform(const GeoTransform& srcGt, const Crs& srcCrs, const MapView& view) : m_srcGt(srcGt)
    {
        m_dstGt.c = {view.extent.minx, view.cellSizeX(), 0, view.extent.maxy, 0, -view.cellSizeY()};
        if (view.angle != 0) rotate(view);
        m_inv = srcGt.inverted().value_or(GeoTransform());
        m_dstInv = m_dstGt.inverted().value_or(GeoTransform());
        if (!srcCrs.isValid() || !view.crs.isValid()) return;
        auto toSrc = CoordinateTransform::forThread(view.crs, srcCrs);
        auto toDst = CoordinateTransform::forThread(srcCrs, view.crs);
        m_failed = !toSrc || !toDst;
        if (m_failed) return;
        m_toSrc = std::move(toSrc).value();
        m_toDst = std::move(toDst).value();
        m_approx = GDALCreateApproxTransformer(&PixelTransform::base, this, 0.125);
        m_failed = !m_approx;
    }
    ~PixelTransform()
    {
        if (m_approx) GDALDestroyApproxTransformer(m_approx);
    }
    PixelTransform(const PixelTransform&) = delete;
    PixelTransform& operator=(const PixelTransform&) = delete;

    bool failed() const { return m_failed; }

    // In place; ok[i] false where the point does not transform.
    void apply(int n, double* x, double* y, int* ok) const
    {
        if (m_approx) {
            std::vector<double> z(size_t(n), 0.0);
            GDALApproxTransform(m_approx, TRUE, n, x, y, z.data(), ok);
            for (int i = 0; i < n; ++i)
                if (!std::isfinite(x[i]) || !std::isfinite(y[i])) ok[i] = 0;
            return;
        }
        for (int i = 0; i < n; ++i) {
            const double gx = m_dstGt.x(x[i], y[i]), gy = m_dstGt.y(x[i], y[i]);
            x[i] = m_inv.x(gx, gy);
            y[i] = m_inv.y(gx, gy);
            ok[i] = 1;
        }
    }

private:
    // A GDALTransformerFunc: map pixels to dataset pixels (dstToSrc) or back.
    static int base(void* arg, int dstToSrc, int n, double* x, double* y, double* /*z*/, int* ok)
    {
        const auto* self = static_cast<const PixelTransform*>(arg);
        const GeoTransform& from = dstToSrc ? self->m_dstGt : self->m_srcGt;
        const GeoTransform& to = dstToSrc ? self->m_inv : self->m_dstInv;
        for (int i = 0; i < n; ++i) {
            const double gx = from.x(x[i], y[i]), gy = from.y(x[i], y[i]);
            x[i] = gx, y[i] = gy;
        }
        (dstToSrc ? self->m_toSrc : self->m_toDst)->transform(x, y, n);
        for (int i = 0; i < n; ++i) {
            ok[i] = x[i] != HUGE_VAL;
            if (!ok[i]) continue;
            const double px = to.x(x[i], y[i]), py = to.y(x[i], y[i]);
            x[i] = px, y[i] = py;
        }
        return TRUE;
    }

    // MapServer's rotated map: the geotransform turns about the view centre.
    void rotate(const MapView& view)
    {
        const double a = view.angle * M_PI / 180.0, cs = std::cos(a), sn = std::sin(a);
        const double cx = (view.extent.minx + view.extent.maxx) / 2, cy = (view.extent.miny + view.extent.maxy) / 2;
        const double px = view.cellSizeX(), py = view.cellSizeY();
        m_dstGt.c = {0, cs * px, sn * py, 0, sn * px, -cs * py};
        m_dstGt.c[0] = cx - (m_dstGt.c[1] * view.width / 2 + m_dstGt.c[2] * view.height / 2);
        m_dstGt.c[3] = cy - (m_dstGt.c[4] * view.width / 2 + m_dstGt.c[5] * view.height / 2);
    }

    GeoTransform m_srcGt, m_dstGt, m_inv, m_dstInv;
    std::shared_ptr<CoordinateTransform> m_toSrc, m_toDst;
    void* m_approx = nullptr;
    bool m_failed = false;
};

struct SrcExtent {
    double minx = 0, miny = 0, maxx = 0, maxy = 0;
};

// Bounds in dataset pixels of the map's edges (a grid when edges fail).
std::optional<SrcExtent> sourceExtent(const PixelTransform& t, const MapView& view, int sx, int sy)
{
    constexpr int steps = 10;
    for (bool grid : {false, true}) {
        std::vector<double> x, y;
        for (int i = 0; i <= steps; ++i) {
            const double r = double(i) / steps;
            if (!grid) {
                x.insert(x.end(), {r * view.width, r * view.width, 0.0, double(view.width)});
                y.insert(y.end(), {0.0, double(view.height), r * view.height, r * view.height});
            } else {
                for (int j = 0; j <= steps; ++j) {
                    x.push_back(double(j) / steps * view.width);
                    y.push_back(r * view.height);
                }
            }
        }
        std::vector<int> ok(x.size());
        t.apply(int(x.size()), x.data(), y.data(), ok.data());
        int failures = 0;
        std::optional<SrcExtent> e;
        for (size_t i = 0; i < x.size(); ++i) {
            if (!ok[i]) {
                ++failures;
                continue;
            }
            if (!e) e = SrcExtent{x[i], y[i], x[i], y[i]};
            e->minx = std::min(e->minx, x[i]);
            e->maxx = std::max(e->maxx, x[i]);
            e->miny = std::min(e->miny, y[i]);
            e->maxy = std::max(e->maxy, y[i]);
        }
        if (failures && !grid) continue;
        if (!e) return std::nullopt;
        if (failures) {
            const int gx = int(e->maxx - e->minx) / steps + 1, gy = int(e->maxy - e->miny) / steps + 1;
            e->minx = std::max(e->minx - gx, 0.0);
            e->miny = std::max(e->miny - gy, 0.0);
            e->maxx = std::min(e->maxx + gx, double(sx));
            e->maxy = std::min(e->maxy + gy, double(sy));
        }
        return e;
    }
    return std::nullopt;
}

enum class Resample { Nearest, Bilinear, Average };

Resample resampleMode(const ProcessingOptions& opt)
{
    const QString m = opt.value(QStringLiteral("RESAMPLE"), QStringLiteral("NEAREST")).trimmed().toUpper();
    if (m == QLatin1String("BILINEAR")) return Resample::Bilinear;
    if (m == QLatin1String("AVERAGE")) return Resample::Average;
    return Resample::Nearest;
}

struct LoadedMapping {
    double x0, y0, fx, fy;  // loaded = (dataset - x0) * fx
};

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

void resampleInto(QImage& dst, const QImage& loaded, const PixelTransform& t, const LoadedMapping& m, Resample mode)
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

bool optionTrue(const ProcessingOptions& opt, const char* key)
{
    return CPLTestBool(opt.value(QLatin1String(key), QStringLiteral("NO")).toLatin1().constData());
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
    std::optional<SrcExtent> ext;
    if (!optionTrue(opt, "LOAD_WHOLE_IMAGE")) ext = sourceExtent(t, view, sx, sy);
    if (!ext) ext = SrcExtent{0, 0, double(sx), double(sy)};
    const SrcExtent orig = *ext;

    SrcExtent e{std::floor(orig.minx - 1), std::floor(orig.miny - 1), std::ceil(orig.maxx + 1), std::ceil(orig.maxy + 1)};
    e.minx = std::max(0.0, e.minx);
    e.miny = std::max(0.0, e.miny);
    e.maxx = std::min(e.maxx, double(sx));
    e.maxy = std::min(e.maxy, double(sy));
    if (e.maxx <= e.minx || e.maxy <= e.miny) return QImage();  // no overlap

    double oversample = 2.0;
    if (const auto v = opt.value(QStringLiteral("OVERSAMPLE_RATIO"))) oversample = std::atof(v->toLatin1().constData());
    if (oversample <= 0) oversample = 2.0;
    const double nominal = std::hypot(srcGt.c[1], srcGt.c[2]);
    // A view far beyond a small raster would otherwise request a huge load size.
    const bool wayBeyond = orig.minx <= -4.0 * sx && orig.miny <= -4.0 * sy && orig.maxx >= 5.0 * sx
        && orig.maxy >= 5.0 * sy && sx < 4000 && sy < 4000;
    double cell = nominal;
    if (!wayBeyond && (orig.maxx - orig.minx) > oversample * view.width && !optionTrue(opt, "LOAD_FULL_RES_IMAGE"))
        cell = nominal * (orig.maxx - orig.minx) / (oversample * view.width);
    const int winW = int(e.maxx - e.minx), winH = int(e.maxy - e.miny);
    RasterWindow w{int(e.minx), int(e.miny), winW, winH, 0, 0};
    w.dstWidth = std::max(1, int(double(winW) * (nominal / cell)));
    w.dstHeight = std::max(1, int(double(winH) * (nominal / cell)));

    const Result<QImage> loaded = RasterComposer::compose(src, w, trace);
    if (!loaded) return loaded.error();

    Stopwatch sw;
    const double fx = double(w.dstWidth) / winW;
    // Rotated rasters keep square load pixels; north-up ones fit the window exactly (MapServer #1715).
    const bool fitY = srcGt.c[2] == 0 && srcGt.c[4] == 0 && srcGt.c[5] < 0
        && std::fabs(std::fabs(srcGt.c[1]) - std::fabs(srcGt.c[5])) < 0.01 * std::fabs(srcGt.c[1]);
    const LoadedMapping m{e.minx, e.miny, fx, fitY ? double(w.dstHeight) / winH : fx};
    QImage out(view.width, view.height, QImage::Format_ARGB32_Premultiplied);
    out.fill(Qt::transparent);
    resampleInto(out, *loaded, t, m, resampleMode(opt));
    trace.drawMs += sw.elapsedMs();
    return out;
}

}  // namespace maptune
