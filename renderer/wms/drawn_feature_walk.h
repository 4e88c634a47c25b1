#pragma once
// The features one layer would draw for a request, for outputs that write
// features rather than pixels (KML, MVT): the layer's source queried at the
// request's box, its FILTER, request spatial filters and classes applied as
// for an image. Geometry stays in the layer's CRS; toRequest() reprojects.

#include "core/result.h"
#include "data/feature_source.h"
#include "data/spatial_filter.h"
#include "expr/feature_classifier.h"
#include "geo/coordinate_transform.h"
#include "render/prepared_map.h"

#include <memory>
#include <optional>

namespace maptune {

struct FeatureWalkRequest {
    Rect bbox;  // the box to query, in `crs`
    Crs crs;
    double scaleDenom = 0;
    bool allAttributes = false;  // every field (msLayerWhichItems with get_all), else those the classes use
    CancelToken cancel;
};

class DrawnFeatureWalk {
public:
    Status open(const PreparedMap& prepared, int layerIndex, const FeatureWalkRequest& request);

    // The next feature with a class; false at the end, on cancel or on a read error (see error()).
    bool next(Feature& f, int& cls);
    QString error() const { return m_cursor ? m_cursor->error() : QString(); }

    // Whether the data's extent, when the source knows it, meets the box asked
    // for (msLayerWhichShapes answers MS_DONE when not).
    bool overlapsData() const;

    const LayerDef& layer() const { return *m_layer; }
    const QStringList& fields() const { return m_cursor->fields(); }
    const std::optional<Crs>& layerCrs() const { return m_layerCrs; }
    // Layer CRS to the request's; null when they are the same.
    const std::shared_ptr<CoordinateTransform>& toRequest() const { return m_toRequest; }
    FeatureClassifier& classifier() { return m_classifier; }

private:
    const LayerDef* m_layer = nullptr;
    FeatureWalkRequest m_request;
    std::unique_ptr<FeatureSource> m_source;
    std::unique_ptr<FeatureCursor> m_cursor;
    FeatureClassifier m_classifier;
    std::optional<SpatialFilter> m_spatial;
    std::optional<Crs> m_layerCrs;
    Rect m_queryBox;  // in the layer's CRS
    std::shared_ptr<CoordinateTransform> m_toRequest;
};

}  // namespace maptune
