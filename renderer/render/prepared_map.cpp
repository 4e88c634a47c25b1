#include "render/prepared_map.h"

#include "geo/map_projection.h"
#include "mapfile/data_roots.h"
#include "mapfile/processing.h"
#include "render/prepared_raster_layer.h"
#include "render/prepared_union_layer.h"
#include "render/prepared_vector_layer.h"
#include "render/runtime_substitution.h"

#include <algorithm>
#include <atomic>

#include <QSet>

namespace maptune {

namespace {

std::atomic<qint64> g_prepared{0};

// Enough for the handful of value sets a site's pages send, bounded so that
// a client cycling values cannot grow the process.
constexpr size_t kDerivedKept = 16;

// The files a map reads outside its data roots, each as "where what".
QSet<QString> rootViolations(const MapDef& map)
{
    QSet<QString> out;
    for (const Diagnostic& d : checkDataRoots(map))
        out << QStringLiteral("%1:%2:%3 %4").arg(d.pos.file).arg(d.pos.line).arg(d.pos.column).arg(d.message.section(QStringLiteral(" is '"), 0, 0));
    return out;
}

// A substituted value may not make a map read a file its mapfile could not.
bool substitutionLeavesRoots(const MapDef& source, const MapDef& substituted)
{
    return !rootViolations(substituted).subtract(rootViolations(source)).isEmpty();
}

}  // namespace

struct PreparedMap::Derived {
    QString key;
    PreparedMapPtr map;  // null: this map
    QStringList errors;
};

PreparedMapPtr PreparedMap::prepare(MapDefPtr map, EngineContextPtr context)
{
    if (!map) return nullptr;
    if (!context) context = std::make_shared<const EngineContext>();
    MapDefPtr prepared = map;
    if (std::optional<MapDef> defaulted = RuntimeSubstitution::applyDefaults(*map))
        prepared = std::make_shared<const MapDef>(std::move(*defaulted));
    return PreparedMapPtr(new PreparedMap(std::move(map), std::move(prepared), std::move(context)));
}

PreparedMap::PreparedMap(MapDefPtr source, MapDefPtr map, EngineContextPtr context)
    : m_source(std::move(source)), m_substitutionKeys(RuntimeSubstitution::keys(*m_source)), m_map(std::move(map)),
      m_context(std::move(context))
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
            auto raster = std::make_unique<PreparedRasterLayer>(m, *m_context, def, i, m_crs, m_layers);
            for (const QString& f : raster->filesRead())
                if (!m_filesRead.contains(f)) m_filesRead << f;
            m_layers.push_back(std::move(raster));
        } else if (def.connectionType == ConnectionType::Union) {
            m_layers.push_back(std::make_unique<PreparedUnionLayer>(m, *m_context, def, i, m_crs));
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

PreparedMapPtr PreparedMap::forRequest(const QList<std::pair<QString, QString>>& params, QStringList* errors) const
{
    if (m_substitutionKeys.isEmpty()) return shared_from_this();
    const MapDef& source = *m_source;
    QList<std::pair<QString, QString>> values;
    for (const auto& param : params) {
        const QString& name = param.first;
        if (!m_substitutionKeys.contains(name.toLower())) continue;
        const QByteArray variable = name.toLocal8Bit();
        const QString value = qEnvironmentVariableIsSet(variable.constData()) ? qEnvironmentVariable(variable.constData()) : param.second;
        // The last of a repeated name wins.
        values.removeIf([&name](const auto& v) { return v.first.compare(name, Qt::CaseInsensitive) == 0; });
        values.append({name, value});
    }
    if (values.isEmpty()) return shared_from_this();

    std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.first.toLower() < b.first.toLower(); });
    QString key = QStringLiteral("substitution");
    for (const auto& [name, value] : values) key += QChar(1) + name.toLower() + QChar(0) + value;
    return derived(key, [&source, &values] {
        SubstitutionOutcome outcome = RuntimeSubstitution::apply(source, values);
        if (outcome.map && substitutionLeavesRoots(source, *outcome.map)) {
            outcome.map.reset();
            outcome.errors.prepend(QStringLiteral("msApplySubstitutions(): Web application error. A substituted value names a file "
                                                  "outside the directories this map may read; the values were not applied."));
        }
        return Derivation{std::move(outcome.map), outcome.errors};
    }, errors);
}

PreparedMapPtr PreparedMap::derived(const QString& key, const std::function<Derivation()>& make, QStringList* errors) const
{
    // A cached null map stands for this one (the cache must not own its owner).
    const auto answer = [this, errors](const Derived& d) {
        if (errors) *errors << d.errors;
        return d.map ? d.map : shared_from_this();
    };
    {
        std::lock_guard lock(m_derivedMutex);
        for (auto it = m_derived.begin(); it != m_derived.end(); ++it) {
            if (it->key != key) continue;
            m_derived.splice(m_derived.begin(), m_derived, it);
            return answer(*it);
        }
    }
    // Prepared outside the lock: other keys need not wait for it.
    Derivation made = make();
    Derived entry{key, nullptr, made.errors};
    if (made.map) {
        auto def = std::make_shared<const MapDef>(std::move(*made.map));
        entry.map = PreparedMapPtr(new PreparedMap(def, def, m_context));
    }
    std::lock_guard lock(m_derivedMutex);
    m_derived.remove_if([&key](const Derived& d) { return d.key == key; });
    m_derived.push_front(entry);
    if (m_derived.size() > kDerivedKept) m_derived.pop_back();
    return answer(entry);
}

qint64 PreparedMap::preparedCount()
{
    return g_prepared.load();
}

}  // namespace maptune
