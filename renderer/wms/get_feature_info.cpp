// WMS GetFeatureInfo: a point query of QUERY_LAYERS at the clicked pixel
// (msWMSFeatureInfo + msQueryByPoint), answered in the INFO_FORMAT asked for
// (feature_info_output.h).

#include "wms/feature_info_output.h"
#include "wms/get_map_params.h"
#include "wms/ows_layer_info.h"
#include "wms/raster_query.h"

#include "data/feature_source_factory.h"
#include "geo/coordinate_transform.h"

#include <cmath>
#include <deque>

namespace maptune {

namespace {

using LayerResult = FeatureInfoLayer;

std::optional<LayerResult> queryLayer(const WmsContext& ctx, const GetMapParams& p, const LayerDef& layer,
                                      double px, double py, double cell, int maxFeatures, QString* error)
{
    double tolerance = layer.tolerance >= 0 ? layer.tolerance
                       : (layer.type == LayerType::Point || layer.type == LayerType::Line ? 3 : 0);
    if (layer.toleranceUnits.isEmpty() || layer.toleranceUnits.compare(QLatin1String("PIXELS"), Qt::CaseInsensitive) == 0)
        tolerance *= cell;
    // Sources filter by this box: with a zero tolerance (polygons, RADIUS=0) it
    // still needs an area, or the source would read the whole layer. The
    // distance test below keeps the exact tolerance.
    const double pad = std::max(tolerance, cell / 2);
    const Rect search{px - pad, py - pad, px + pad, py + pad};

    auto source = openFeatureSource(ctx.map, layer, error);
    if (!source) return std::nullopt;
    std::optional<Crs> layerCrs = projectionCrs(ctx.map, layer.projection);
    if (!layerCrs) layerCrs = source->nativeCrs();
    const std::optional<Crs> mapCrs = p.crs.isValid() ? std::optional<Crs>(p.crs) : projectionCrs(ctx.map, ctx.map.projection);
    std::shared_ptr<CoordinateTransform> toMap;
    FeatureQuery q;
    q.bbox = search;
    q.attributes = {QStringLiteral("*")};
    if (layerCrs && mapCrs && *layerCrs != *mapCrs) {
        q.bbox = projectRect(*mapCrs, *layerCrs, search);
        toMap = CoordinateTransform::forThread(*layerCrs, *mapCrs);
    }
    auto cursor = source->query(q, error);
    if (!cursor) return std::nullopt;
    LayerResult result;
    result.layer = &layer;
    result.fields = cursor->fields();
    Feature f;
    while (cursor->next(f)) {
        if (toMap && !toMap->isIdentity()) toMap->transform(f.geometry.xy.data(), f.geometry.xy.data() + 1, f.geometry.pointCount(), 2);
        if (distanceToPoint(f.geometry, px, py) > tolerance) continue;
        result.features << f;
    }
    std::sort(result.features.begin(), result.features.end(), [](const Feature& a, const Feature& b) { return a.id < b.id; });
    if (maxFeatures > 0 && result.features.size() > maxFeatures) result.features.resize(maxFeatures);
    return result;
}

std::optional<LayerResult> queryRaster(const WmsContext& ctx, const GetMapParams& p, const LayerDef& layer,
                                       const RasterQueryPoint& point, QString* error)
{
    const std::optional<Crs> mapCrs = p.crs.isValid() ? std::optional<Crs>(p.crs) : projectionCrs(ctx.map, ctx.map.projection);
    auto raster = queryRasterLayer(ctx.map, layer, mapCrs.value_or(Crs()), point, error);
    if (!raster) return std::nullopt;
    return LayerResult{&layer, raster->fields, raster->features};
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
    std::optional<int> radius;
    if (auto r = ctx.request.value(QStringLiteral("RADIUS")); r && r->compare(QLatin1String("bbox"), Qt::CaseInsensitive) != 0)
        radius = r->toInt();
    std::deque<LayerDef> withRadius;  // stable addresses for LayerResult::layer

    const QSet<int> enabled = enabledLayers(ctx.map, QStringLiteral("GetFeatureInfo"));
    QList<LayerResult> results;
    bool matched = false;
    for (const QString& name : queryLayers->split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        for (int i = 0; i < ctx.map.layers.size(); ++i) {
            const LayerDef* def = &ctx.map.layers[i];
            if (!layerMatches(ctx.map, *def, name) || !enabled.contains(i)) continue;
            if (radius) {
                withRadius.push_back(*def);
                withRadius.back().tolerance = *radius;
                withRadius.back().toleranceUnits = QStringLiteral("PIXELS");
                def = &withRadius.back();
            }
            const LayerDef& layer = *def;
            // Only queryable layers count as found: a group of non-queryable
            // layers is "not offered" (LayerNotDefined), as in mapserv.
            if (!layerQueryable(layer)) continue;
            matched = true;
            QString error;
            std::optional<LayerResult> r;
            if (layer.type == LayerType::Raster)
                r = queryRaster(ctx, p, layer, {px, py, cellX, count}, &error);
            else
                r = queryLayer(ctx, p, layer, px, py, cellX, count, &error);
            if (!r) return ctx.error({}, where + error);
            results << *r;
        }
    }
    if (!matched)
        return ctx.error(QStringLiteral("LayerNotDefined"), where + QStringLiteral("Layer(s) specified in QUERY_LAYERS parameter is not offered by the service instance."));

    Response r;
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
