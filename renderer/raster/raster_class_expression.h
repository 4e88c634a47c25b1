#pragma once
// Raster class EXPRESSIONs: MapServer offers [pixel], [red], [green] and [blue]
// to a raster layer's classes.

#include "core/result.h"
#include "mapfile/expression_def.h"

#include <functional>

namespace maptune {

// Whether a pixel (its value and palette colour) is in the class.
using RasterClassMatch = std::function<bool(double pixel, int red, int green, int blue)>;

Result<RasterClassMatch> compileRasterExpression(const ExpressionDef& def);

}  // namespace maptune
