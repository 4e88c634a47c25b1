#include "raster/raw_band_resampler.h"

#include "geo/map_view.h"
#include "mapfile/layer_def.h"
#include "mapfile/processing.h"
#include "raster/direct_window.h"
#include "raster/raster_composer.h"

#include <cpl_error.h>
#include <gdal.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace maptune {

namespace {

// The loaded window, as msDrawRasterLayerGDAL_RawMode() fills it: a pixel
// counts when any band differs from its no-data value, and no-data values
// apply only when every band has one (or OFFSITE gives them).
struct Loaded {
    int width = 0, height = 0;
    std::vector<std::vector<float>> bands;
    std::vector<uint8_t> valid;

    // Adds the pixel's values, weighted, to sums; false when it has no data.
    bool add(int x, int y, double weight, std::vector<double>& sums, double& weightSum) const
    {
        const size_t i = size_t(y) * size_t(width) + size_t(x);
        if (!valid[i]) return false;
        for (size_t b = 0; b < bands.size(); ++b) sums[b] += weight * bands[b][i];
        weightSum += weight;
        return true;
    }
};

// The resamplers' own narrowing (msNearest/Bilinear/AverageRasterResampler):
// nearest copies the loaded value; bilinear truncates (bytes clamped first);
// average rounds 16-bit values and truncates bytes.
float narrowed(double v, Resample mode, RawStorage storage)
{
    const auto clampTo = [](double x, double lo, double hi) { return std::max(lo, std::min(hi, x)); };
    switch (storage) {
    case RawStorage::Float32: return float(v);
    case RawStorage::Int16:
        if (mode == Resample::Average) v += 0.5;
        return float(std::trunc(clampTo(v, -32768, 32767)));
    case RawStorage::Byte: return float(std::trunc(clampTo(v, 0, 255)));
    }
    return float(v);
}

std::optional<std::vector<float>> noDataValues(const RawBandsRequest& r)
{
    const size_t n = r.bands.size();
    std::vector<float> values(n);
    const Color& off = r.layer ? r.layer->offsite : Color{};
    if (n <= 3 && (off.r != -1 || off.g != -1 || off.b != -1)) {
        const int rgb[3] = {off.r, off.g, off.b};
        for (size_t b = 0; b < n; ++b) values[b] = float(rgb[b]);
        return values;
    }
    for (size_t b = 0; b < n; ++b) {
        const auto nd = rasterNoDataValue(*r.options, GDALGetRasterBand(r.dataset, r.bands[b]));
        if (!nd) return std::nullopt;
        values[b] = float(*nd);
    }
    return values;
}

Result<Loaded> load(const RawBandsRequest& r, const RasterWindow& w)
{
    Loaded l;
    l.width = w.dstWidth, l.height = w.dstHeight;
    const size_t pixels = size_t(l.width) * size_t(l.height);
    std::vector<float> buffer(pixels * r.bands.size());
    std::vector<int> bandList = r.bands;
    if (GDALDatasetRasterIO(r.dataset, GF_Read, w.srcX, w.srcY, w.srcWidth, w.srcHeight, buffer.data(), w.dstWidth,
                            w.dstHeight, GDT_Float32, int(bandList.size()), bandList.data(), 0, 0, 0)
        != CE_None)
        return Error(QStringLiteral("reading the raster's bands failed: ") + QString::fromUtf8(CPLGetLastErrorMsg()));
    const std::optional<std::vector<float>> noData = noDataValues(r);
    l.valid.assign(pixels, 0);
    l.bands.resize(r.bands.size());
    for (size_t b = 0; b < r.bands.size(); ++b) {
        std::vector<float>& plane = l.bands[b];
        plane.assign(buffer.begin() + std::ptrdiff_t(b * pixels), buffer.begin() + std::ptrdiff_t((b + 1) * pixels));
        for (size_t i = 0; i < pixels; ++i) {
            if (r.storage != RawStorage::Float32) plane[i] = storedAs(plane[i], r.storage);
            if (noData && plane[i] == (*noData)[b]) {
                plane[i] = 0;
                continue;
            }
            l.valid[i] = 1;
        }
    }
    return l;
}

// msAverageSample over the footprint's bounding box, clamped as MapServer does.
bool average(const Loaded& l, double xMin, double yMin, double xMax, double yMax, std::vector<double>& sums)
{
    xMin = std::min(std::max(xMin, 0.0), l.width + 1.0), yMin = std::min(std::max(yMin, 0.0), l.height + 1.0);
    xMax = std::min(std::max(-1.0, xMax), double(l.width)), yMax = std::min(std::max(-1.0, yMax), double(l.height));
    std::fill(sums.begin(), sums.end(), 0.0);
    double weightSum = 0;
    for (int y = int(yMin); y < int(std::ceil(yMax)); ++y) {
        const double wy = std::min(y + 1.0, yMax) - std::max(double(y), yMin);
        for (int x = int(xMin); x < int(std::ceil(xMax)); ++x)
            l.add(x, y, (std::min(x + 1.0, xMax) - std::max(double(x), xMin)) * wy, sums, weightSum);
    }
    if (weightSum == 0) return false;
    for (double& s : sums) s /= weightSum;
    return true;
}

bool nearest(const Loaded& l, double x, double y, std::vector<double>& sums)
{
    if (x < 0 || y < 0 || int(x) >= l.width || int(y) >= l.height) return false;
    std::fill(sums.begin(), sums.end(), 0.0);
    double weightSum = 0;
    return l.add(int(x), int(y), 1.0, sums, weightSum);
}

// Four neighbours, edge pixels repeated; pixels without data weigh nothing.
bool bilinear(const Loaded& l, double x, double y, std::vector<double>& sums)
{
    if (std::floor(x) < 0 || std::floor(y) < 0 || std::floor(x) >= l.width || std::floor(y) >= l.height) return false;
    const double fx = x - 0.5, fy = y - 0.5;
    const int x1 = int(std::floor(fx)), y1 = int(std::floor(fy));
    const double rx = fx - x1, ry = fy - y1;
    const int x2 = std::min(x1 + 1, l.width - 1), y2 = std::min(y1 + 1, l.height - 1);
    const int cx1 = std::max(x1, 0), cy1 = std::max(y1, 0);
    std::fill(sums.begin(), sums.end(), 0.0);
    double weightSum = 0;
    l.add(cx1, cy1, (1 - rx) * (1 - ry), sums, weightSum);
    l.add(x2, cy1, rx * (1 - ry), sums, weightSum);
    l.add(cx1, y2, (1 - rx) * ry, sums, weightSum);
    l.add(x2, y2, rx * ry, sums, weightSum);
    if (weightSum <= 0) return false;
    for (double& s : sums) s /= weightSum;
    return true;
}

}  // namespace

float storedAs(double v, RawStorage storage)
{
    if (storage == RawStorage::Float32) return float(v);
    if (std::isnan(v)) return 0;
    const double lo = storage == RawStorage::Byte ? 0 : -32768, hi = storage == RawStorage::Byte ? 255 : 32767;
    v = v > 0 ? v + 0.5 : v - 0.5;
    return float(std::trunc(std::max(lo, std::min(hi, v))));
}

Result<RawRaster> RawBandResampler::read(const RawBandsRequest& r, const GeoTransform& srcGt, const MapView& view)
{
    RawRaster out;
    out.width = view.width, out.height = view.height;
    const size_t pixels = size_t(view.width) * size_t(view.height);
    out.valid.assign(pixels, 0);
    out.bands.assign(r.bands.size(), std::vector<float>(pixels, 0.0f));
    const auto d = directWindow(srcGt, GDALGetRasterXSize(r.dataset), GDALGetRasterYSize(r.dataset), view);
    if (!d) return out;
    Result<Loaded> loaded = load(r, d->window);
    if (!loaded) return loaded.error();
    for (int y = 0; y < loaded->height; ++y) {
        const int row = d->dstY + y;
        if (row < 0 || row >= view.height) continue;
        for (int x = 0; x < loaded->width; ++x) {
            const int col = d->dstX + x;
            if (col < 0 || col >= view.width) continue;
            const size_t from = size_t(y) * size_t(loaded->width) + size_t(x), to = size_t(row) * size_t(view.width) + size_t(col);
            if (!loaded->valid[from]) continue;
            out.valid[to] = 1;
            for (size_t b = 0; b < out.bands.size(); ++b) out.bands[b][to] = loaded->bands[b][from];
        }
    }
    return out;
}

Result<RawRaster> RawBandResampler::render(const RawBandsRequest& r, const GeoTransform& srcGt, const Crs& srcCrs,
                                           const MapView& view)
{
    RawRaster out;
    out.width = view.width, out.height = view.height;
    const size_t pixels = size_t(view.width) * size_t(view.height);
    out.valid.assign(pixels, 0);
    out.bands.assign(r.bands.size(), std::vector<float>(pixels, 0.0f));
    const PixelTransform t(srcGt, srcCrs, view);
    if (t.failed()) return Error(QStringLiteral("cannot build a transformation from the layer CRS to the map CRS"));
    const int sx = GDALGetRasterXSize(r.dataset), sy = GDALGetRasterYSize(r.dataset);
    const std::optional<LoadPlan> plan = planLoad(t, srcGt, sx, sy, view, *r.options);
    if (!plan) return out;
    Result<Loaded> loaded = load(r, plan->window);
    if (!loaded) return loaded.error();

    const int w = view.width;
    std::vector<double> x1(size_t(w) + 1), y1(size_t(w) + 1), x2(size_t(w) + 1), y2(size_t(w) + 1);
    std::vector<int> ok1(size_t(w) + 1), ok2(size_t(w) + 1);
    std::vector<double> sums(r.bands.size());
    const PixelTransform toLoaded(plan->loadedGt, srcCrs, view);
    for (int row = 0; row < view.height; ++row) {
        const bool footprint = r.mode == Resample::Average;
        const int n = footprint ? w + 1 : w;
        for (int i = 0; i < n; ++i) {
            x1[size_t(i)] = footprint ? i : i + 0.5, y1[size_t(i)] = footprint ? row : row + 0.5;
            x2[size_t(i)] = i, y2[size_t(i)] = row + 1;
        }
        toLoaded.apply(n, x1.data(), y1.data(), ok1.data());
        if (footprint) toLoaded.apply(n, x2.data(), y2.data(), ok2.data());
        for (int i = 0; i < w; ++i) {
            const size_t c = size_t(i);
            bool set = false;
            if (footprint) {
                // All four corners must transform.
                if (!ok1[c] || !ok1[c + 1] || !ok2[c] || !ok2[c + 1]) continue;
                set = average(*loaded, std::min({x1[c], x1[c + 1], x2[c], x2[c + 1]}),
                              std::min({y1[c], y1[c + 1], y2[c], y2[c + 1]}), std::max({x1[c], x1[c + 1], x2[c], x2[c + 1]}),
                              std::max({y1[c], y1[c + 1], y2[c], y2[c + 1]}), sums);
            } else if (ok1[c]) {
                set = r.mode == Resample::Bilinear ? bilinear(*loaded, x1[c], y1[c], sums) : nearest(*loaded, x1[c], y1[c], sums);
            }
            if (!set) continue;
            const size_t p = size_t(row) * size_t(w) + c;
            out.valid[p] = 1;
            for (size_t b = 0; b < sums.size(); ++b)
                out.bands[b][p] = r.mode == Resample::Nearest ? float(sums[b]) : narrowed(sums[b], r.mode, r.storage);
        }
    }
    return out;
}

}  // namespace maptune
