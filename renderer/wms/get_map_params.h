#pragma once
// The GetMap parameters shared by GetMap and GetFeatureInfo, validated the way
// msWMSLoadGetMapParams does (same checks, same order, same exception codes).

#include "geo/crs.h"
#include "wms/wms_context.h"

#include <optional>

namespace maptune {

struct GetMapParams {
    QList<int> layers;                 // map layer indexes to draw, in drawing order
    QString srs;                       // as given ("EPSG:4326")
    Crs crs;
    Rect bbox;                         // image edges, in x/y (easting/northing) order
    int width = -1, height = -1;
    QString format;
    std::optional<bool> transparent;
    std::optional<Color> background;
    // The map to draw or query: the service's, or one with the request's
    // TIME / dimension filters (wms_dimensions.h).
    PreparedMapPtr prepared;
};

struct GetMapParamsResult {
    GetMapParams params;
    std::optional<Response> error;
};

// isGetMap: FORMAT is required (GetMap) or not (GetFeatureInfo).
GetMapParamsResult loadGetMapParams(const WmsContext& ctx, const QString& request, bool isGetMap);

// msIsAxisInverted: does this CRS list latitude/northing first under WMS 1.3.0?
bool crsAxisInverted(const QString& srs);

}  // namespace maptune
