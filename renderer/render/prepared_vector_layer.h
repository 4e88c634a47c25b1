#pragma once
// A prepared vector layer (POINT, LINE, POLYGON and the kinds drawn like
// them): SCALETOKEN variants with compiled expressions, the resolved CRS.

#include "data/engine_context.h"
#include "render/layer_variants.h"
#include "render/prepared_layer.h"

#include <memory>

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

private:
    // The features of `layer` in `box` (in `crs`; an invalid box: all of
    // them) with every attribute, and the transform from the data's CRS to
    // `crs` (null: none needed). The source outlives its cursor.
    struct QueryCursor {
        std::unique_ptr<FeatureSource> source;
        std::unique_ptr<FeatureCursor> cursor;
        std::shared_ptr<CoordinateTransform> toTarget;
        void toTargetCrs(Geometry& g) const;
    };
    Result<QueryCursor> queryCursor(const LayerDef& layer, const std::optional<Crs>& crs, const Rect& box,
                                    double scaleDenom, const CancelToken& cancel) const;

    const MapDef& m_map;
    const EngineContext& m_context;  // the prepared map's: it outlives its layers
    LayerVariants m_variants;
    std::optional<Crs> m_crs;    // PROJECTION resolved; unset: none (the map's) or AUTO (the data's)
    QString m_crsError;          // a PROJECTION that does not resolve
    std::optional<Crs> m_mapCrs;
};

}  // namespace maptune
