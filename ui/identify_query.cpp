#include "identify_query.h"

#include "data/feature_source_factory.h"
#include "geo/coordinate_transform.h"
#include "wms/ows_layer_info.h"
#include "wms/raster_query.h"

#include <algorithm>
#include <cmath>

namespace maptune {

IdentifyQuery::IdentifyQuery(MapDefPtr map, QStringList layers, QPointF point, double unitsPerPixel)
    : m_map(std::move(map)), m_layers(std::move(layers)), m_point(point), m_unitsPerPixel(unitsPerPixel)
{
}

QList<IdentifyLayerResult> IdentifyQuery::run(const CancelToken& cancel) const
{
    QList<IdentifyLayerResult> results;
    if (!m_map) return results;
    for (const QString& name : m_layers) {
        if (cancel.isCancelled()) break;
        const LayerDef* layer = m_map->layer(name);
        if (!layer) continue;
        IdentifyLayerResult r;
        if (layer->type == LayerType::Raster) r = queryRaster(*layer);
        else if (layer->type == LayerType::Point || layer->type == LayerType::Line || layer->type == LayerType::Polygon)
            r = queryVector(*layer, cancel);
        else continue;
        r.layer = name;
        if (!r.features.isEmpty() || !r.error.isEmpty()) results << r;
    }
    return results;
}

IdentifyLayerResult IdentifyQuery::queryVector(const LayerDef& layer, const CancelToken& cancel) const
{
    IdentifyLayerResult result;
    const double tolerance = kTolerancePx * m_unitsPerPixel;
    const double px = m_point.x(), py = m_point.y();
    const Rect search{px - tolerance, py - tolerance, px + tolerance, py + tolerance};

    auto source = openFeatureSource(*m_map, layer, &result.error);
    if (!source) return result;
    std::optional<Crs> layerCrs = projectionCrs(*m_map, layer.projection);
    if (!layerCrs) layerCrs = source->nativeCrs();
    const std::optional<Crs> mapCrs = projectionCrs(*m_map, m_map->projection);
    std::shared_ptr<CoordinateTransform> toMap;
    FeatureQuery q;
    q.bbox = search;
    q.attributes = {QStringLiteral("*")};
    q.cancel = cancel;
    if (layerCrs && mapCrs && *layerCrs != *mapCrs) {
        q.bbox = projectRect(*mapCrs, *layerCrs, search);
        toMap = CoordinateTransform::forThread(*layerCrs, *mapCrs, &result.error);
        if (!toMap) return result;
    }
    auto cursor = source->query(q, &result.error);
    if (!cursor) return result;
    result.fields = cursor->fields();
    Feature f;
    while (cursor->next(f) && !cancel.isCancelled()) {
        if (toMap && !toMap->isIdentity())
            toMap->transform(f.geometry.xy.data(), f.geometry.xy.data() + 1, f.geometry.pointCount(), 2);
        if (distanceToPoint(f.geometry, px, py) > tolerance) continue;
        result.features << f;
        if (result.features.size() >= m_maxPerLayer) break;
    }
    if (!cursor->error().isEmpty()) result.error = cursor->error();
    return result;
}

IdentifyLayerResult IdentifyQuery::queryRaster(const LayerDef& layer) const
{
    IdentifyLayerResult result;
    const Crs mapCrs = projectionCrs(*m_map, m_map->projection).value_or(Crs());
    RasterQueryPoint point;
    point.x = m_point.x();
    point.y = m_point.y();
    point.cellSize = m_unitsPerPixel;
    point.maxResults = 1;
    if (auto raster = queryRasterLayer(*m_map, layer, mapCrs, point, &result.error)) {
        result.fields = raster->fields;
        result.features = raster->features;
    }
    return result;
}

}  // namespace maptune
