// WMS GetMap: the validated parameters drive one MapRenderer call.

#include "wms/get_map_params.h"

#include "render/map_renderer.h"

namespace maptune {

namespace {

// MapServer draws the STATUS DEFAULT layers first, then the requested ones in
// LAYERS order: a copy of the map with its layers in that order and switched on.
MapDefPtr mapForLayers(const MapDef& map, const QList<int>& order)
{
    auto copy = std::make_shared<MapDef>(map);
    copy->layers.clear();
    for (int index : order) {
        LayerDef layer = map.layers[index];
        if (layer.status != LayerStatus::Default) layer.status = LayerStatus::On;
        copy->layers.append(layer);
    }
    return copy;
}

}  // namespace

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
    const RenderResult result = MapRenderer(mapForLayers(ctx.map, p.layers)).render(req);
    if (!result.ok())
        return ctx.error({}, QStringLiteral("msWMSGetMap(): WMS server error. ") + result.error, {p.width, p.height});
    if (req.cancel.isCancelled())
        return ctx.error({}, QStringLiteral("msWMSGetMap(): WMS server error. The request ran over the server's time limit "
                                            "and was cancelled; ask for a smaller image or fewer layers."),
                         {p.width, p.height});
    Response r;
    r.body = result.bytes;
    r.setContentType(result.mimeType.toUtf8());
    r.trace = result.trace;
    return r;
}

}  // namespace maptune
