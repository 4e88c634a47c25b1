#pragma once
// An axis-aligned rectangle in map units (an EXTENT, a BBOX).

#include <cmath>

namespace maptune {

// minx/miny/maxx/maxy of -1 each: not set (MapServer's default EXTENT).
struct Rect {
    double minx = -1, miny = -1, maxx = -1, maxy = -1;
    bool isValid() const { return maxx > minx && maxy > miny; }
    bool isFinite() const { return std::isfinite(minx) && std::isfinite(miny) && std::isfinite(maxx) && std::isfinite(maxy); }
    double width() const { return maxx - minx; }
    double height() const { return maxy - miny; }
    bool operator==(const Rect&) const = default;
};

}  // namespace maptune
