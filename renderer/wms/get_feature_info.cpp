// WMS GetFeatureInfo: a point query of QUERY_LAYERS at the clicked pixel
// (msWMSFeatureInfo + msQueryByPoint), answered in the INFO_FORMAT asked for
// (feature_info_output.h).

#include "wms/feature_info_output.h"
#include "geo/map_projection.h"
#include "wms/get_map_params.h"
#include "wms/mapserv/ogr_query_output.h"
#include "wms/mapserv/query_output.h"
#include "wms/ows_layer_info.h"
#include "raster/raster_query.h"

#include "render/feature_source_factory.h"
#include "geo/coordinate_transform.h"

#include "geo/map_view.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <deque>

namespace maptune {

namespace {

// Whether text/html goes through MapServer's query templates: an OUTPUTFORMAT
// for it with the TEMPLATE driver, or template files on every layer that
// found something. Otherwise (a TEMPLATE that only marks the layer as
// queryable) our own table answers.
// msTranslateWMS2Mapserv: the request as mapserv's templates see it, with
// X and Y as img.x and img.y, each of LAYERS as a layer, each of QUERY_LAYERS
// as a qlayer and BBOX as imgext, after the WMS parameters.
WmsRequest templateRequest(const WmsRequest& request)
{
    WmsRequest out = request;
    const auto add = [&](const char* name, const QString& value) { out.params.append({QString::fromLatin1(name), value}); };
    for (const auto& param : request.params) {
        const QString& name = param.first;
        if (name.compare(QLatin1String("X"), Qt::CaseInsensitive) == 0) add("img.x", param.second);
        else if (name.compare(QLatin1String("Y"), Qt::CaseInsensitive) == 0) add("img.y", param.second);
        else if (name.compare(QLatin1String("LAYERS"), Qt::CaseInsensitive) == 0)
            for (const QString& l : param.second.split(QLatin1Char(','), Qt::SkipEmptyParts)) add("layer", l);
        else if (name.compare(QLatin1String("QUERY_LAYERS"), Qt::CaseInsensitive) == 0)
            for (const QString& l : param.second.split(QLatin1Char(','), Qt::SkipEmptyParts)) add("qlayer", l);
        else if (name.compare(QLatin1String("BBOX"), Qt::CaseInsensitive) == 0) add("imgext", QString(param.second).replace(QLatin1Char(','), QLatin1Char(' ')));
    }
    return out;
}

bool usesHtmlTemplates(const MapDef& map, const QList<FeatureInfoLayer>& results)
{
    for (const OutputFormatDef& f : map.outputFormats)
        if (f.driver.compare(QLatin1String("TEMPLATE"), Qt::CaseInsensitive) == 0
            && (f.mimeType.compare(QLatin1String("text/html"), Qt::CaseInsensitive) == 0
                || f.name.compare(QLatin1String("text/html"), Qt::CaseInsensitive) == 0))
            return true;
    bool any = false;
    for (const FeatureInfoLayer& l : results) {
        if (l.features.isEmpty()) continue;
        any = true;
        const QString& file = l.layer->templ;
        if (file.isEmpty() || !QFileInfo(QDir(map.baseDir()).filePath(file)).isFile()) return false;
    }
    return any;
}

}  // namespace

Response wmsGetFeatureInfo(const WmsContext& ctx)
{
    GetMapParamsResult loaded = loadGetMapParams(ctx, QStringLiteral("GetFeatureInfo"), false);
    if (loaded.error) return *loaded.error;
    const GetMapParams& p = loaded.params;
    const QString where = QStringLiteral("msWMSFeatureInfo(): WMS server error. ");

    const auto queryLayers = ctx.request.value(QStringLiteral("QUERY_LAYERS"));
    if (!queryLayers || queryLayers->isEmpty())
        return ctx.error(QStringLiteral("LayerNotDefined"), where + QStringLiteral("Required QUERY_LAYERS parameter missing for getFeatureInfo."));
    const bool v130 = ctx.version >= Wms130;
    auto xs = ctx.request.value(v130 ? QStringLiteral("I") : QStringLiteral("X"));
    auto ys = ctx.request.value(v130 ? QStringLiteral("J") : QStringLiteral("Y"));
    if (!xs) xs = ctx.request.value(v130 ? QStringLiteral("X") : QStringLiteral("I"));
    if (!ys) ys = ctx.request.value(v130 ? QStringLiteral("Y") : QStringLiteral("J"));
    if (!xs || !ys)
        return ctx.error(QStringLiteral("InvalidPoint"), where + QStringLiteral("Parameter I/J or X/Y missing for getFeatureInfo."));
    bool xOk = false, yOk = false;
    const double ix = xs->toDouble(&xOk), iy = ys->toDouble(&yOk);
    // A point that is no finite number would make an unbounded query.
    if (!xOk || !yOk || !std::isfinite(ix) || !std::isfinite(iy))
        return ctx.error(QStringLiteral("InvalidPoint"), where + QStringLiteral("Parameter I/J or X/Y is not a number."));
    const int count = ctx.request.value(QStringLiteral("FEATURE_COUNT")).value_or(QStringLiteral("1")).toInt();
    const QString format = ctx.request.value(QStringLiteral("INFO_FORMAT")).value_or(QStringLiteral("MIME"));

    const double cellX = p.bbox.width() / p.width, cellY = p.bbox.height() / p.height;
    const double px = p.bbox.minx + (ix + 0.5) * cellX, py = p.bbox.maxy - (iy + 0.5) * cellY;

    // RADIUS (vendor, as mapserv): every layer's TOLERANCE in pixels.
    PointQuery query;
    query.x = px;
    query.y = py;
    query.crs = p.crs;
    query.cellSize = cellX;
    query.scaleDenom = makeMapViewFromEdges(p.bbox, p.width, p.height, p.crs, effectiveUnits(ctx.map, p.crs),
                                            ctx.map.resolution).scaleDenom;
    query.maxFeatures = count;
    query.view = FeatureQuery::View{p.bbox, p.width, p.height, p.crs};
    query.cancel = ctx.request.cancel;
    if (auto r = ctx.request.value(QStringLiteral("RADIUS")); r && r->compare(QLatin1String("bbox"), Qt::CaseInsensitive) != 0)
        query.tolerancePixels = r->toInt();

    const QSet<int> enabled = enabledLayers(ctx.map, QStringLiteral("GetFeatureInfo"));
    QList<FeatureInfoLayer> results;
    bool matched = false;
    for (const QString& name : queryLayers->split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        for (int i = 0; i < ctx.map.layers.size(); ++i) {
            const PreparedLayer& layer = p.prepared->layer(i);
            if (!layerMatches(ctx.map, layer.def(), name) || !enabled.contains(i)) continue;
            // Only queryable layers count as found: a group of non-queryable
            // layers is "not offered" (LayerNotDefined), as in mapserv.
            if (!layerQueryable(layer.def())) continue;
            matched = true;
            PointQueryResult r = layer.queryPoint(query);
            if (!r.error.isEmpty()) return ctx.error({}, where + r.error);
            results << FeatureInfoLayer{&layer.def(), r.fields, r.features};
        }
    }
    if (query.cancel.isCancelled())
        return ctx.error({}, where + QStringLiteral("The request ran over the server's time limit and was cancelled."));
    if (!matched)
        return ctx.error(QStringLiteral("LayerNotDefined"), where + QStringLiteral("Layer(s) specified in QUERY_LAYERS parameter is not offered by the service instance."));

    // The results as mapserv's query output takes them (templates, OGR).
    const auto asQueryResults = [&](bool withEmpty) {
        CgiQueryResults found;
        found.units = effectiveUnits(ctx.map, p.crs);
        const MapView view = makeMapViewFromEdges(p.bbox, p.width, p.height, p.crs, found.units, ctx.map.resolution);
        found.extent = pixelCentreExtent(p.bbox, p.width, p.height);  // mapserv's map extent
        found.scaleDenom = view.scaleDenom;
        found.width = p.width;
        found.height = p.height;
        found.point = QPointF(px, py);
        for (const FeatureInfoLayer& l : std::as_const(results)) {
            if (l.features.isEmpty() && !withEmpty) continue;
            QueryLayerResult layer;
            layer.layer = int(l.layer - ctx.map.layers.data());
            layer.selected.fields = l.fields;
            layer.selected.features = l.features;
            layer.selected.classes = QList<int>(l.features.size(), -1);
            layer.selected.searched = true;
            found.layers << layer;
        }
        return found;
    };

    // text/html with real query templates (a TEMPLATE OUTPUTFORMAT, or the
    // layers' HEADER/TEMPLATE/FOOTER files): msReturnTemplateQuery as mapserv's NQUERY.
    if (format.compare(QLatin1String("text/html"), Qt::CaseInsensitive) == 0 && usesHtmlTemplates(ctx.map, results)) {
        CgiParams params;
        params.mode = CgiMode::NQuery;
        params.queryFormat = QStringLiteral("text/html");
        Response r = queryResponse(*p.prepared, templateRequest(ctx.request), params, asQueryResults(false));
        r.subject = Response::Subject{ctx.request.value(QStringLiteral("LAYERS")).value_or(QString()), p.srs, p.width, p.height};
        return r;
    }

    // INFO_FORMAT naming an OUTPUTFORMAT with an OGR driver (by NAME or MIMETYPE): the results through OGR.
    for (const OutputFormatDef& f : ctx.map.outputFormats) {
        if (!f.driver.startsWith(QLatin1String("OGR/"), Qt::CaseInsensitive)) continue;
        if (f.name.compare(format, Qt::CaseInsensitive) != 0 && f.mimeType.compare(format, Qt::CaseInsensitive) != 0) continue;
        const CgiQueryResults found = asQueryResults(true);
        Result<Response> written = ogrQueryResponse(ctx.map, f, found, QString::fromUtf8(p.crs.wkt()));
        if (!written) return ctx.error({}, where + written.message());
        return std::move(written).value();
    }

    Response r;
    r.subject = Response::Subject{ctx.request.value(QStringLiteral("LAYERS")).value_or(QString()), p.srs, p.width, p.height};
    const auto is = [&](const char* f) { return format.compare(QLatin1String(f), Qt::CaseInsensitive) == 0; };
    if (is("application/vnd.ogc.gml") || is("GML")) {
        r.body = featureInfoGml(results, p.srs.isEmpty() ? epsgCodes(ctx.map.projection, nullptr, true) : p.srs);
        r.setContentType("application/vnd.ogc.gml; charset=UTF-8");
    } else if (is("text/html")) {
        r.body = featureInfoHtml(results);
        r.setContentType("text/html; charset=UTF-8");
    } else if (is("application/json") || is("application/geo+json")) {
        r.body = featureInfoGeoJson(results);
        r.setContentType("application/json; charset=UTF-8");
    } else {
        r.body = featureInfoPlainText(results);
        r.setContentType("text/plain; charset=UTF-8");
    }
    return r;
}

}  // namespace maptune
