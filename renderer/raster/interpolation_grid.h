#pragma once
// The surfaces of CONNECTIONTYPE KERNELDENSITY and IDW layers (MapServer's
// msInterpolationDataset): sample points of another layer accumulated on the
// map's pixel grid, then smoothed by a Gaussian kernel or interpolated by
// inverse distance, and scaled to the 0..255 values the layer's raster
// classes colour.

#include "mapfile/processing.h"

#include <cstdint>
#include <vector>

namespace maptune {

struct InterpolationParams {
    enum class Method { KernelDensity, Idw };
    Method method = Method::KernelDensity;
    int radius = 10;                 // pixels
    bool computeBorders = false;     // sample points up to `radius` outside the map too
    double normalization = 0;        // KERNELDENSITY: 1 / NORMALIZATION; 0: AUTO (by the data's range)
    double power = 1;                // IDW_POWER

    // KERNELDENSITY_* or IDW_* keys; IDW's radius defaults to the larger image side.
    static InterpolationParams fromProcessing(Method method, const ProcessingOptions& options, int imageWidth,
                                              int imageHeight);
    // Pixels the sample grid reaches past each image edge.
    int margin() const { return computeBorders ? radius : 0; }
};

// One sample on the grid: its pixel (in the grid, margins included) and the
// weight accumulated on that pixel when it was added (MapServer's order).
struct GridSample {
    int x = 0, y = 0;
    float value = 0;
};

class InterpolationGrid {
public:
    // A grid for an image of width x height with `params`' margins.
    InterpolationGrid(int imageWidth, int imageHeight, const InterpolationParams& params);

    int gridWidth() const { return m_gridWidth; }
    int gridHeight() const { return m_gridHeight; }

    // Adds `weight` at grid pixel (x, y); pixels off the grid are ignored.
    void add(int x, int y, double weight);
    int sampleCount() const { return int(m_samples.size()); }

    // The image's 0..255 values, row by row (width x height).
    std::vector<uint8_t> values() const;

private:
    std::vector<uint8_t> kernelDensity() const;
    std::vector<uint8_t> inverseDistance() const;

    int m_width, m_height;
    InterpolationParams m_params;
    int m_gridWidth, m_gridHeight;
    std::vector<float> m_sums;  // allocated with the first sample
    std::vector<GridSample> m_samples;
};

}  // namespace maptune
