// WMS GetMap: the validated parameters drive one MapRenderer call.

#include "wms/get_map_params.h"

#include "render/map_renderer.h"

namespace maptune {

Response wmsGetMap(const WmsContext& ctx)
{
    GetMapParamsResult loaded = loadGetMapParams(ctx, QStringLiteral("GetMap"), true);
    if (loaded.error) return *loaded.error;
    const GetMapParams& p = loaded.params;

    RenderRequest req;
    req.bbox = p.bbox;
    req.width = p.width;
    req.height = p.height;
    if (p.crs.isValid()) req.crs = p.crs;
    req.format = p.format;
    req.transparent = p.transparent;
    req.background = p.background;
    req.cancel = ctx.request.cancel;
    // MapServer draws the STATUS DEFAULT layers first, then LAYERS in order.
    req.layerOrder = p.layers;
    const RenderResult result = MapRenderer(p.prepared).render(req);
    if (!result.ok())
        return ctx.error({}, QStringLiteral("msWMSGetMap(): WMS server error. ") + result.error, {p.width, p.height});
    if (req.cancel.isCancelled())
        return ctx.error({}, QStringLiteral("msWMSGetMap(): WMS server error. The request ran over the server's time limit "
                                            "and was cancelled; ask for a smaller image or fewer layers."),
                         {p.width, p.height});
    Response r;
    r.subject = Response::Subject{ctx.request.value(QStringLiteral("LAYERS")).value_or(QString()), p.srs, p.width, p.height};
    r.body = result.bytes;
    r.setContentType(result.mimeType.toUtf8());
    r.trace = result.trace;
    return r;
}

}  // namespace maptune
