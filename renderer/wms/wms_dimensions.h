#pragma once
// WMS TIME and other dimensions (MapServer's msWMSApplyTime and
// msWMSApplyDimension): the request's TIME, ELEVATION and DIM_<name> values,
// checked against each active layer's wms_timeextent / wms_<name>_extent,
// become a FILTER on the layer -- a MapServer expression built from the
// parsed values (never from request text) that reaches every data source as
// any FILTER does. The filtered map is prepared once per distinct set of
// filters (PreparedMap::derived).

#include "wms/wms_context.h"

namespace maptune {

struct DimensionFilters {
    PreparedMapPtr map;             // the map to read: ctx.prepared, or one with the filters
    std::optional<Response> error;  // InvalidDimensionValue / MissingDimensionValue
};

// `active`: the layers the request draws or queries (ON or DEFAULT).
DimensionFilters applyWmsDimensions(const WmsContext& ctx, const QList<int>& active);

// A layer's FILTER as a logical expression, so that another condition can
// be AND-ed to it; empty when it has none (or one that needs FILTERITEM and
// has none).
QString filterAsLogical(const LayerDef& layer);

// The dimensions a layer advertises, for capabilities: time first (when
// wms_timeextent is set), then wms_dimensionlist entries that have an item,
// an extent and units.
struct LayerDimension {
    QString name;
    QString units;
    QString extent;
    std::optional<QString> defaultValue;
    bool isTime = false;
};
QList<LayerDimension> layerDimensions(const LayerDef& layer);

}  // namespace maptune
