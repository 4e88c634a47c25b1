#pragma once
// msGEOSCenterline's skeleton: the Voronoi edges of a polygon's vertices
// that lie inside it, as a graph, and the longest of the shortest paths
// that start at its leaves. Densely sampled boundaries make the skeleton
// follow the medial axis; a few vertices leave no edge inside at all.

#include "data/geometry.h"

#include <vector>

namespace maptune::shapeops {

// The path as x,y pairs from one leaf to the node farthest from it; empty
// when the polygon has no Voronoi edge inside it.
std::vector<double> longestSkeletonPath(const Geometry& polygon);

// msIntersectSegments: whether segments ab and cd meet (touching counts;
// collinear segments meet when they overlap).
bool segmentsIntersect(double ax, double ay, double bx, double by, double cx, double cy, double dx, double dy);

}  // namespace maptune::shapeops
