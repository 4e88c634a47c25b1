#pragma once
// The CRS a mapfile PROJECTION block means -- the one rule drawing, queries,
// extents and capabilities share. `init=file:code` with a relative file reads
// that file next to the mapfile (MapServer's rule), whatever the working
// directory; every other form goes to PROJ (Crs::fromProjection).

#include "core/rect.h"
#include "geo/crs.h"
#include "mapfile/projection_def.h"

#include <QPointF>

#include <optional>

namespace maptune {

struct MapDef;
class CoordinateTransform;

// nullopt for an unset or AUTO projection (error says which) and for one that
// does not resolve.
Result<Crs> resolveProjection(const MapDef& map, const ProjectionDef& projection);

// msProjectRect: the bounds of 101 samples along each edge of `r`; `r` itself
// when the transform is the identity or fails everywhere.
Rect projectRect(const Crs& from, const Crs& to, const Rect& r);

// msProjectSegment: from `good` (which transforms) toward `bad` (which does
// not, e.g. past an orthographic globe's horizon), halved until the two are
// within 0.01 source units (|dx| + |dy|); the last good point, transformed.
std::optional<QPointF> horizonPoint(const CoordinateTransform& t, QPointF good, QPointF bad);

}  // namespace maptune
