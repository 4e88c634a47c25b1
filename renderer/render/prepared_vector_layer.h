#pragma once
// A prepared vector layer (POINT, LINE, POLYGON and the kinds drawn like
// them): SCALETOKEN variants with compiled expressions, the resolved CRS.

#include "data/engine_context.h"
#include "render/layer_variants.h"
#include "render/prepared_layer.h"

namespace maptune {

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
    const MapDef& m_map;
    const EngineContext& m_context;  // the prepared map's: it outlives its layers
    LayerVariants m_variants;
    std::optional<Crs> m_crs;    // PROJECTION resolved; unset: none (the map's) or AUTO (the data's)
    QString m_crsError;          // a PROJECTION that does not resolve
    std::optional<Crs> m_mapCrs;
};

}  // namespace maptune
