#pragma once
// mapserv's CGI modes for one map (msCGIDispatchRequest): MODE=map, legend,
// scalebar and the query modes (query, nquery, itemquery, itemnquery,
// featurequery, featurenquery, itemfeaturequery, itemfeaturenquery,
// indexquery). Errors come back as mapserv's HTML error page.

#include "render/prepared_map.h"
#include "wms/response.h"
#include "wms/wms_request.h"

namespace maptune {

Response mapservResponse(const PreparedMap& map, const WmsRequest& request);

}  // namespace maptune
