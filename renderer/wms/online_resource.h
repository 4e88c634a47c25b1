#pragma once
// Where GetCapabilities sends clients. A map's wms_onlineresource (or
// ows_onlineresource) replaces the server's own URL in every capabilities
// document: right behind a proxy, but a copied mapfile often still names the
// host or port of the server it came from, and clients then fetch from there.

#include "mapfile/map_def.h"

#include <QString>

#include <optional>

namespace maptune {

// The map's configured online resource when it is not `servedUrl` (another
// scheme, host, port or path; loopback names count as one host); nullopt when
// the map names none or names this server.
std::optional<QString> foreignOnlineResource(const MapDef& map, const QString& servedUrl);

// The warning for it, for the Server panel and `maptune-cli serve`.
QString foreignOnlineResourceWarning(const QString& configured, const QString& servedUrl);

}  // namespace maptune
