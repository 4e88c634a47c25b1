#pragma once
// Geometry <-> GEOS. Geometry keeps a polygon's rings flat (even-odd); GEOS
// wants shells with their holes, so rings are nested as MapServer nests them
// (msGetOuterList / msGetInnerList) on the way in.

#include "data/geometry.h"
#include "geo/geos_context.h"

namespace maptune {

// Null for an empty geometry or one GEOS refuses (a ring of < 4 points).
GeosGeometry toGeos(const Geometry& g);
// Collections flattened into the highest dimension found (as decodeWkb does).
Geometry fromGeos(const GEOSGeometry* g);

}  // namespace maptune
