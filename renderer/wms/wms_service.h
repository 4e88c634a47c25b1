#pragma once
// The OGC WMS 1.0.0–1.3.0 service of one map as a pure function from a decoded
// request to a response (no sockets): dispatch as MapServer's msWMSDispatch.

#include "mapfile/map_def.h"
#include "wms/response.h"
#include "wms/wms_request.h"

namespace maptune {

class WmsService {
public:
    explicit WmsService(MapDefPtr map);

    // Exceptions are ordinary responses (status 200, as mapserv answers).
    Response handle(const WmsRequest& request) const;

    const MapDef& map() const { return *m_map; }

private:
    MapDefPtr m_map;
};

}  // namespace maptune
