#include "wms/cgi_mode.h"

#include "encode/image_encoder.h"
#include "encode/output_format.h"
#include "geo/map_projection.h"
#include "geo/map_view.h"
#include "render/legend.h"
#include "render/scalebar.h"

namespace maptune {

namespace {

MapView mapView(const MapDef& map)
{
    const Crs crs = resolveProjection(map, map.projection).valueOr(Crs());
    return makeMapViewFromCenterExtent(map.extent, std::max(1, map.width), std::max(1, map.height), crs,
                                       effectiveUnits(map, crs), map.resolution);
}

}  // namespace

std::optional<Response> cgiModeImage(const WmsContext& ctx)
{
    const QString mode = ctx.request.value(QStringLiteral("MODE")).value_or(QString()).toLower();
    if (mode != QLatin1String("legend") && mode != QLatin1String("scalebar")) return std::nullopt;
    const QString where = mode == QLatin1String("legend") ? QStringLiteral("msDrawLegend(): ") : QStringLiteral("msDrawScalebar(): ");
    const auto typeName = ctx.request.value(QStringLiteral("MAP.IMAGETYPE"));
    Result<ImageFormat> format = typeName ? findImageFormat(ctx.map, *typeName) : defaultImageFormat(ctx.map);
    if (!format) return ctx.error({}, where + format.message());
    const MapView view = mapView(ctx.map);
    const QImage image = mode == QLatin1String("legend")
                             ? drawLegend(ctx.map, mapLegendEntries(ctx.map, view.scaleDenom), format->transparent)
                             : drawScalebar(ctx.map, view);
    if (image.isNull())
        return ctx.error({}, where + (mode == QLatin1String("legend") ? QStringLiteral("the legend has no class with a NAME")
                                                                      : QStringLiteral("the map has no cell size")));
    Result<QByteArray> encoded = encodeImage(image, *format);
    if (!encoded) return ctx.error({}, where + encoded.message());
    Response r;
    r.body = std::move(encoded).value();
    r.setContentType(format->mimeType.toUtf8());
    return r;
}

}  // namespace maptune
