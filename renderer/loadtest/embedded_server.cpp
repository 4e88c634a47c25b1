#include "loadtest/embedded_server.h"

#include "server/http_server.h"
#include "server/map_registry.h"
#include "server/service_router.h"

#include <QFileInfo>
#include <QUrl>

#include <algorithm>

namespace maptune {

EmbeddedServer::EmbeddedServer() : m_registry(std::make_unique<MapRegistry>()) {}

EmbeddedServer::~EmbeddedServer() { stop(); }

Status EmbeddedServer::addMap(const QString& path)
{
    if (!QFileInfo::exists(path)) return Error(QStringLiteral("mapfile '%1' not found").arg(path));
    return m_registry->addMapFile(path);
}

Status EmbeddedServer::start(int workers)
{
    if (m_http) return {};
    ServerOptions so;
    so.host = QStringLiteral("127.0.0.1");
    so.port = 0;
    so.workers = workers;
    so.reloadIntervalMs = 0;
    m_router = std::make_unique<ServiceRouter>(*m_registry, so);
    m_router->setObserver(m_observer);
    m_http = std::make_unique<HttpServer>(*m_router);
    if (const Status started = m_http->start(); !started) {
        m_http.reset();
        m_router.reset();
        return started;
    }
    return {};
}

void EmbeddedServer::stop()
{
    if (m_http) m_http->stop();
    m_http.reset();
    m_router.reset();
}

void EmbeddedServer::setObserver(RequestObserver* observer)
{
    m_observer = observer;
    if (m_router) m_router->setObserver(observer);
}

bool EmbeddedServer::isRunning() const { return m_http != nullptr; }

int EmbeddedServer::port() const { return m_http ? m_http->port() : -1; }

MapDefPtr EmbeddedServer::map(const QString& path) const
{
    const ServedMapPtr served = m_registry->find(MapRegistry::nameForPath(path));
    return served ? served->map : nullptr;
}

QString EmbeddedServer::mapSrs(const MapDef& map)
{
    for (const QString& arg : map.projection.args) {
        QString a = arg.trimmed();
        if (a.startsWith(QLatin1String("init="), Qt::CaseInsensitive)) a = a.mid(5);
        if (a.startsWith(QLatin1String("epsg:"), Qt::CaseInsensitive)) return QStringLiteral("EPSG:") + a.mid(5);
    }
    for (const char* key : {"wms_srs", "ows_srs"})
        if (auto v = map.web.metadata.value(QString::fromLatin1(key)))
            if (!v->trimmed().isEmpty()) return v->trimmed().split(QLatin1Char(' ')).first();
    return {};
}

QString EmbeddedServer::mapLayers(const MapDef& map)
{
    QStringList names;
    for (const LayerDef& l : map.layers)
        if (!l.name.isEmpty() && !names.contains(l.name)) names << l.name;
    return names.join(QLatin1Char(','));
}

QString EmbeddedServer::getMapQuery(const MapDef& map, const BenchGetMapParams& params)
{
    const QString layers = params.layers.isEmpty() ? mapLayers(map) : params.layers;
    const QString srs = params.srs.isEmpty() ? mapSrs(map) : params.srs;
    return QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=%1&STYLES=&SRS=%2"
                          "&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=%3")
        .arg(QString::fromUtf8(QUrl::toPercentEncoding(layers, ",")), srs,
             QString::fromUtf8(QUrl::toPercentEncoding(params.format, "/")));
}

Result<QString> EmbeddedServer::urlTemplate(const QString& path, const BenchGetMapParams& params) const
{
    auto fail = [](const QString& e) { return Error(e); };
    if (!m_http) return fail(QStringLiteral("the embedded server is not running"));
    const QString name = MapRegistry::nameForPath(path);
    const ServedMapPtr served = m_registry->find(name);
    if (!served) return fail(QStringLiteral("'%1' is not served").arg(path));
    if (params.srs.isEmpty() && mapSrs(*served->map).isEmpty())
        return fail(QStringLiteral("%1: no EPSG code in its PROJECTION; give --srs").arg(path));
    return QStringLiteral("http://127.0.0.1:%1/%2?%3").arg(m_http->port()).arg(name, getMapQuery(*served->map, params));
}

Status EmbeddedServer::defaultWindows(const MapDef& map, BboxOptions& options)
{
    const auto size = parseImageSize(options.size);
    const Rect& e = map.extent;
    if (!e.isValid() || !size) return Error(QStringLiteral("%1: no EXTENT; give --extent/--res or --preset").arg(map.path));
    const double full = std::min(e.width() / size->first, e.height() / size->second);
    options.extent = QStringLiteral("%1,%2,%3,%4").arg(e.minx, 0, 'g', 17).arg(e.miny, 0, 'g', 17).arg(e.maxx, 0, 'g', 17).arg(e.maxy, 0, 'g', 17);
    options.res = QStringLiteral("%1,%2").arg(full / 16, 0, 'g', 17).arg(full, 0, 'g', 17);
    return {};
}

Status EmbeddedServer::configsFor(const QList<MapVariant>& variants, const BenchGetMapParams& params,
                                  QList<ExperimentConfig>& out, int workers)
{
    for (const MapVariant& v : variants)
        if (!v.isUrl() && !map(v.mapFile))
            if (const Status added = addMap(v.mapFile); !added)
                return added.error().prefixed(v.label + QStringLiteral(": "));
    const bool anyMap = std::any_of(variants.begin(), variants.end(), [](const MapVariant& v) { return !v.isUrl(); });
    if (anyMap)
        if (Status started = start(workers); !started) return started;
    for (const MapVariant& v : variants) {
        if (v.isUrl()) {
            out << ExperimentConfig{v.label, v.urlTemplate, {}, false};
            continue;
        }
        const Result<QString> url = urlTemplate(v.mapFile, params);
        if (!url) return url.error().prefixed(v.label + QStringLiteral(": "));
        out << ExperimentConfig{v.label, *url, {}, true};
    }
    return {};
}

}  // namespace maptune
