#pragma once
// Raster CLASSes: colours per pixel value. MapServer classifies a palette
// index (8-bit data) or a bucket of the scaled value range (other types)
// once, builds a colour table and then only looks pixels up in it — so do we.

#include "core/result.h"
#include "mapfile/map_def.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace maptune {

struct Rgba8 {
    uint8_t r = 0, g = 0, b = 0, a = 0;  // a == 0: transparent (no class)
};

class RasterClassifier {
public:
    virtual ~RasterClassifier() = default;

    // Null when the layer is not classified: MapServer only classifies when
    // some class has an EXPRESSION or a style has a COLORRANGE (a bare class
    // for the legend does not count). Errors: an expression that does not compile.
    static Result<std::unique_ptr<RasterClassifier>> create(const LayerDef& layer);

    // Colour of 8-bit value `index` whose palette colour is (r, g, b).
    virtual Rgba8 classifyIndex(int index, int r, int g, int b) const = 0;
    // Colour for a bucket of non-8-bit data: `value` is the bucket centre
    // (or the bucket number with CLASSIFY_SCALED), `halfWidth` half a bucket
    // in data units (COLORRANGE matching is inclusive of it).
    virtual Rgba8 classifyValue(double value, double rangeValue, double halfWidth) const = 0;
};

}  // namespace maptune
