#include "render/prepared_map.h"

#include "geo/map_projection.h"
#include "mapfile/processing.h"
#include "render/prepared_raster_layer.h"
#include "render/prepared_vector_layer.h"

#include <atomic>

namespace maptune {

namespace {

std::atomic<qint64> g_prepared{0};

}  // namespace

PreparedMapPtr PreparedMap::prepare(MapDefPtr map, EngineContextPtr context)
{
    if (!map) return nullptr;
    if (!context) context = std::make_shared<const EngineContext>();
    return PreparedMapPtr(new PreparedMap(std::move(map), std::move(context)));
}

PreparedMap::PreparedMap(MapDefPtr map, EngineContextPtr context) : m_map(std::move(map)), m_context(std::move(context))
{
    ++g_prepared;
    const MapDef& m = *m_map;
    if (m.projection.isSet() && !m.projection.isAuto()) {
        Result<Crs> crs = resolveProjection(m, m.projection);
        m_crsError = crs.message();
        m_crs = std::move(crs).toOptional();
    }
    m_layers.reserve(size_t(m.layers.size()));
    for (int i = 0; i < m.layers.size(); ++i) {
        const LayerDef& def = m.layers[i];
        if (def.type == LayerType::Raster) {
            auto raster = std::make_unique<PreparedRasterLayer>(m, *m_context, def, i, m_crs);
            for (const QString& f : raster->filesRead())
                if (!m_filesRead.contains(f)) m_filesRead << f;
            m_layers.push_back(std::move(raster));
        } else {
            m_layers.push_back(std::make_unique<PreparedVectorLayer>(m, *m_context, def, i, m_crs));
        }
        for (const QString& w : ProcessingOptions(def.processing).warnings())
            m_layers.back()->m_warnings << QStringLiteral("layer '%1': %2").arg(def.name, w);
        m_warnings << m_layers.back()->m_warnings;
    }
}

PreparedMap::~PreparedMap() = default;

const PreparedLayer* PreparedMap::layer(const QString& name) const
{
    for (const auto& l : m_layers)
        if (l->def().name.compare(name, Qt::CaseInsensitive) == 0) return l.get();
    return nullptr;
}

qint64 PreparedMap::preparedCount()
{
    return g_prepared.load();
}

}  // namespace maptune
