#pragma once
// The OGC WMS 1.0.0–1.3.0 service of one map as a pure function from a decoded
// request to a response (no sockets): dispatch as MapServer's msWMSDispatch.

#include "mapfile/map_def.h"
#include "render/prepared_map.h"
#include "wms/response.h"
#include "wms/wms_request.h"

namespace maptune {

class WmsService {
public:
    explicit WmsService(PreparedMapPtr map);
    // Prepares `map` (once: the service keeps it for every request).
    explicit WmsService(MapDefPtr map);

    // Exceptions are ordinary responses (status 200, as mapserv answers).
    Response handle(const WmsRequest& request) const;

    const MapDef& map() const { return m_map->map(); }
    const PreparedMapPtr& prepared() const { return m_map; }

private:
    PreparedMapPtr m_map;
};

}  // namespace maptune
