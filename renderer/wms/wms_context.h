#pragma once
// What every WMS operation shares while answering one request (internal to the
// wms module): the map, the request, the negotiated version and EXCEPTIONS, and
// MapServer's metadata lookups.

#include "mapfile/map_def.h"
#include "render/prepared_map.h"
#include "wms/response.h"
#include "wms/service_exception.h"
#include "wms/wms_request.h"

#include <QSet>

namespace maptune {

struct WmsContext {
    const PreparedMap& prepared;
    const MapDef& map;
    const WmsRequest& request;
    int version = WmsVersionNotSet;
    std::optional<QString> exceptions;

    Response error(const QString& code, const QString& message, ExceptionImageSize size = {}) const
    {
        return serviceException(map, version, {code, message}, exceptions, size);
    }
};

// msOWSLookupMetadata with namespaces "MO": wms_<name>, then ows_<name>.
std::optional<QString> wmsMetadata(const KeyValues& metadata, const QString& name);

// msOWSParseRequestMetadata: is `request` enabled by an enable_request value
// ("*", "GetMap !GetFeatureInfo", "!*")? *disabled says it was explicitly refused.
bool requestEnabledBy(const std::optional<QString>& value, const QString& request, bool* disabled);

// msOWSParseRequestMetadata on wms_enable_request, then (if that neither
// enables nor disables the request) on ows_enable_request.
bool requestEnabledIn(const KeyValues& metadata, const QString& request, bool* disabled);

// msOWSRequestIsEnabled(map, NULL, ...): by the map metadata alone, or
// (anyLayer) also when at least one layer enables it.
bool requestEnabledForMap(const MapDef& map, const QString& request, bool anyLayer = false);

// msOWSRequestLayersEnabled: indexes of the layers `request` may use.
QSet<int> enabledLayers(const MapDef& map, const QString& request);
bool requestGloballyEnabled(const MapDef& map, const QString& request);

// Names of the nested groups (wms_layer_group "/a/b") a layer belongs to.
QStringList nestedGroups(const LayerDef& layer);

// Whether `name` (a LAYERS entry) selects the layer: its NAME, GROUP, a nested
// group, or the map NAME (the root layer); case-insensitive.
bool layerMatches(const MapDef& map, const LayerDef& layer, const QString& name);

// msIsLayerQueryable: a TEMPLATE on the layer or one of its classes.
bool layerQueryable(const LayerDef& layer);

// msOWSGetOnlineResource: wms_onlineresource ending in '?' or '&'; without
// one, the URL the request came to (as mapserv builds it from the CGI
// environment), else MapServer's placeholder.
QString onlineResource(const MapDef& map, const QString& selfUrl);

Response wmsGetCapabilities(const WmsContext& ctx);
Response wmsGetMap(const WmsContext& ctx);
Response wmsGetFeatureInfo(const WmsContext& ctx);
Response wmsGetLegendGraphic(const WmsContext& ctx);

}  // namespace maptune
