#pragma once
// A feature's geometry as MapServer's MVT writer encodes it (mapmvt.c):
// scaled onto the tile's integer grid by truncation, repeated vertices
// dropped, polygon rings ordered outer-first and wound clockwise (holes
// counter-clockwise) in tile coordinates, slivers dropped, then clipped to
// the tile plus its edge buffer (msClipPolylineRect / msClipPolygonRect)
// and written as MoveTo / LineTo / ClosePath commands.

#include "core/rect.h"
#include "data/geometry.h"

#include <cstdint>
#include <vector>

namespace maptune {

struct TilePoint {
    double x = 0, y = 0;
};
using TileLine = std::vector<TilePoint>;

enum class TileGeometryType { Point = 1, Line = 2, Polygon = 3 };

// The geometry's command stream; empty when nothing is left to encode.
// `bbox`: the tile's unbuffered extent in the geometry's CRS; `extent`: the
// grid's size (4096); `buffer`: EDGE_BUFFER in pixels (16 grid units each).
std::vector<std::uint32_t> encodeTileGeometry(const Geometry& g, TileGeometryType type, const Rect& bbox, int extent, int buffer);

// The clippers, exposed for their tests.
std::vector<TileLine> clipPolylineRect(const std::vector<TileLine>& lines, const Rect& rect);
std::vector<TileLine> clipPolygonRect(const std::vector<TileLine>& rings, const Rect& rect);

}  // namespace maptune
