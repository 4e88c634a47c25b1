#include "render/prepared_raster_layer.h"

#include "raster/raster_query.h"
#include "render/interpolation_surface.h"
#include "render/layer_extent.h"

namespace maptune {

PreparedRasterLayer::PreparedRasterLayer(const MapDef& map, const EngineContext& context, const LayerDef& def,
                                         int index, const std::optional<Crs>& mapCrs,
                                         const std::vector<std::unique_ptr<PreparedLayer>>& layers)
    : PreparedLayer(def, index), m_map(map), m_context(context), m_variants(def), m_mapCrs(mapCrs), m_layers(layers)
{
    for (const auto& v : m_variants.all()) m_setups.push_back(std::make_unique<RasterLayerSetup>(map, v->def));
}

const RasterLayerSetup& PreparedRasterLayer::setupFor(const LayerVariant& variant) const
{
    const auto& all = m_variants.all();
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i].get() == &variant) return *m_setups[i];
    return *m_setups.front();
}

bool PreparedRasterLayer::render(const LayerDrawRequest& request) const
{
    const LayerVariant& v = m_variants.at(request.view.scaleDenom);
    if (v.def.connectionType == ConnectionType::KernelDensity || v.def.connectionType == ConnectionType::Idw) {
        const auto fail = [&request](const QString& error) {
            request.trace.error = error;
            return false;
        };
        const auto source = InterpolationSurface::source(v.def, m_layers, request.view.scaleDenom);
        if (!source) return fail(source.message());
        auto surface = InterpolationSurface::build(v.def, **source, request.view, request.trace, request.cancel);
        if (!surface) return fail(surface.message());
        return RasterLayerRenderer::renderDataset(m_map, v.def, setupFor(v), request.view, surface->get(), request.canvas,
                                                  request.trace);
    }
    return RasterLayerRenderer::render(m_map, v.def, setupFor(v), request.view, request.canvas, request.trace,
                                       request.cancel);
}

PointQueryResult PreparedRasterLayer::queryPoint(const PointQuery& query) const
{
    PointQueryResult result;
    const LayerVariant& v = m_variants.at(query.scaleDenom);
    RasterQueryPoint point;
    point.x = query.x;
    point.y = query.y;
    point.cellSize = query.cellSize;
    point.maxResults = query.maxFeatures;
    point.tolerancePixels = query.tolerancePixels;
    point.expressions = v.expressions;
    const Crs crs = query.crs.isValid() ? query.crs : m_mapCrs.value_or(Crs());
    if (auto raster = queryRasterLayer(m_map, v.def, crs, point)) {
        result.fields = raster->fields;
        result.features = raster->features;
    } else {
        result.error = raster.message();
        if (!result.error.startsWith(QLatin1String("layer '")))
            result.error = QStringLiteral("layer '%1': %2").arg(def().name, result.error);
    }
    return result;
}

Result<std::optional<Rect>> PreparedRasterLayer::extent() const
{
    return layerExtentInMapCrs(m_map, m_variants.at(0).def, m_context);
}

QStringList PreparedRasterLayer::filesRead() const
{
    QStringList out;
    for (const auto& s : m_setups)
        for (const QString& f : s->luts.files())
            if (!out.contains(f)) out << f;
    return out;
}

}  // namespace maptune
