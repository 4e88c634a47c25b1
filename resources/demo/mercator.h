#pragma once

// EPSG:3857 is the spherical Mercator projection on the WGS 84 semi-major axis,
// so the exact formulas are short and need no PROJ.

#include <cmath>
#include <numbers>

namespace maptune::demo {

struct Point
{
    double x = 0;
    double y = 0;
};

inline constexpr double kMercatorRadius = 6378137.0;

inline Point lonLatToMercator(double lon, double lat)
{
    const double lambda = lon * std::numbers::pi / 180.0;
    const double phi = lat * std::numbers::pi / 180.0;
    return {kMercatorRadius * lambda,
            kMercatorRadius * std::log(std::tan(std::numbers::pi / 4.0 + phi / 2.0))};
}

// Returns {lon, lat} in degrees.
inline Point mercatorToLonLat(Point p)
{
    const double lon = p.x / kMercatorRadius * 180.0 / std::numbers::pi;
    const double lat =
        (2.0 * std::atan(std::exp(p.y / kMercatorRadius)) - std::numbers::pi / 2.0) * 180.0
        / std::numbers::pi;
    return {lon, lat};
}

} // namespace maptune::demo
