#pragma once
// The geometry tests of MapServer's queries (mapsearch.c): whether a feature
// meets a search polygon, and how far apart two shapes are. Rings follow the
// even-odd rule, as Geometry stores them (holes and multipolygon parts alike).

#include "data/geometry.h"

namespace maptune {

// A Polygon geometry of one ring: the rectangle's corners, closed.
Geometry rectGeometry(const Rect& r);

// msIntersect*Polygon: `shape` (point, line or polygon) meets `area` (a
// polygon): a vertex of either lies inside the other, or two edges cross.
bool intersectsPolygon(const Geometry& shape, const Geometry& area);

// msDistanceShapeToShape: 0 when they intersect (an area being a polygon),
// else the shortest distance between their vertices and edges.
double distanceBetween(const Geometry& a, const Geometry& b);

}  // namespace maptune
