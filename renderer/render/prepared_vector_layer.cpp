#include "render/prepared_vector_layer.h"

#include "data/feature_source_factory.h"
#include "data/geometry.h"
#include "geo/coordinate_transform.h"
#include "geo/map_projection.h"
#include "render/layer_extent.h"
#include "render/vector_layer_renderer.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

bool drawable(LayerType t)
{
    return t == LayerType::Point || t == LayerType::Line || t == LayerType::Polygon || t == LayerType::Circle
           || t == LayerType::Annotation;
}

}  // namespace

PreparedVectorLayer::PreparedVectorLayer(const MapDef& map, const EngineContext& context, const LayerDef& def,
                                         int index, const std::optional<Crs>& mapCrs)
    : PreparedLayer(def, index), m_map(map), m_context(context), m_variants(def), m_mapCrs(mapCrs)
{
    if (def.projection.isSet() && !def.projection.isAuto()) {
        Result<Crs> crs = resolveProjection(map, def.projection);
        if (!crs) m_crsError = QStringLiteral("layer '%1': PROJECTION: %2").arg(def.name, crs.message());
        m_crs = std::move(crs).toOptional();
    }
}

bool PreparedVectorLayer::render(const LayerDrawRequest& request) const
{
    if (!drawable(def().type)) {
        request.trace.skipped = true;
        return true;
    }
    if (!m_crsError.isEmpty()) {
        request.trace.error = m_crsError;
        return false;
    }
    VectorLayerRenderer renderer(m_map, m_context, m_variants.at(request.view.scaleDenom), m_crs, request.view, request.labels);
    return renderer.render(request.canvas, request.trace, request.cancel);
}

// msQueryByPoint: candidates from the source's box filter, then the exact
// test in the query CRS -- inside a polygon, or within TOLERANCE of a line or
// point -- sorted by feature id, at most maxFeatures.
PointQueryResult PreparedVectorLayer::queryPoint(const PointQuery& query) const
{
    PointQueryResult result;
    const LayerDef& layer = m_variants.at(query.scaleDenom).def;
    double tolerance = query.tolerancePixels ? *query.tolerancePixels
                       : layer.tolerance >= 0 ? layer.tolerance
                       : (layer.type == LayerType::Point || layer.type == LayerType::Line ? 3 : 0);
    if (query.tolerancePixels || layer.toleranceUnits.isEmpty()
        || layer.toleranceUnits.compare(QLatin1String("PIXELS"), Qt::CaseInsensitive) == 0)
        tolerance *= query.cellSize;
    if (!std::isfinite(query.x) || !std::isfinite(query.y) || !std::isfinite(tolerance)) {
        result.error = QStringLiteral("layer '%1': the query point is not a finite number").arg(layer.name);
        return result;
    }
    // Sources filter by this box: with a zero tolerance (polygons, RADIUS=0) it
    // still needs an area, or the source would read the whole layer. The
    // distance test below keeps the exact tolerance.
    const double pad = std::max(tolerance, query.cellSize / 2);
    const Rect search{query.x - pad, query.y - pad, query.x + pad, query.y + pad};
    if (!m_crsError.isEmpty()) {
        result.error = m_crsError;
        return result;
    }
    auto opened = openFeatureSource(m_map, layer, m_context);
    if (!opened) {
        result.error = opened.error().message;
        return result;
    }
    const std::unique_ptr<FeatureSource> source = std::move(opened).value();
    // The drawing rule: no PROJECTION means the map's CRS; AUTO the data's.
    const std::optional<Crs> layerCrs = layer.projection.isAuto() ? source->nativeCrs() : m_crs;
    const std::optional<Crs> queryCrs = query.crs.isValid() ? std::optional<Crs>(query.crs) : m_mapCrs;
    std::shared_ptr<CoordinateTransform> toQuery;
    FeatureQuery q;
    q.bbox = search;
    q.attributes = {QStringLiteral("*")};
    q.cancel = query.cancel;
    if (layerCrs && queryCrs && *layerCrs != *queryCrs) {
        q.bbox = projectRect(*queryCrs, *layerCrs, search);
        auto made = CoordinateTransform::forThread(*layerCrs, *queryCrs);
        if (!made) {
            result.error = QStringLiteral("layer '%1': %2").arg(layer.name, made.message());
            return result;
        }
        toQuery = std::move(made).value();
    }
    auto queried = source->query(q);
    if (!queried) {
        result.error = QStringLiteral("layer '%1': %2").arg(layer.name, queried.message());
        return result;
    }
    const std::unique_ptr<FeatureCursor> cursor = std::move(queried).value();
    result.fields = cursor->fields();
    Feature f;
    while (!query.cancel.isCancelled() && cursor->next(f)) {
        if (toQuery && !toQuery->isIdentity())
            toQuery->transform(f.geometry.xy.data(), f.geometry.xy.data() + 1, f.geometry.pointCount(), 2);
        if (distanceToPoint(f.geometry, query.x, query.y) > tolerance) continue;
        result.features << f;
    }
    if (!cursor->error().isEmpty()) result.error = QStringLiteral("layer '%1': %2").arg(layer.name, cursor->error());
    if (query.cancel.isCancelled())
        result.error = QStringLiteral("layer '%1': the query was cancelled (time limit)").arg(layer.name);
    std::sort(result.features.begin(), result.features.end(), [](const Feature& a, const Feature& b) { return a.id < b.id; });
    if (query.maxFeatures > 0 && result.features.size() > query.maxFeatures) result.features.resize(query.maxFeatures);
    return result;
}

Result<std::optional<Rect>> PreparedVectorLayer::extent() const
{
    return layerExtentInMapCrs(m_map, m_variants.at(0).def, m_context);
}

}  // namespace maptune
