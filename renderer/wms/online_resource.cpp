#include "wms/online_resource.h"

#include "wms/wms_context.h"

#include <QUrl>

namespace maptune {

namespace {

QString canonicalHost(const QUrl& url)
{
    const QString host = url.host().toLower();
    if (host == QLatin1String("localhost") || host == QLatin1String("::1") || host.startsWith(QLatin1String("127.")))
        return QStringLiteral("loopback");
    return host;
}

QString trimmedPath(const QUrl& url)
{
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/'))) path.chop(1);
    return path;
}

}  // namespace

std::optional<QString> foreignOnlineResource(const MapDef& map, const QString& servedUrl)
{
    const std::optional<QString> configured = wmsMetadata(map.web.metadata, QStringLiteral("onlineresource"));
    if (!configured || configured->trimmed().isEmpty()) return std::nullopt;
    const QUrl theirs(configured->trimmed());
    const QUrl ours(servedUrl);
    const bool same = theirs.scheme().compare(ours.scheme(), Qt::CaseInsensitive) == 0
                      && canonicalHost(theirs) == canonicalHost(ours)
                      && theirs.port(theirs.scheme() == QLatin1String("https") ? 443 : 80)
                             == ours.port(ours.scheme() == QLatin1String("https") ? 443 : 80)
                      && trimmedPath(theirs) == trimmedPath(ours);
    if (same) return std::nullopt;
    return configured->trimmed();
}

QString foreignOnlineResourceWarning(const QString& configured, const QString& servedUrl)
{
    return QStringLiteral("GetCapabilities sends clients to %1 (the map's wms_onlineresource), not to this "
                          "server at %2. Right behind a proxy; otherwise remove that METADATA entry.")
        .arg(configured, servedUrl);
}

}  // namespace maptune
