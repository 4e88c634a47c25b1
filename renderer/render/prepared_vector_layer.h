#pragma once
// A prepared vector layer (POINT, LINE, POLYGON and the kinds drawn like
// them): SCALETOKEN variants with compiled expressions, the resolved CRS.

#include "data/engine_context.h"
#include "render/layer_variants.h"
#include "render/prepared_layer.h"

#include <memory>
#include <vector>

namespace maptune {

class CoordinateTransform;

class PreparedVectorLayer final : public PreparedLayer {
public:
    PreparedVectorLayer(const MapDef& map, const EngineContext& context, const LayerDef& def, int index,
                        const std::optional<Crs>& mapCrs);

    bool render(const LayerDrawRequest& request) const override;
    PointQueryResult queryPoint(const PointQuery& query) const override;
    SelectedFeatures select(const FeatureSelection& selection) const override;
    Result<std::optional<Rect>> extent() const override;

    const LayerVariants& variants() const { return m_variants; }

    // What a KERNELDENSITY or IDW layer samples (msInterpolationDataset):
    // every vertex of the features in `box`, in `crs`, weighted by the SIZE
    // (or its attribute) of the first style in scale of the feature's class;
    // features without a class or such a style are left out. A layer
    // without classes weighs each vertex 1.
    struct WeightedVertex {
        double x = 0, y = 0, weight = 1;
    };
    Result<std::vector<WeightedVertex>> weightedVertices(const Crs& crs, const Rect& box, double scaleDenom,
                                                         const CancelToken& cancel) const;

private:
    // A TYPE CHART layer: a chart per feature instead of its geometry.
    bool renderChart(const LayerDrawRequest& request) const;

    // The features of `layer` in `box` (in `crs`; an invalid box: all of
    // them) with every attribute, and the transform from the data's CRS to
    // `crs` (null: none needed). The source outlives its cursor. With
    // `inheritMapCrs` a layer without PROJECTION is in the map's own CRS even
    // when `crs` is another (msMapSetLayerProjections, which MapServer applies
    // to the layers KERNELDENSITY and IDW read).
    struct QueryCursor {
        std::unique_ptr<FeatureSource> source;
        std::unique_ptr<FeatureCursor> cursor;
        std::shared_ptr<CoordinateTransform> toTarget;
        void toTargetCrs(Geometry& g) const;
    };
    Result<QueryCursor> queryCursor(const LayerDef& layer, const std::optional<Crs>& crs, const Rect& box,
                                    double scaleDenom, const CancelToken& cancel, bool inheritMapCrs = false,
                                    const std::optional<FeatureQuery::View>& view = std::nullopt) const;

    const MapDef& m_map;
    const EngineContext& m_context;  // the prepared map's: it outlives its layers
    LayerVariants m_variants;
    std::optional<Crs> m_crs;    // PROJECTION resolved; unset: none (the map's) or AUTO (the data's)
    QString m_crsError;          // a PROJECTION that does not resolve
    std::optional<Crs> m_mapCrs;
};

}  // namespace maptune
