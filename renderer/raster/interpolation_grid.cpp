#include "raster/interpolation_grid.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace maptune {

InterpolationParams InterpolationParams::fromProcessing(Method method, const ProcessingOptions& options, int imageWidth,
                                                        int imageHeight)
{
    InterpolationParams p;
    p.method = method;
    const auto on = [&options](const QString& key) {
        const std::optional<QString> v = options.value(key);
        return v && v->compare(QLatin1String("OFF"), Qt::CaseInsensitive) != 0;
    };
    if (method == Method::KernelDensity) {
        p.radius = options.value(QStringLiteral("KERNELDENSITY_RADIUS"), QStringLiteral("10")).toInt();
        p.computeBorders = on(QStringLiteral("KERNELDENSITY_COMPUTE_BORDERS"));
        const std::optional<QString> norm = options.value(QStringLiteral("KERNELDENSITY_NORMALIZATION"));
        if (norm && norm->compare(QLatin1String("AUTO"), Qt::CaseInsensitive) != 0) {
            const double n = norm->toDouble();
            p.normalization = n != 0 ? 1.0 / n : 1.0;
        }
    } else {
        p.power = options.value(QStringLiteral("IDW_POWER"), QStringLiteral("1")).toDouble();
        const std::optional<QString> radius = options.value(QStringLiteral("IDW_RADIUS"));
        // Truncated as MapServer's atof into an int, but bounded first: a huge
        // or NaN value has no int.
        const double r = radius ? radius->toDouble() : std::max(imageWidth, imageHeight);
        p.radius = r > 0 ? int(std::min(r, 10000.0)) : 0;
        p.computeBorders = on(QStringLiteral("IDW_COMPUTE_BORDERS"));
    }
    // A negative radius would make the grid smaller than the image.
    p.radius = std::clamp(p.radius, 0, 10000);
    return p;
}

InterpolationGrid::InterpolationGrid(int imageWidth, int imageHeight, const InterpolationParams& params)
    : m_width(std::max(0, imageWidth)), m_height(std::max(0, imageHeight)), m_params(params),
      m_gridWidth(m_width + 2 * params.margin()), m_gridHeight(m_height + 2 * params.margin())
{
}

void InterpolationGrid::add(int x, int y, double weight)
{
    if (x < 0 || y < 0 || x >= m_gridWidth || y >= m_gridHeight) return;
    if (m_sums.empty()) m_sums.assign(size_t(m_gridWidth) * size_t(m_gridHeight), 0.0f);
    float& v = m_sums[size_t(y) * size_t(m_gridWidth) + size_t(x)];
    v += float(weight);
    m_samples.push_back({x, y, v});
}

std::vector<uint8_t> InterpolationGrid::values() const
{
    if (m_samples.empty()) return std::vector<uint8_t>(size_t(m_width) * size_t(m_height), 0);
    return m_params.method == InterpolationParams::Method::KernelDensity ? kernelDensity() : inverseDistance();
}

namespace {

// A separable Gaussian (sigma = radius / 3) over the grid in float, as
// MapServer computes it: each pass writes only where the whole kernel fits,
// so the rows near the top and bottom keep their unblurred sums.
void gaussianBlur(std::vector<float>& values, int width, int height, int radius)
{
    const int length = radius * 2 + 1;
    std::vector<float> kernel(static_cast<size_t>(length));
    const float sigma = float(radius / 3.0);
    const float a = float(1.0 / std::sqrt(2.0 * M_PI * sigma * sigma));
    const float den = float(2.0 * sigma * sigma);
    for (int i = 0; i < length; ++i) {
        const float x = float(i - radius);
        kernel[size_t(i)] = float(a * std::exp(-(x * x) / den));
    }
    // Loops run tap by tap over whole rows so that they vectorise; every
    // output still sums its taps in MapServer's order, so the floats match.
    std::vector<float> tmp(values.size(), 0.0f);
    const int inner = width - 2 * radius;
    if (inner > 0) {
        for (int y = 0; y < height; ++y) {
            const float* src = values.data() + size_t(width) * size_t(y);
            float* __restrict dst = tmp.data() + size_t(width) * size_t(y) + radius;
            for (int i = 0; i < length; ++i) {
                const float k = kernel[size_t(i)];
                const float* __restrict s = src + i;
                for (int x = 0; x < inner; ++x) dst[x] += s[x] * k;
            }
        }
    }
    std::vector<float> row(static_cast<size_t>(width));
    for (int y = radius; y < height - radius; ++y) {
        std::fill(row.begin(), row.end(), 0.0f);
        for (int i = 0; i < length; ++i) {
            const float k = kernel[size_t(i)];
            const float* __restrict s = tmp.data() + size_t(width) * size_t(y + i - radius);
            float* __restrict out = row.data();
            for (int x = 0; x < width; ++x) out[x] += s[x] * k;
        }
        std::copy(row.begin(), row.end(), values.begin() + std::ptrdiff_t(size_t(width) * size_t(y)));
    }
}

uint8_t toByte(float norm)
{
    const float v = 255 * norm;
    if (!(v > 0)) return 0;  // NaN too
    return v >= 255 ? 255 : uint8_t(int(v));
}

}  // namespace

std::vector<uint8_t> InterpolationGrid::kernelDensity() const
{
    std::vector<float> grid = m_sums;
    const int r = m_params.radius, gw = m_gridWidth, gh = m_gridHeight;
    gaussianBlur(grid, gw, gh, r);
    float valmin = FLT_MAX, valmax = FLT_MIN;
    if (m_params.normalization == 0) {
        // MapServer divides by the largest value, not by the range.
        for (int j = r; j < gh - r; ++j) {
            for (int i = r; i < gw - r; ++i) {
                const float v = grid[size_t(j) * size_t(gw) + size_t(i)];
                if (v > 0 && v > valmax) valmax = v;
                if (v > 0 && v < valmin) valmin = v;
            }
        }
    } else {
        valmin = 0;
        valmax = float(m_params.normalization);
    }
    std::vector<uint8_t> out(size_t(m_width) * size_t(m_height), 0);
    const int m = m_params.margin();
    // Without borders only the pixels the whole kernel covered are written.
    const int from = m > 0 ? 0 : r;
    for (int j = from; j < m_height - from; ++j)
        for (int i = from; i < m_width - from; ++i)
            out[size_t(j) * size_t(m_width) + size_t(i)] = toByte((grid[size_t(j + m) * size_t(gw) + size_t(i + m)] - valmin) / valmax);
    return out;
}

// Every image pixel is the distance-weighted mean of the samples within the
// radius. MapServer measures from the image's pixel to the sample's grid
// pixel, margins included, and weighs each sample with the sum its pixel had
// when the sample was added; both are kept.
std::vector<uint8_t> InterpolationGrid::inverseDistance() const
{
    constexpr double epsilon = 0.000000001;
    std::vector<uint8_t> out(size_t(m_width) * size_t(m_height), 0);
    const double r2 = double(m_params.radius) * m_params.radius;
    const float power = float(m_params.power);
    for (int j = 0; j < m_height; ++j) {
        for (int i = 0; i < m_width; ++i) {
            double den = epsilon, num = 0;
            for (const GridSample& s : m_samples) {
                const double dx = double(float(s.x) - float(i)), dy = double(float(s.y) - float(j));
                const double d = dx * dx + dy * dy;
                if (r2 > d) {
                    const double w = 1.0 / (std::pow(d, power) + epsilon);
                    num += w * s.value;
                    den += w;
                }
            }
            const double v = num / den;
            out[size_t(j) * size_t(m_width) + size_t(i)] = v >= 255 ? 255 : v > 0 ? uint8_t(int(v)) : 0;
        }
    }
    return out;
}

}  // namespace maptune
