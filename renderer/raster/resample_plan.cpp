#include "raster/resample_plan.h"

#include "geo/coordinate_transform.h"
#include "geo/map_view.h"
#include "mapfile/processing.h"

#include <cpl_string.h>
#include <gdal_alg.h>

#include <cmath>
#include <vector>

namespace maptune {

PixelTransform::PixelTransform(const GeoTransform& srcGt, const Crs& srcCrs, const MapView& view) : m_srcGt(srcGt)
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

PixelTransform::~PixelTransform()
{
    if (m_approx) GDALDestroyApproxTransformer(m_approx);
}

void PixelTransform::apply(int n, double* x, double* y, int* ok) const
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

// A GDALTransformerFunc: map pixels to dataset pixels (dstToSrc) or back.
int PixelTransform::base(void* arg, int dstToSrc, int n, double* x, double* y, double* /*z*/, int* ok)
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
void PixelTransform::rotate(const MapView& view)
{
    const double a = view.angle * M_PI / 180.0, cs = std::cos(a), sn = std::sin(a);
    const double cx = (view.extent.minx + view.extent.maxx) / 2, cy = (view.extent.miny + view.extent.maxy) / 2;
    const double px = view.cellSizeX(), py = view.cellSizeY();
    m_dstGt.c = {0, cs * px, sn * py, 0, sn * px, -cs * py};
    m_dstGt.c[0] = cx - (m_dstGt.c[1] * view.width / 2 + m_dstGt.c[2] * view.height / 2);
    m_dstGt.c[3] = cy - (m_dstGt.c[4] * view.width / 2 + m_dstGt.c[5] * view.height / 2);
}

namespace {

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

bool optionTrue(const ProcessingOptions& opt, const char* key)
{
    return CPLTestBool(opt.value(QLatin1String(key), QStringLiteral("NO")).toLatin1().constData());
}

}  // namespace

std::optional<LoadPlan> planLoad(const PixelTransform& t, const GeoTransform& srcGt, int sx, int sy, const MapView& view,
                                 const ProcessingOptions& opt)
{
    std::optional<SrcExtent> ext;
    if (!optionTrue(opt, "LOAD_WHOLE_IMAGE")) ext = sourceExtent(t, view, sx, sy);
    if (!ext) ext = SrcExtent{0, 0, double(sx), double(sy)};
    const SrcExtent orig = *ext;

    SrcExtent e{std::floor(orig.minx - 1), std::floor(orig.miny - 1), std::ceil(orig.maxx + 1), std::ceil(orig.maxy + 1)};
    e.minx = std::max(0.0, e.minx);
    e.miny = std::max(0.0, e.miny);
    e.maxx = std::min(e.maxx, double(sx));
    e.maxy = std::min(e.maxy, double(sy));
    if (e.maxx <= e.minx || e.maxy <= e.miny) return std::nullopt;

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
    LoadPlan plan;
    plan.window = RasterWindow{int(e.minx), int(e.miny), winW, winH, 0, 0};
    plan.window.dstWidth = std::max(1, int(double(winW) * (nominal / cell)));
    plan.window.dstHeight = std::max(1, int(double(winH) * (nominal / cell)));
    plan.x0 = e.minx, plan.y0 = e.miny;
    plan.fx = double(plan.window.dstWidth) / winW;
    // Rotated rasters keep square load pixels; north-up ones with nearly
    // square pixels fit the window (MapServer #1715) -- in x units: the
    // loaded rows span winH x the x pixel size, so a pixel 0.5 % taller or
    // shorter than wide is stretched by that much, as MapServer reads it.
    const bool fitY = srcGt.c[2] == 0 && srcGt.c[4] == 0 && srcGt.c[5] < 0
        && std::fabs(std::fabs(srcGt.c[1]) - std::fabs(srcGt.c[5])) < 0.01 * std::fabs(srcGt.c[1]);
    plan.fy = fitY ? std::fabs(srcGt.c[5]) / nominal * plan.window.dstHeight / winH : plan.fx;
    return plan;
}

Resample resampleMode(const ProcessingOptions& opt, Resample fallback)
{
    const auto given = opt.value(QStringLiteral("RESAMPLE"));
    if (!given) return fallback;
    const QString m = given->trimmed().toUpper();
    if (m == QLatin1String("BILINEAR")) return Resample::Bilinear;
    if (m == QLatin1String("AVERAGE")) return Resample::Average;
    return Resample::Nearest;
}

}  // namespace maptune
