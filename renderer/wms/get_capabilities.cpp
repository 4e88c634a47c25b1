// WMS GetCapabilities.

#include "wms/wms_context.h"

namespace maptune {

Response wmsGetCapabilities(const WmsContext& ctx)
{
    return ctx.error(QStringLiteral("OperationNotSupported"),
                     QStringLiteral("msWMSGetCapabilities(): WMS server error. GetCapabilities is not implemented yet."));
}

}  // namespace maptune
