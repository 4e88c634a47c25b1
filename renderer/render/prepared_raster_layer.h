#pragma once
// A prepared RASTER layer: SCALETOKEN variants (DATA and TILEINDEX too), and
// per variant the setup every render shares (typed PROCESSING, LUT tables,
// raster classes, the resolved PROJECTION).

#include "raster/raster_layer_renderer.h"
#include "render/layer_variants.h"
#include "data/engine_context.h"
#include "render/prepared_layer.h"

#include <vector>

namespace maptune {

class PreparedRasterLayer final : public PreparedLayer {
public:
    // `layers` are the map's, for a KERNELDENSITY or IDW layer to find the
    // layer it samples; they outlive this one.
    PreparedRasterLayer(const MapDef& map, const EngineContext& context, const LayerDef& def, int index,
                        const std::optional<Crs>& mapCrs, const std::vector<std::unique_ptr<PreparedLayer>>& layers);

    bool render(const LayerDrawRequest& request) const override;
    PointQueryResult queryPoint(const PointQuery& query) const override;
    Result<std::optional<Rect>> extent() const override;

    // LUT files the setups read.
    QStringList filesRead() const;

private:
    const RasterLayerSetup& setupFor(const LayerVariant& variant) const;

    const MapDef& m_map;
    const EngineContext& m_context;  // the prepared map's: it outlives its layers
    LayerVariants m_variants;
    std::vector<std::unique_ptr<RasterLayerSetup>> m_setups;  // parallel to m_variants.all()
    std::optional<Crs> m_mapCrs;
    const std::vector<std::unique_ptr<PreparedLayer>>& m_layers;
};

}  // namespace maptune
