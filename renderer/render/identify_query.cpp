#include "render/identify_query.h"

namespace maptune {

IdentifyQuery::IdentifyQuery(PreparedMapPtr map, QStringList layers, QPointF point, double unitsPerPixel,
                             double scaleDenom)
    : m_map(std::move(map)), m_layers(std::move(layers)), m_point(point), m_unitsPerPixel(unitsPerPixel),
      m_scaleDenom(scaleDenom)
{
}

QList<IdentifyLayerResult> IdentifyQuery::run(const CancelToken& cancel) const
{
    QList<IdentifyLayerResult> results;
    if (!m_map) return results;
    PointQuery query;
    query.x = m_point.x();
    query.y = m_point.y();
    query.cellSize = m_unitsPerPixel;
    query.scaleDenom = m_scaleDenom;
    query.maxFeatures = m_maxPerLayer;
    query.tolerancePixels = m_tolerancePixels;
    query.cancel = cancel;
    for (const QString& name : m_layers) {
        if (cancel.isCancelled()) break;
        const PreparedLayer* layer = m_map->layer(name);
        if (!layer) continue;
        const PointQueryResult r = layer->queryPoint(query);
        if (r.features.isEmpty() && r.error.isEmpty()) continue;
        results << IdentifyLayerResult{name, r.fields, r.features, r.error};
    }
    return results;
}

}  // namespace maptune
