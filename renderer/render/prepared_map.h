#pragma once
// A loaded map made ready for requests, once per MapDef (load, each edit,
// each hot reload) and then shared read-only between threads: per layer one
// PreparedLayer holding what used to be rebuilt on every request -- compiled
// FILTER / CLASS EXPRESSION / TEXT, SCALETOKEN variants, typed PROCESSING
// with built LUT tables, resolved data paths and CRS -- and the map's own
// CRS. Requests never copy or edit the MapDef.

#include "data/engine_context.h"
#include "geo/crs.h"
#include "mapfile/map_def.h"
#include "render/prepared_layer.h"

#include <QSet>
#include <QStringList>

#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace maptune {

class PreparedMap;
using PreparedMapPtr = std::shared_ptr<const PreparedMap>;

class PreparedMap : public std::enable_shared_from_this<PreparedMap> {
public:
    // Layers open their data through `context` (its PostgreSQL pool); without
    // one the map gets a context of its own. VALIDATION default_ values are
    // substituted (RuntimeSubstitution) before anything is prepared.
    static PreparedMapPtr prepare(MapDefPtr map, EngineContextPtr context = {});
    ~PreparedMap();
    PreparedMap(const PreparedMap&) = delete;
    PreparedMap& operator=(const PreparedMap&) = delete;

    const MapDef& map() const { return *m_map; }
    const MapDefPtr& mapPtr() const { return m_map; }

    // The map a request reads, given its parameters: this one unless some
    // parameter is a VALIDATION key of the map, else one prepared with those
    // values substituted (an environment variable of the same name beats the
    // request, as in MapServer). The last few such maps are kept. `errors`
    // receives MapServer's pattern errors, for mapserv's error page.
    PreparedMapPtr forRequest(const QList<std::pair<QString, QString>>& params, QStringList* errors = nullptr) const;

    // A map derived from this one for a request (runtime substitution values,
    // a WMS TIME filter, ...): `make` builds its MapDef (nullopt: this map
    // will do) and errors to report each time; the result is prepared once
    // per `key` and the last 16 keys are kept.
    struct Derivation {
        std::optional<MapDef> map;
        QStringList errors;
    };
    PreparedMapPtr derived(const QString& key, const std::function<Derivation()>& make, QStringList* errors = nullptr) const;
    const EngineContext& context() const { return *m_context; }
    const EngineContextPtr& contextPtr() const { return m_context; }
    // The map's PROJECTION (nullopt: none, AUTO, or one that does not resolve,
    // then crsError() says why).
    const std::optional<Crs>& crs() const { return m_crs; }
    const QString& crsError() const { return m_crsError; }

    int layerCount() const { return int(m_layers.size()); }
    const PreparedLayer& layer(int index) const { return *m_layers[size_t(index)]; }
    // By NAME, case-insensitively; null when there is none.
    const PreparedLayer* layer(const QString& name) const;

    // Problems found while preparing that a request would otherwise repeat
    // (unknown PROCESSING keys, ...), each naming its layer.
    const QStringList& warnings() const { return m_warnings; }
    // Files read while preparing (LUT files), for the hot-reload watcher.
    const QStringList& filesRead() const { return m_filesRead; }

    // How many prepared maps were built in this process (tests, benchmarks).
    static qint64 preparedCount();

private:
    PreparedMap(MapDefPtr source, MapDefPtr map, EngineContextPtr context);
    struct Derived;

    MapDefPtr m_source;  // as loaded: runtime substitution starts from it
    QSet<QString> m_substitutionKeys;  // RuntimeSubstitution::keys(*m_source), once
    MapDefPtr m_map;     // as prepared
    EngineContextPtr m_context;
    std::optional<Crs> m_crs;
    QString m_crsError;
    std::vector<std::unique_ptr<PreparedLayer>> m_layers;
    QStringList m_warnings;
    QStringList m_filesRead;
    mutable std::mutex m_derivedMutex;
    mutable std::list<Derived> m_derived;  // most recently used first
};

}  // namespace maptune
