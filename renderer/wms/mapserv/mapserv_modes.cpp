#include "wms/mapserv/mapserv_modes.h"

#include "encode/image_encoder.h"
#include "encode/output_format.h"
#include "encode/svg_writer.h"
#include "encode/vector_surface.h"
#include "geo/map_projection.h"
#include "geo/map_view.h"
#include "render/legend.h"
#include "render/legend_hit_test.h"
#include "render/map_renderer.h"
#include "render/scalebar.h"
#include "wms/mapserv/cgi_error_page.h"
#include "wms/mapserv/cgi_params.h"
#include "wms/mapserv/cgi_query.h"
#include "wms/mapserv/query_output.h"
#include "wms/vector_tile_output.h"

namespace maptune {

namespace {

Response imageResponse(const QByteArray& bytes, const QString& mimeType)
{
    Response r;
    r.body = bytes;
    r.setContentType(mimeType.toUtf8());
    return r;
}

MapView mapView(const MapDef& map, const CgiParams& p)
{
    const Crs crs = resolveProjection(map, map.projection).valueOr(Crs());
    const Rect extent = p.mapExt ? *p.mapExt : map.extent;
    const int w = p.mapWidth > 0 ? p.mapWidth : std::max(1, map.width);
    const int h = p.mapHeight > 0 ? p.mapHeight : std::max(1, map.height);
    return makeMapViewFromCenterExtent(extent, w, h, crs, effectiveUnits(map, crs), map.resolution);
}

// MODE=maplegend: the legend of the layers switched on, with only the
// classes that draw something in the map extent (msHitTestMap).
QList<LegendEntry> contentLegendEntries(const PreparedMap& prepared, const CgiParams& p, const MapView& view)
{
    const MapDef& map = prepared.map();
    const QSet<int> on = cgiLayersOn(map, p);
    QHash<const LayerDef*, std::optional<QSet<int>>> hits;
    QList<LegendEntry> entries;
    for (const LegendEntry& e : mapLegendEntries(map, view.scaleDenom)) {
        const int index = int(e.layer - map.layers.data());
        if (!on.contains(index)) continue;
        if (!hits.contains(e.layer))
            hits.insert(e.layer, e.layer->type == LayerType::Raster
                                     ? std::nullopt
                                     : legendClassesHit(map, prepared.context(), *e.layer, view.extent, view.crs));
        const std::optional<QSet<int>>& hit = hits[e.layer];
        if (!hit || hit->contains(e.cls)) entries << e;
    }
    return entries;
}

// MODE=legend / maplegend (msDrawLegend) and MODE=scalebar (msDrawScalebar).
Response legendOrScalebar(const PreparedMap& prepared, const CgiParams& p, const ImageFormat& format)
{
    const MapDef& map = prepared.map();
    const bool legend = p.mode != CgiMode::Scalebar;
    const QString where = legend ? QStringLiteral("msDrawLegend(): ") : QStringLiteral("msDrawScalebar(): ");
    const MapView view = mapView(map, p);
    const QList<LegendEntry> entries = p.mode == CgiMode::MapLegend ? contentLegendEntries(prepared, p, view)
                                       : legend                    ? mapLegendEntries(map, view.scaleDenom)
                                                                   : QList<LegendEntry>();
    std::optional<VectorSurface> vector;
    if (format.kind == ImageFormat::Kind::Svg) vector.emplace(QSize());
    const QImage image = legend ? drawLegend(map, entries, format.transparent, view.scaleDenom, vector ? &*vector : nullptr)
                                : drawScalebar(map, view, vector ? &*vector : nullptr);
    if (image.isNull())
        return cgiErrorPage({where + (legend ? QStringLiteral("General error message. The legend has no class with a NAME.")
                                            : QStringLiteral("General error message. The map has no cell size."))});
    if (vector) return imageResponse(writeSvg(*vector), format.mimeType);
    const ImageFormat& written = format.formatFor(image);
    Result<QByteArray> encoded = encodeImage(image, written);
    if (!encoded) return cgiErrorPage({where + QStringLiteral("Image handling error. ") + encoded.message()});
    return imageResponse(*encoded, written.mimeType);
}

// MODE=tile: TILE "x y z" (TILEMODE gmap) or a quadkey (ve) as the edges
// of a spherical-mercator tile of TILESIZE pixels (msTileSetExtent).
Result<Rect> tileEdges(const CgiParams& p)
{
    const QString where = QStringLiteral("msTileSetup(): Web application error. ");
    int x = 0, y = 0, z = 0;
    if (p.tileMode == QLatin1String("ve")) {
        for (const QChar c : p.tile) {
            if (c < QLatin1Char('0') || c > QLatin1Char('3'))
                return Error(where + QStringLiteral("VE tile name should only include characters 0, 1, 2 and 3."));
            const int digit = c.unicode() - '0';
            x = x * 2 + (digit & 1);
            y = y * 2 + (digit >> 1);
            ++z;
        }
    } else {
        const QStringList parts = p.tile.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (parts.size() != 3) return Error(where + QStringLiteral("Invalid number of tile coordinates (should be three)."));
        x = parts[0].toInt();
        y = parts[1].toInt();
        z = parts[2].toInt();
        if (x < 0 || y < 0 || z < 0) return Error(where + QStringLiteral("GMap tile coordinates should not be less than zero."));
        if (z > 30 || x >= (1 << z) || y >= (1 << z))
            return Error(where + QStringLiteral("GMap tile coordinates are too large for supplied zoom."));
    }
    constexpr double half = 20037508.34;  // half the spherical-mercator world
    const double size = 2 * half / double(1LL << z);
    return Rect{-half + x * size, half - (y + 1) * size, -half + (x + 1) * size, half - y * size};
}

// MODE=map (msDrawMap): the layers switched on, at MAPEXT and MAPSIZE; MODE=tile
// at a tile's edges in spherical mercator.
// Why a layer failed, as mapserv words it. A local vector layer reads
// shapefiles only in MapServer: a source that does not open is its
// msShapefileOpen() pair, the newest first.
QStringList layerFailure(const MapDef& map, const LayerTrace& trace)
{
    // A GEOMTRANSFORM failure is already mapserv's chain of messages.
    if (trace.error.startsWith(QLatin1String("msGeomTransformShape()"))) return trace.error.split(QLatin1Char('\n'));
    const LayerDef* layer = map.layer(trace.layer);
    if (layer && layer->type != LayerType::Raster && layer->connectionType == ConnectionType::Local
        && trace.error.contains(QLatin1String("cannot open")))
        return {QStringLiteral("msShapefileOpen(): Unable to access file. Unable to open shapefile '%1' for layer '%2'.").arg(layer->data, layer->name),
                QStringLiteral("msShapefileOpen(): Unable to access file. (%1)").arg(layer->data)};
    return {QStringLiteral("msDrawMap(): Image handling error. %1").arg(trace.error)};
}

Response drawMap(const PreparedMap& prepared, const CgiParams& p, const ImageFormat& format)
{
    const MapDef& map = prepared.map();
    RenderRequest req;
    if (p.mapExt) req.centerExtent = *p.mapExt;
    req.width = p.mapWidth;
    req.height = p.mapHeight;
    if (p.mode == CgiMode::Tile) {
        Result<Rect> edges = tileEdges(p);
        if (!edges) return cgiErrorPage({edges.message()});
        req.centerExtent.reset();
        req.bbox = *edges;
        req.crs = Crs::fromUserInput(QStringLiteral("EPSG:3857")).valueOr(Crs());
        req.width = p.tileWidth;
        req.height = p.tileHeight;
    }
    req.format = format.name;
    const QSet<int> on = cgiLayersOn(map, p);
    QList<int> order;
    for (int i = 0; i < map.layers.size(); ++i)
        if (on.contains(i)) order << i;
    req.layerOrder = order;
    const RenderResult drawn = MapRenderer(prepared.shared_from_this()).render(req);
    if (!drawn.ok()) return cgiErrorPage({QStringLiteral("msDrawMap(): Image handling error. %1").arg(drawn.error)});
    // mapserv fails the whole map when one layer cannot be drawn.
    for (const LayerTrace& t : drawn.trace.layers) {
        if (t.error.isEmpty()) continue;
        // A label font fails the label cache, not the layer's drawing.
        if (t.error.startsWith(QLatin1String("msGetFontFace()"))) return cgiErrorPage({t.error});
        return cgiErrorPage(QStringList{QStringLiteral("msDrawMap(): Image handling error. Failed to draw layer named '%1'.").arg(t.layer)}
                            + layerFailure(map, t));
    }
    return imageResponse(drawn.bytes, drawn.mimeType);
}

// MODE=tile in a vector tile format: msMVTWriteTile instead of drawing.
Response vectorTile(const PreparedMap& prepared, const CgiParams& p, const VectorTileFormat& format)
{
    const MapDef& map = prepared.map();
    Result<Rect> edges = tileEdges(p);
    if (!edges) return cgiErrorPage({edges.message()});
    VectorTileRequest req;
    req.format = format;
    req.crs = Crs::fromUserInput(QStringLiteral("EPSG:3857")).valueOr(Crs());
    const QSet<int> on = cgiLayersOn(map, p);
    for (int i = 0; i < map.layers.size(); ++i)
        if (on.contains(i)) req.layers << i;
    req.box = vectorTileBoxFromEdges(*edges, p.tileWidth, p.tileHeight);
    req.scaleDenom = makeMapViewFromEdges(*edges, p.tileWidth, p.tileHeight, req.crs, effectiveUnits(map, req.crs), map.resolution).scaleDenom;
    Result<QByteArray> written = writeVectorTile(prepared, req);
    if (!written) return cgiErrorPage({QStringLiteral("msMVTWriteTile(): %1").arg(written.message())});
    return imageResponse(*written, format.mimeType);
}

bool isQueryMode(CgiMode m)
{
    switch (m) {
    case CgiMode::Query:
    case CgiMode::NQuery:
    case CgiMode::ItemQuery:
    case CgiMode::ItemNQuery:
    case CgiMode::FeatureQuery:
    case CgiMode::FeatureNQuery:
    case CgiMode::ItemFeatureQuery:
    case CgiMode::ItemFeatureNQuery:
    case CgiMode::IndexQuery: return true;
    default: return false;
    }
}

}  // namespace

Response mapservResponse(const PreparedMap& prepared, const WmsRequest& request)
{
    const MapDef& map = prepared.map();
    Result<CgiParams> parsed = parseCgiParams(request, map);
    if (!parsed) return cgiErrorPage({parsed.message()});
    const CgiParams& p = *parsed;
    if (const std::optional<VectorTileFormat> tile = findVectorTileFormat(map, p.imageType.value_or(defaultImageTypeName(map)))) {
        if (p.mode == CgiMode::Tile) return vectorTile(prepared, p, *tile);
        // mapserv has no image renderer for MVT.
        if (p.mode == CgiMode::Map)
            return cgiErrorPage({QStringLiteral("msDrawMap(): Image handling error. Unable to initialize image."),
                                 QStringLiteral("createImage(): Renderer error. createImage not implemented")});
    }
    Result<ImageFormat> format = p.imageType ? findImageFormat(map, *p.imageType) : defaultImageFormat(map);
    if (p.imageType && !format) return cgiErrorPage({QStringLiteral("msCGILoadForm(): Web application error. Invalid imagetype value.\n")});
    const ImageFormat image = format ? *format : fallbackImageFormat();

    if (p.mode == CgiMode::Legend || p.mode == CgiMode::MapLegend || p.mode == CgiMode::Scalebar)
        return legendOrScalebar(prepared, p, image);
    if (p.mode == CgiMode::Map || p.mode == CgiMode::Tile) return drawMap(prepared, p, image);
    if (isQueryMode(p.mode)) {
        Result<CgiQueryResults> results = runCgiQuery(prepared, p, request.cancel);
        if (!results) return cgiErrorPage(results.message().split(QLatin1Char('\n')));
        return queryResponse(prepared, request, p, *results);
    }
    // A request's TEMPLATE parameter is never read: browse pages come from the WEB TEMPLATE only.
    if (p.mode == CgiMode::Browse && map.web.templ.isEmpty())
        return cgiErrorPage({QStringLiteral("mapserv(): Web application error. Traditional BROWSE mode requires a TEMPLATE in "
                                            "the WEB section, but none was provided.")});
    return cgiErrorPage({QStringLiteral("mapserv(): Web application error. Mode '%1' is not supported by MapTune.")
                             .arg(p.modeName.isEmpty() ? QStringLiteral("browse") : p.modeName)});
}

}  // namespace maptune
