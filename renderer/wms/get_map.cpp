// WMS GetMap: the validated parameters drive one MapRenderer call.

#include "wms/get_map_params.h"

#include "geo/map_view.h"
#include "render/map_renderer.h"
#include "wms/kml_output.h"
#include "wms/vector_tile_output.h"

namespace maptune {

namespace {

Crs requestCrs(const GetMapParams& p) { return p.crs.isValid() ? p.crs : p.prepared->crs().value_or(Crs()); }

double scaleDenominator(const WmsContext& ctx, const GetMapParams& p, const Crs& crs)
{
    return makeMapViewFromEdges(p.bbox, p.width, p.height, crs, effectiveUnits(ctx.map, crs), ctx.map.resolution).scaleDenom;
}

Response kmlGetMap(const WmsContext& ctx, const GetMapParams& p, bool kmz)
{
    KmlRequest request;
    request.bbox = p.bbox;
    request.crs = requestCrs(p);
    request.layers = p.layers;
    request.scaleDenom = scaleDenominator(ctx, p, request.crs);
    request.cancel = ctx.request.cancel;
    Result<QByteArray> written = writeKml(*p.prepared, request, kmz);
    if (!written) return ctx.error({}, QStringLiteral("msWMSGetMap(): WMS server error. ") + written.message(), {p.width, p.height});
    Response r;
    r.body = std::move(written).value();
    r.setContentType(kmz ? "application/vnd.google-earth.kmz" : "application/vnd.google-earth.kml+xml");
    return r;
}

Response vectorTileGetMap(const WmsContext& ctx, const GetMapParams& p, const VectorTileFormat& format)
{
    VectorTileRequest request;
    request.box = vectorTileBoxFromEdges(p.bbox, p.width, p.height);
    request.crs = requestCrs(p);
    request.layers = p.layers;
    request.scaleDenom = scaleDenominator(ctx, p, request.crs);
    request.cancel = ctx.request.cancel;
    request.format = format;
    Result<QByteArray> written = writeVectorTile(*p.prepared, request);
    if (!written) return ctx.error({}, QStringLiteral("msWMSGetMap(): WMS server error. ") + written.message(), {p.width, p.height});
    Response r;
    r.body = std::move(written).value();
    r.setContentType(format.mimeType.toUtf8());
    return r;
}

}  // namespace

Response wmsGetMap(const WmsContext& ctx)
{
    GetMapParamsResult loaded = loadGetMapParams(ctx, QStringLiteral("GetMap"), true);
    if (loaded.error) return *loaded.error;
    const GetMapParams& p = loaded.params;
    bool kmz = false;
    if (isKmlFormat(ctx.map, p.format, &kmz)) return kmlGetMap(ctx, p, kmz);
    if (const std::optional<VectorTileFormat> tile = findVectorTileFormat(ctx.map, p.format)) return vectorTileGetMap(ctx, p, *tile);

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
