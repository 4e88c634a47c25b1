#include "identify_query.h"

#include "data/feature_source_factory.h"
#include "geo/coordinate_transform.h"
#include "wms/ows_layer_info.h"
#include "wms/raster_query.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

double segmentDistance(double px, double py, double ax, double ay, double bx, double by)
{
    const double dx = bx - ax, dy = by - ay;
    const double len2 = dx * dx + dy * dy;
    const double t = std::clamp(len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0, 0.0, 1.0);
    return std::hypot(px - (ax + t * dx), py - (ay + t * dy));
}

// Even-odd over all rings: holes and multipolygon parts come out right.
bool insidePolygon(const Geometry& g, double px, double py)
{
    bool inside = false;
    for (int part = 0; part < g.partCount(); ++part) {
        const int s = g.partStart[part], e = g.partEnd(part);
        for (int i = s, j = e - 1; i < e; j = i++) {
            const double xi = g.xy[2 * i], yi = g.xy[2 * i + 1], xj = g.xy[2 * j], yj = g.xy[2 * j + 1];
            if ((yi > py) != (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi) inside = !inside;
        }
    }
    return inside;
}

}  // namespace

IdentifyQuery::IdentifyQuery(MapDefPtr map, QStringList layers, QPointF point, double unitsPerPixel)
    : m_map(std::move(map)), m_layers(std::move(layers)), m_point(point), m_unitsPerPixel(unitsPerPixel)
{
}

double IdentifyQuery::distanceTo(const Geometry& g, double px, double py)
{
    if (g.type == Geometry::Type::Polygon && insidePolygon(g, px, py)) return 0;
    double best = HUGE_VAL;
    for (int part = 0; part < g.partCount(); ++part) {
        const int s = g.partStart[part], e = g.partEnd(part);
        if (g.type == Geometry::Type::Point || e - s == 1) {
            for (int i = s; i < e; ++i) best = std::min(best, std::hypot(px - g.xy[2 * i], py - g.xy[2 * i + 1]));
            continue;
        }
        for (int i = s + 1; i < e; ++i)
            best = std::min(best, segmentDistance(px, py, g.xy[2 * i - 2], g.xy[2 * i - 1], g.xy[2 * i], g.xy[2 * i + 1]));
    }
    return best;
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
        if (distanceTo(f.geometry, px, py) > tolerance) continue;
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
