// WMS GetLegendGraphic.

#include "wms/wms_context.h"

namespace maptune {

Response wmsGetLegendGraphic(const WmsContext& ctx)
{
    return ctx.error(QStringLiteral("OperationNotSupported"),
                     QStringLiteral("msWMSLegendGraphic(): WMS server error. GetLegendGraphic is not implemented yet."));
}

}  // namespace maptune
