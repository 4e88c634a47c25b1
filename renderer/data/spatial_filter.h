#pragma once
// A request's spatial conditions on a layer (RequestSpatialFilterDef, from
// WMS GetMap's FILTER) made ready for the layer's features: geometries parsed
// and moved into the layer's CRS, distances into its units, so that each
// feature is tested where it is read, before it is classified or drawn.

#include "core/result.h"
#include "data/geometry.h"
#include "geo/crs.h"
#include "mapfile/layer_def.h"

#include <optional>

namespace maptune {

class SpatialFilter {
public:
    // `layerCrs`: the CRS the features come in (none: the filter's own).
    static Result<SpatialFilter> forLayer(const QList<RequestSpatialFilterDef>& defs, const std::optional<Crs>& layerCrs);

    bool isEmpty() const { return m_tests.isEmpty(); }
    bool passes(const Geometry& feature) const;

private:
    struct Test {
        RequestSpatialFilterDef::Op op;
        Geometry geometry;
        Rect bounds;
        double distance = 0;
    };
    QList<Test> m_tests;
};

}  // namespace maptune
