#pragma once
// GetMap's FILTER parameter (MapServer's msWMSApplyFilter): one OGC filter
// per LAYERS entry -- "(<Filter>...</Filter>)(...)", "()" for none, or a
// single <Filter> for a single entry -- each applied to the layers its entry
// names (a group names all of its layers). The filtered map is prepared once
// per distinct set of filters (PreparedMap::derived).

#include "wms/wms_context.h"

namespace maptune {

struct WmsFilterResult {
    PreparedMapPtr map;             // `base`, or one with the filters
    std::optional<Response> error;  // InvalidParameterValue
};

// `layers`: the LAYERS entries as given; `crs`: the request's CRS/SRS value.
WmsFilterResult applyWmsFilter(const WmsContext& ctx, const PreparedMapPtr& base, const QStringList& layers, const QString& crs);

}  // namespace maptune
