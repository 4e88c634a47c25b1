#pragma once
// The geometry functions of GEOMTRANSFORM expressions, with MapServer's
// semantics (mapgeos.c, mapprimitive.c, mapsmoothing.c). Coordinates are
// whatever the caller works in: map units for a LAYER's transform, pixels
// for a STYLE's. A failure's message is the innermost MapServer error line
// ("msGEOSCenterline(): GEOS library error. ..."), empty where MapServer
// reports nothing beyond "Executing <function> failed.".

#include "core/result.h"
#include "data/geometry.h"

namespace maptune::shapeops {

// Bounds MapServer does not have, so that no expression holds a worker for
// minutes or fills its memory: points densify may add, vertices centerline
// takes, smoothing passes.
constexpr double kMaxDensifiedPoints = 2e6;
constexpr int kMaxCenterlineVertices = 5000;
constexpr int kMaxSmoothingIterations = 100;

Result<Geometry> buffer(const Geometry& g, double width);
Result<Geometry> simplify(const Geometry& g, double tolerance);
Result<Geometry> simplifyPreservingTopology(const Geometry& g, double tolerance);
Result<Geometry> difference(const Geometry& a, const Geometry& b);
// Points added so that no segment is longer than `tolerance` (> 0).
Result<Geometry> densify(const Geometry& g, double tolerance);
// Vertices closer than `tolerance` to the last kept one dropped (the first
// part only, as msGeneralize).
Result<Geometry> generalize(const Geometry& g, double tolerance);
// Sliding averaging (RFC 94): window `size` (odd, >= 3), `iterations` (at most 100),
// preprocessing "angle" or "all" adds points at sharp turns first.
Result<Geometry> smoothSia(const Geometry& g, int size, int iterations, const QString& preprocessing);
// A polygon's outer (or inner) rings, still a polygon.
Result<Geometry> rings(const Geometry& g, bool outer);
// The longest path through the polygon's Voronoi skeleton.
Result<Geometry> centerline(const Geometry& g);

// Which rings of a polygon are outer ones (msGetOuterList): a ring inside an
// even number of the others.
std::vector<bool> outerRings(const Geometry& g);

}  // namespace maptune::shapeops
