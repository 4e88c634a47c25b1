#include "data/spatial_filter.h"

#include "data/geometry_relate.h"
#include "geo/coordinate_transform.h"

namespace maptune {

Result<SpatialFilter> SpatialFilter::forLayer(const QList<RequestSpatialFilterDef>& defs, const std::optional<Crs>& layerCrs)
{
    SpatialFilter out;
    for (const RequestSpatialFilterDef& def : defs) {
        Result<Geometry> geometry = geometryFromWkt(def.wkt);
        if (!geometry) return Error(QStringLiteral("FILTER geometry: ") + geometry.message());
        Test t{def.op, std::move(geometry).value(), {}, 0};
        double unitMeters = 1;
        std::optional<Crs> from;
        if (!def.crs.isEmpty()) {
            Result<Crs> crs = Crs::fromUserInput(def.crs);
            if (!crs) return Error(QStringLiteral("FILTER srsName: ") + crs.message());
            from = *crs;
            unitMeters = from->metersPerUnit();
        }
        if (from && layerCrs && *from != *layerCrs) {
            auto transform = CoordinateTransform::forThread(*from, *layerCrs);
            if (!transform) return Error(QStringLiteral("FILTER geometry: ") + transform.message());
            (*transform)->transform(t.geometry.xy.data(), t.geometry.xy.data() + 1, t.geometry.pointCount(), 2);
            unitMeters = layerCrs->metersPerUnit();
        }
        t.distance = def.distance * def.metersPerUnit / (unitMeters > 0 ? unitMeters : 1);
        t.bounds = t.geometry.bounds();
        out.m_tests << std::move(t);
    }
    return out;
}

bool SpatialFilter::passes(const Geometry& feature) const
{
    using Op = RequestSpatialFilterDef::Op;
    if (m_tests.isEmpty()) return true;
    const Rect box = feature.bounds();
    for (const Test& t : m_tests) {
        const double reach = t.op == Op::DWithin || t.op == Op::Beyond ? t.distance : 0;
        // Boxes further apart than the distance cannot meet.
        const bool near = box.minx <= t.bounds.maxx + reach && box.maxx >= t.bounds.minx - reach
                          && box.miny <= t.bounds.maxy + reach && box.maxy >= t.bounds.miny - reach;
        const bool within = near && distanceBetween(feature, t.geometry) <= reach;
        const bool wanted = t.op == Op::Intersects || t.op == Op::DWithin;
        if (within != wanted) return false;
    }
    return true;
}

}  // namespace maptune
