#include "server/map_registry.h"

#include "mapfile/data_roots.h"
#include "mapfile/map_loader.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <sys/stat.h>

namespace maptune {

namespace {

QString diagnosticsText(const LoadResult& loaded)
{
    QStringList lines;
    for (const Diagnostic& d : loaded.diagnostics)
        if (d.isError()) lines << d.toString();
    if (lines.isEmpty()) lines << QStringLiteral("the mapfile could not be read");
    return lines.join(QLatin1Char('\n'));
}

// A served map reads files only inside its data roots (mapfile/data_roots.h):
// one that names others is refused like a mapfile with errors.
LoadResult loadServedMap(const QString& path)
{
    LoadResult loaded = loadMapFile(path);
    if (loaded.ok()) loaded.diagnostics += checkDataRoots(*loaded.map);
    return loaded;
}

}  // namespace

MapRegistry::MapRegistry(EngineContextPtr context)
    : m_context(context ? std::move(context) : std::make_shared<const EngineContext>())
{
}

MapRegistry::~MapRegistry()
{
    stopWatching();
}

bool MapRegistry::isValidName(const QString& name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9_\\-][A-Za-z0-9_.\\-]{0,127}$"));
    return pattern.match(name).hasMatch();
}

QString MapRegistry::nameForPath(const QString& path)
{
    QString base = QFileInfo(path).fileName();
    if (base.endsWith(QLatin1String(".map"), Qt::CaseInsensitive)) base.chop(4);
    return base;
}

MapRegistry::FileStamp MapRegistry::stampOf(const QString& path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) return {};
    return {std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec, std::int64_t(st.st_size),
            std::uint64_t(st.st_ino)};
}

namespace {

// The files a served version read: INCLUDE, SYMBOLSET, FONTSET, LUT files.
QStringList watchedFiles(const WmsService& service)
{
    QStringList files = service.map().includedFiles;
    for (const QString& f : service.prepared()->filesRead())
        if (!files.contains(f)) files << f;
    return files;
}

}  // namespace

MapRegistry::Stamps MapRegistry::stampsOf(const FileStamp& main, const QString& path, const QStringList& included)
{
    Stamps out{main, {}};
    const QDir base = QFileInfo(path).absoluteDir();
    for (const QString& file : included) {
        const QString absolute = base.absoluteFilePath(file);
        if (absolute != path) out.included.emplace_back(absolute, stampOf(absolute));
    }
    return out;
}

Status MapRegistry::addMapFile(const QString& path)
{
    const QString name = nameForPath(path);
    if (!isValidName(name))
        return Error(QStringLiteral("%1: a served map needs a name of letters, digits, '_', '-' or '.'; rename the file")
            .arg(path));
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const FileStamp stamp = stampOf(absolute);
    const LoadResult loaded = loadServedMap(absolute);
    if (!loaded.ok()) return Error(diagnosticsText(loaded));
    // The mapfile's stamp as it was before reading: an edit during the load is seen next time.
    WmsService service(PreparedMap::prepare(loaded.map, m_context));  // prepared here, outside the lock
    Stamps stamps = stampsOf(stamp, absolute, watchedFiles(service));

    std::lock_guard lock(m_mutex);
    if (m_maps.count(name))
        return Error(QStringLiteral("%1: a map named '%2' is already served; give the mapfiles different names").arg(path, name));
    Entry entry;
    entry.current = std::make_shared<const ServedMap>(ServedMap{name, absolute, loaded.map, std::move(service), 1});
    entry.stamps = std::move(stamps);
    entry.status.name = name;
    entry.status.path = absolute;
    m_maps.emplace(name, std::move(entry));
    return {};
}

ServedMapPtr MapRegistry::find(const QString& name) const
{
    std::lock_guard lock(m_mutex);
    auto it = m_maps.find(name);
    return it == m_maps.end() ? nullptr : it->second.current;
}

ServedMapPtr MapRegistry::single() const
{
    std::lock_guard lock(m_mutex);
    return m_maps.size() == 1 ? m_maps.begin()->second.current : nullptr;
}

QStringList MapRegistry::names() const
{
    std::lock_guard lock(m_mutex);
    QStringList out;
    for (const auto& [name, entry] : m_maps) out << name;
    return out;
}

QSet<QString> MapRegistry::postgisConnectionStrings() const
{
    QSet<QString> out;
    for (const QString& name : names())
        if (const ServedMapPtr served = find(name))
            for (const LayerDef& l : served->map->layers)
                if (l.connectionType == ConnectionType::PostGIS) out.insert(l.connection);
    return out;
}

QList<MapStatus> MapRegistry::status() const
{
    std::lock_guard lock(m_mutex);
    QList<MapStatus> out;
    for (const auto& [name, entry] : m_maps) out << entry.status;
    return out;
}

Status MapRegistry::replaceMap(const QString& name, MapDefPtr map)
{
    const ServedMapPtr old = find(name);
    if (!old) return Error(QStringLiteral("no served map is named '%1'").arg(name));
    if (!map) return Error(QStringLiteral("no map to serve as '%1'").arg(name));
    // The same bounds as a map loaded from its file: an edit cannot widen what the server reads.
    LoadResult checked;
    checked.diagnostics = checkDataRoots(*map);
    if (hasErrors(checked.diagnostics)) return Error(diagnosticsText(checked));
    WmsService service(PreparedMap::prepare(map, m_context));
    Stamps stamps = stampsOf(stampOf(old->path), old->path, watchedFiles(service));
    auto next = std::make_shared<ServedMap>(ServedMap{name, old->path, map, std::move(service), 0});
    std::lock_guard lock(m_mutex);
    Entry& entry = m_maps.at(name);
    next->generation = entry.current->generation + 1;  // a reload may have come in between
    entry.current = std::move(next);
    entry.stamps = std::move(stamps);
    entry.status.generation = entry.current->generation;
    entry.status.reloads++;
    entry.status.lastError.clear();
    return {};
}

void MapRegistry::checkForChanges()
{
    QList<std::pair<QString, Stamps>> changed;
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [name, entry] : m_maps) {
            Stamps now{stampOf(entry.current->path), {}};
            for (const auto& [file, stamp] : entry.stamps.included) now.included.emplace_back(file, stampOf(file));
            if (!(now == entry.stamps)) changed.append({name, std::move(now)});
        }
    }
    // Parsing happens outside the lock: requests keep finding the old version.
    for (const auto& [name, stamps] : changed) reload(name, stamps);
}

void MapRegistry::reload(const QString& name, const Stamps& stamps)
{
    ServedMapPtr old = find(name);
    if (!old) return;
    const bool gone = stamps.main.size < 0;
    const LoadResult loaded = gone ? LoadResult{} : loadServedMap(old->path);
    // Prepared before taking the lock: requests keep being answered meanwhile.
    std::optional<WmsService> service;
    if (loaded.ok()) service.emplace(loaded.map);
    std::lock_guard lock(m_mutex);
    Entry& entry = m_maps.at(name);
    // A broken version is reported once, not every second; a good one may
    // read other files than before.
    entry.stamps = service ? stampsOf(stamps.main, old->path, watchedFiles(*service)) : stamps;
    if (!loaded.ok()) {
        entry.status.reloadFailures++;
        entry.status.lastError = gone ? QStringLiteral("%1: the mapfile is gone").arg(old->path)
                                      : diagnosticsText(loaded);
        qWarning("maptune server: map '%s' not reloaded, still serving version %d:\n%s", qPrintable(name),
                 old->generation, qPrintable(entry.status.lastError));
        return;
    }
    const int generation = old->generation + 1;
    entry.current = std::make_shared<const ServedMap>(ServedMap{name, old->path, loaded.map, std::move(*service), generation});
    entry.status.generation = generation;
    entry.status.reloads++;
    entry.status.lastError.clear();
    qInfo("maptune server: map '%s' reloaded (version %d)", qPrintable(name), generation);
}

void MapRegistry::startWatching(int intervalMs)
{
    stopWatching();
    m_watchStop = false;
    m_watcher = std::thread([this, intervalMs] {
        std::unique_lock lock(m_watchMutex);
        while (!m_watchWake.wait_for(lock, std::chrono::milliseconds(intervalMs), [this] { return m_watchStop; })) {
            lock.unlock();
            checkForChanges();
            lock.lock();
        }
    });
}

void MapRegistry::stopWatching()
{
    {
        std::lock_guard lock(m_watchMutex);
        m_watchStop = true;
    }
    m_watchWake.notify_all();
    if (m_watcher.joinable()) m_watcher.join();
}

}  // namespace maptune
