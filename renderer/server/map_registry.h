#pragma once
// The maps a server answers for, by name (the mapfile's base name without
// ".map"): a request names a served map, never a path. Each map is parsed once
// and shared as an immutable MapDef + WmsService; a watcher thread reloads a
// mapfile that changed on disk and swaps it in atomically, so requests in
// flight finish on the version they started with. A broken edit keeps the last
// good version serving and is reported (log, status(), /metrics).

#include "core/result.h"
#include "data/engine_context.h"
#include "mapfile/map_def.h"
#include "wms/wms_service.h"

#include <QString>
#include <QSet>
#include <QStringList>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace maptune {

// One loaded version of a served map. Immutable; shared by the requests using it.
struct ServedMap {
    QString name;
    QString path;
    MapDefPtr map;
    WmsService service;
    int generation = 1;  // 1 at start, +1 per successful reload
};
using ServedMapPtr = std::shared_ptr<const ServedMap>;

struct MapStatus {
    QString name;
    QString path;
    int generation = 1;
    int reloads = 0;         // successful reloads
    int reloadFailures = 0;  // edits that did not parse
    QString lastError;       // of the newest failed reload; empty once a reload succeeds
};

class MapRegistry {
public:
    // Every served map is prepared with `context` (the program's PostgreSQL
    // pool); without one the registry makes its own.
    explicit MapRegistry(EngineContextPtr context = {});
    ~MapRegistry();
    MapRegistry(const MapRegistry&) = delete;
    MapRegistry& operator=(const MapRegistry&) = delete;

    // Loads the mapfile and serves it under its base name. Returns an error
    // (the mapfile's diagnostics, or a duplicate or unusable name) instead.
    Status addMapFile(const QString& path);

    // The current version of a served map; null for an unknown name.
    ServedMapPtr find(const QString& name) const;
    // The only map when exactly one is served.
    ServedMapPtr single() const;
    QStringList names() const;
    // The distinct CONNECTION strings of the served maps' PostGIS layers:
    // the pool opens up to its size for each.
    QSet<QString> postgisConnectionStrings() const;
    QList<MapStatus> status() const;
    const EngineContext& context() const { return *m_context; }

    // Names a map may have: letters, digits, '_', '-', '.', not starting with '.'.
    static bool isValidName(const QString& name);
    static QString nameForPath(const QString& path);

    // Serves `map` (parsed elsewhere: the workbench editor's unsaved text) as
    // the next version of the served map `name`. The file as it is now counts
    // as seen, so the watcher reloads from disk only after the file changes
    // again. An error instead for an unknown name, a null map or a map the
    // registry would not load from a file either.
    Status replaceMap(const QString& name, MapDefPtr map);

    // Looks at every mapfile once (size, mtime, inode) and reloads the changed ones.
    void checkForChanges();
    // A background thread calling checkForChanges() every intervalMs.
    void startWatching(int intervalMs = 1000);
    void stopWatching();

private:
    struct FileStamp {
        std::int64_t mtimeNs = 0;
        std::int64_t size = -1;
        std::uint64_t inode = 0;
        bool operator==(const FileStamp&) const = default;
    };
    // The mapfile's stamp and those of every file it read (INCLUDE,
    // SYMBOLSET, FONTSET): an edit to any of them is an edit to the map.
    struct Stamps {
        FileStamp main;
        std::vector<std::pair<QString, FileStamp>> included;
        bool operator==(const Stamps&) const = default;
    };
    struct Entry {
        ServedMapPtr current;
        Stamps stamps;
        MapStatus status;
    };
    static FileStamp stampOf(const QString& path);
    // `main` for the mapfile at `path`, fresh stamps for the files it read.
    static Stamps stampsOf(const FileStamp& main, const QString& path, const QStringList& included);
    void reload(const QString& name, const Stamps& stamps);

    EngineContextPtr m_context;
    mutable std::mutex m_mutex;
    std::map<QString, Entry> m_maps;

    std::mutex m_watchMutex;
    std::condition_variable m_watchWake;
    bool m_watchStop = false;
    std::thread m_watcher;
};

}  // namespace maptune
