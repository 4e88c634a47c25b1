#include "wms/drawn_feature_walk.h"

#include "geo/map_projection.h"
#include "render/feature_source_factory.h"

namespace maptune {

Status DrawnFeatureWalk::open(const PreparedMap& prepared, int layerIndex, const FeatureWalkRequest& request)
{
    const MapDef& map = prepared.map();
    m_layer = &map.layers[layerIndex];
    m_request = request;
    auto opened = openFeatureSource(map, *m_layer, prepared.context());
    if (!opened) return Error(opened.error().message);
    m_source = std::move(opened).value();
    if (const Status compiled = m_classifier.compile(*m_layer); !compiled) return compiled;
    // No PROJECTION: the map's CRS; AUTO: the data's own.
    m_layerCrs = prepared.crs();
    if (m_layer->projection.isSet())
        m_layerCrs = m_layer->projection.isAuto() ? m_source->nativeCrs() : resolveProjection(map, m_layer->projection).toOptional();
    const bool reproject = m_layerCrs && request.crs.isValid() && *m_layerCrs != request.crs;
    FeatureQuery q;
    q.bbox = reproject ? projectRect(request.crs, *m_layerCrs, request.bbox) : request.bbox;
    m_queryBox = q.bbox;
    q.attributes = request.allAttributes ? QStringList{QStringLiteral("*")} : m_classifier.attributes();
    q.scaleDenom = request.scaleDenom;
    q.cancel = request.cancel;
    auto queried = m_source->query(q);
    if (!queried) return Error(queried.message());
    m_cursor = std::move(queried).value();
    if (const Status bound = m_classifier.bind(m_cursor->fields()); !bound) return bound;
    auto spatial = SpatialFilter::forLayer(m_layer->requestSpatialFilters, m_layerCrs);
    if (!spatial) return Error(spatial.message());
    m_spatial = std::move(spatial).value();
    if (reproject)
        if (auto made = CoordinateTransform::forThread(*m_layerCrs, request.crs)) m_toRequest = std::move(made).value();
    return {};
}

bool DrawnFeatureWalk::overlapsData() const
{
    const std::optional<Rect> e = m_source->extent();
    if (!e || !e->isValid() || !m_queryBox.isValid()) return true;
    return e->minx <= m_queryBox.maxx && e->maxx >= m_queryBox.minx && e->miny <= m_queryBox.maxy && e->maxy >= m_queryBox.miny;
}

bool DrawnFeatureWalk::next(Feature& f, int& cls)
{
    while (!m_request.cancel.isCancelled() && m_cursor->next(f)) {
        if (!m_classifier.passesFilter(f.values) || !m_spatial->passes(f.geometry)) continue;
        cls = m_classifier.classify(f.values, m_request.scaleDenom);
        if (cls >= 0 && !f.geometry.isEmpty()) return true;
    }
    return false;
}

}  // namespace maptune
