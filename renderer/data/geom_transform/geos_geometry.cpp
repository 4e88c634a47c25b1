#include "data/geom_transform/geos_geometry.h"

#include "data/geom_transform/shape_operations.h"

#include <vector>

namespace maptune {

namespace {

GEOSCoordSequence* sequence(GEOSContextHandle_t h, const Geometry& g, int part, bool close)
{
    const int start = g.partStart[part], end = g.partEnd(part);
    const bool open = close && (g.xy[2 * start] != g.xy[2 * (end - 1)] || g.xy[2 * start + 1] != g.xy[2 * (end - 1) + 1]);
    const unsigned n = unsigned(end - start + (open ? 1 : 0));
    GEOSCoordSequence* seq = GEOSCoordSeq_create_r(h, n, 2);
    if (!seq) return nullptr;
    for (int i = start; i < end; ++i) GEOSCoordSeq_setXY_r(h, seq, unsigned(i - start), g.xy[2 * i], g.xy[2 * i + 1]);
    if (open) GEOSCoordSeq_setXY_r(h, seq, n - 1, g.xy[2 * start], g.xy[2 * start + 1]);
    return seq;
}

GEOSGeometry* ring(GEOSContextHandle_t h, const Geometry& g, int part)
{
    if (g.partEnd(part) - g.partStart[part] < 3) return nullptr;
    GEOSCoordSequence* seq = sequence(h, g, part, true);
    return seq ? GEOSGeom_createLinearRing_r(h, seq) : nullptr;
}

GEOSGeometry* collection(GEOSContextHandle_t h, int type, std::vector<GEOSGeometry*>& parts)
{
    if (parts.size() == 1) return parts.front();
    return GEOSGeom_createCollection_r(h, type, parts.data(), unsigned(parts.size()));
}

GEOSGeometry* polygons(GEOSContextHandle_t h, const Geometry& g)
{
    const std::vector<bool> outer = shapeops::outerRings(g);
    std::vector<GEOSGeometry*> made;
    for (int r = 0; r < g.partCount(); ++r) {
        if (!outer[size_t(r)]) continue;
        GEOSGeometry* shell = ring(h, g, r);
        if (!shell) continue;
        // Holes: the inner rings whose first vertex lies in this shell.
        Geometry shellOnly;
        shellOnly.type = Geometry::Type::Polygon;
        shellOnly.xy.assign(g.xy.begin() + 2 * g.partStart[r], g.xy.begin() + 2 * g.partEnd(r));
        shellOnly.partStart = {0};
        std::vector<GEOSGeometry*> holes;
        for (int i = 0; i < g.partCount(); ++i) {
            if (outer[size_t(i)]) continue;
            const int s = g.partStart[i];
            if (!containsPoint(shellOnly, g.xy[2 * s], g.xy[2 * s + 1])) continue;
            if (GEOSGeometry* hole = ring(h, g, i)) holes.push_back(hole);
        }
        made.push_back(GEOSGeom_createPolygon_r(h, shell, holes.data(), unsigned(holes.size())));
    }
    if (made.empty()) return nullptr;
    return collection(h, GEOS_MULTIPOLYGON, made);
}

void append(GEOSContextHandle_t h, const GEOSGeometry* g, Geometry& out, Geometry::Type want)
{
    const int type = GEOSGeomTypeId_r(h, g);
    switch (type) {
    case GEOS_MULTIPOINT:
    case GEOS_MULTILINESTRING:
    case GEOS_MULTIPOLYGON:
    case GEOS_GEOMETRYCOLLECTION: {
        const int n = GEOSGetNumGeometries_r(h, g);
        for (int i = 0; i < n; ++i) append(h, GEOSGetGeometryN_r(h, g, i), out, want);
        return;
    }
    case GEOS_POLYGON: {
        if (want != Geometry::Type::Polygon) return;
        append(h, GEOSGetExteriorRing_r(h, g), out, Geometry::Type::Polygon);
        const int n = GEOSGetNumInteriorRings_r(h, g);
        for (int i = 0; i < n; ++i) append(h, GEOSGetInteriorRingN_r(h, g, i), out, Geometry::Type::Polygon);
        return;
    }
    default: break;
    }
    const bool isPoint = type == GEOS_POINT;
    if (isPoint != (want == Geometry::Type::Point)) return;
    if (type == GEOS_LINESTRING && want != Geometry::Type::Line) return;
    const GEOSCoordSequence* seq = GEOSGeom_getCoordSeq_r(h, g);
    unsigned size = 0;
    if (!seq || !GEOSCoordSeq_getSize_r(h, seq, &size) || size == 0) return;
    if (!isPoint || out.partStart.empty()) out.partStart.push_back(out.pointCount());
    for (unsigned i = 0; i < size; ++i) {
        double x = 0, y = 0;
        GEOSCoordSeq_getXY_r(h, seq, i, &x, &y);
        out.xy.push_back(x);
        out.xy.push_back(y);
    }
}

int dimensionOf(GEOSContextHandle_t h, const GEOSGeometry* g)
{
    switch (GEOSGeomTypeId_r(h, g)) {
    case GEOS_POINT: return 0;
    case GEOS_LINESTRING:
    case GEOS_LINEARRING: return 1;
    case GEOS_POLYGON: return 2;
    default: break;
    }
    int best = -1;
    const int n = GEOSGetNumGeometries_r(h, g);
    for (int i = 0; i < n; ++i) best = std::max(best, dimensionOf(h, GEOSGetGeometryN_r(h, g, i)));
    return best;
}

}  // namespace

GeosGeometry toGeos(const Geometry& g)
{
    if (g.isEmpty()) return nullptr;
    GEOSContextHandle_t h = geosForThread();
    std::vector<GEOSGeometry*> parts;
    switch (g.type) {
    case Geometry::Type::Point:
        for (int i = 0; i < g.pointCount(); ++i) parts.push_back(GEOSGeom_createPointFromXY_r(h, g.xy[2 * i], g.xy[2 * i + 1]));
        return GeosGeometry(collection(h, GEOS_MULTIPOINT, parts));
    case Geometry::Type::Line:
        for (int p = 0; p < g.partCount(); ++p) {
            if (g.partEnd(p) - g.partStart[p] < 2) continue;
            if (GEOSCoordSequence* seq = sequence(h, g, p, false)) parts.push_back(GEOSGeom_createLineString_r(h, seq));
        }
        if (parts.empty()) return nullptr;
        return GeosGeometry(collection(h, GEOS_MULTILINESTRING, parts));
    case Geometry::Type::Polygon: return GeosGeometry(polygons(h, g));
    case Geometry::Type::None: break;
    }
    return nullptr;
}

Geometry fromGeos(const GEOSGeometry* g)
{
    Geometry out;
    if (!g) return out;
    GEOSContextHandle_t h = geosForThread();
    const int dim = dimensionOf(h, g);
    if (dim < 0) return out;
    out.type = dim == 0 ? Geometry::Type::Point : dim == 1 ? Geometry::Type::Line : Geometry::Type::Polygon;
    append(h, g, out, out.type);
    if (out.isEmpty()) out.clear();
    return out;
}

}  // namespace maptune
