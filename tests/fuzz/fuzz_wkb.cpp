// WKB / EWKB as PostGIS sends it in binary results: decode, then the queries
// GetFeatureInfo runs on the geometry.

#include "fuzz_targets.h"

#include "data/geometry.h"

namespace maptune::fuzz {

int wkb(const uint8_t* data, size_t size)
{
    Geometry g;
    if (const Status decoded = decodeWkb(data, size, g); !decoded) {
        check(!decoded.message().isEmpty(), "a refused WKB says why");
        return 0;
    }
    check(g.xy.size() % 2 == 0, "coordinates come in x,y pairs");
    int previous = 0;
    for (int part = 0; part < g.partCount(); ++part) {
        check(g.partStart[size_t(part)] >= previous, "parts start in order");
        check(g.partStart[size_t(part)] <= g.pointCount(), "parts start inside the coordinates");
        previous = g.partStart[size_t(part)];
    }
    if (g.isEmpty()) return 0;
    g.bounds();
    containsPoint(g, g.xy[0], g.xy[1]);
    distanceToPoint(g, 0.5, -0.5);
    return 0;
}

}  // namespace maptune::fuzz
