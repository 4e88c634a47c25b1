#include "raster/resample_plan.h"

#include "geo/coordinate_transform.h"
#include "geo/map_view.h"
#include "mapfile/processing.h"

#include <cpl_string.h>

#include <cmath>
#include <vector>

namespace maptune {

namespace {

constexpr double kMaxApproxError = 0.333;

}  // namespace

PixelTransform::PixelTransform(const GeoTransform& srcGt, const Crs& srcCrs, const MapView& view)
{
    if (view.angle != 0) rotate(view);
    else m_dstGt = GeoTransform::forMapView(view);
    m_inv = srcGt.inverted().value_or(GeoTransform());
    if (!srcCrs.isValid() || !view.crs.isValid() || srcCrs == view.crs) return;
    auto toSrc = CoordinateTransform::forThread(view.crs, srcCrs);
    m_failed = !toSrc;
    if (!m_failed) m_toSrc = std::move(toSrc).value();
}

void PixelTransform::applyExact(int n, double* x, double* y, int* ok) const
{
    for (int i = 0; i < n; ++i) {
        const double gx = m_dstGt.x(x[i], y[i]);
        y[i] = m_dstGt.y(x[i], y[i]);
        x[i] = gx;
        ok[i] = 1;
    }
    if (m_toSrc) {
        m_toSrc->transform(x, y, n);
        for (int i = 0; i < n; ++i)
            if (x[i] == HUGE_VAL || y[i] == HUGE_VAL || !std::isfinite(x[i]) || !std::isfinite(y[i])) ok[i] = 0;
    }
    for (int i = 0; i < n; ++i) {
        if (!ok[i]) {
            x[i] = y[i] = -1;
            continue;
        }
        const double px = m_inv.x(x[i], y[i]);
        y[i] = m_inv.y(x[i], y[i]);
        x[i] = px;
    }
}

void PixelTransform::apply(int n, double* x, double* y, int* ok) const
{
    if (!approximate(n, x, y, ok)) applyExact(n, x, y, ok);
}

// msApproxTransformer: along a row, the first, middle and last points
// exactly; the rest interpolated when the middle is within the error, else
// each half the same way.
bool PixelTransform::approximate(int n, double* x, double* y, int* ok) const
{
    const int mid = (n - 1) / 2;
    if (n <= 5 || y[0] != y[n - 1] || y[0] != y[mid] || x[0] == x[n - 1] || x[0] == x[mid]) return false;
    double x2[3] = {x[0], x[mid], x[n - 1]}, y2[3] = {y[0], y[mid], y[n - 1]};
    int ok2[3];
    applyExact(3, x2, y2, ok2);
    if (!ok2[0] || !ok2[1] || !ok2[2]) return false;
    const double dx = (x2[2] - x2[0]) / (x[n - 1] - x[0]);
    const double dy = (y2[2] - y2[0]) / (x[n - 1] - x[0]);
    const double error = std::fabs((x2[0] + dx * (x[mid] - x[0])) - x2[1]) + std::fabs((y2[0] + dy * (x[mid] - x[0])) - y2[1]);
    if (error > kMaxApproxError) {
        if (!approximate(mid, x, y, ok)) applyExact(mid, x, y, ok);
        if (!approximate(n - mid, x + mid, y + mid, ok + mid)) applyExact(n - mid, x + mid, y + mid, ok + mid);
        return true;
    }
    for (int i = n - 1; i >= 0; --i) {
        const double dist = x[i] - x[0];
        y[i] = y2[0] + dy * dist;
        x[i] = x2[0] + dx * dist;
        ok[i] = 1;
    }
    return true;
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

// msTransformMapToSource: bounds in dataset pixels of the map's edges (a
// grid when an edge point fails), over width x height map pixels from
// (offset, offset) -- MapServer's ratios step by 0.1 as it adds them up.
std::optional<SrcExtent> sourceExtent(const PixelTransform& t, double offset, double width, double height, int sx, int sy)
{
    constexpr int steps = 10;
    for (bool grid : {false, true}) {
        std::vector<double> x, y;
        for (double r = 0.0; r <= 1.001; r += 1.0 / steps) {
            if (!grid) {
                x.insert(x.end(), {r * width, r * width, 0.0, width});
                y.insert(y.end(), {0.0, height, r * height, r * height});
            } else {
                for (double r2 = 0.0; r2 <= 1.001; r2 += 1.0 / steps) {
                    x.push_back(r2 * width);
                    y.push_back(r * height);
                }
            }
        }
        for (size_t i = 0; i < x.size(); ++i) x[i] += offset, y[i] += offset;
        std::vector<int> ok(x.size());
        t.applyExact(int(x.size()), x.data(), y.data(), ok.data());
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

// The view's extent on the raster; when the rectangle one pixel inside the
// edges reaches further north or south (a pole inside the view), the whole
// width and that side's full height.
std::optional<SrcExtent> viewOnRaster(const PixelTransform& t, const MapView& view, int sx, int sy)
{
    std::optional<SrcExtent> e = sourceExtent(t, 0, view.width, view.height, sx, sy);
    if (!e) return e;
    const std::optional<SrcExtent> inner = sourceExtent(t, 1, view.width - 2, view.height - 2, sx, sy);
    if (inner && (inner->maxy > e->maxy || inner->miny < e->miny)) {
        e->minx = 0, e->maxx = sx;
        if (inner->maxy > e->maxy) e->maxy = sy;
        if (inner->miny < e->miny) e->miny = 0;
    }
    return e;
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
    if (!optionTrue(opt, "LOAD_WHOLE_IMAGE")) ext = viewOnRaster(t, view, sx, sy);
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
    // The geotransform of the image read, as msResampleGDALToMap adjusts it.
    const double ratio = (e.maxx - e.minx) * nominal / plan.window.dstWidth / nominal;
    GeoTransform& g = plan.loadedGt;
    g = srcGt;
    g.c[0] += srcGt.c[1] * e.minx + srcGt.c[2] * e.miny;
    g.c[1] *= ratio;
    g.c[2] *= ratio;
    g.c[3] += srcGt.c[4] * e.minx + srcGt.c[5] * e.miny;
    g.c[4] *= ratio;
    g.c[5] *= ratio;
    // North-up rasters with nearly square pixels fit the window exactly
    // (#1715), in x units: a pixel 0.5 % taller than wide is read stretched.
    if (g.c[2] == 0 && g.c[4] == 0 && g.c[5] < 0 && std::fabs(std::fabs(g.c[1]) - std::fabs(g.c[5])) < 0.01 * std::fabs(g.c[1])) {
        g.c[1] = (e.maxx - e.minx) * nominal / plan.window.dstWidth;
        g.c[5] = -(e.maxy - e.miny) * nominal / plan.window.dstHeight;
    }
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
