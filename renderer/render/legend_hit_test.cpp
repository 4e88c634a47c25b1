#include "render/legend_hit_test.h"

#include "render/feature_source_factory.h"
#include "data/geometry_relate.h"
#include "expr/feature_classifier.h"
#include "geo/map_projection.h"

namespace maptune {

std::optional<QSet<int>> legendClassesHit(const MapDef& map, const EngineContext& context, const LayerDef& layer,
                                          const Rect& box, const Crs& crs)
{
    auto opened = openFeatureSource(map, layer, context);
    if (!opened) return std::nullopt;
    const std::unique_ptr<FeatureSource> source = std::move(opened).value();
    FeatureClassifier classifier;
    if (!classifier.compile(layer)) return std::nullopt;
    FeatureQuery q;
    q.bbox = box;
    std::optional<Crs> layerCrs = resolveProjection(map, layer.projection).toOptional();
    if (!layerCrs) layerCrs = source->nativeCrs();
    if (layerCrs && crs.isValid() && *layerCrs != crs) q.bbox = projectRect(crs, *layerCrs, box);
    q.attributes = classifier.attributes();
    auto queried = source->query(q);
    if (!queried) return std::nullopt;
    const std::unique_ptr<FeatureCursor> cursor = std::move(queried).value();
    if (!classifier.bind(cursor->fields())) return std::nullopt;
    // MapServer marks a class when its shape survives clipping to the
    // extent: a feature whose box overlaps but whose geometry misses is no hit.
    const Geometry area = rectGeometry(q.bbox);
    QSet<int> hit;
    Feature f;
    while (cursor->next(f)) {
        if (!classifier.passesFilter(f.values)) continue;
        if (!intersectsPolygon(f.geometry, area)) continue;
        const int c = classifier.classify(f.values, 0);
        if (c >= 0) hit.insert(c);
    }
    return hit;
}

}  // namespace maptune
