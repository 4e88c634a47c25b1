// WMS GetFeatureInfo.

#include "wms/get_map_params.h"

namespace maptune {

Response wmsGetFeatureInfo(const WmsContext& ctx)
{
    GetMapParamsResult loaded = loadGetMapParams(ctx, QStringLiteral("GetFeatureInfo"), false);
    if (loaded.error) return *loaded.error;
    return ctx.error(QStringLiteral("OperationNotSupported"),
                     QStringLiteral("msWMSFeatureInfo(): WMS server error. GetFeatureInfo is not implemented yet."));
}

}  // namespace maptune
