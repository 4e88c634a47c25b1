#pragma once
// What a query mode answers (msReturnTemplateQuery): the QFORMAT (else the
// WEB QUERYFORMAT, else "text/html") names an OUTPUTFORMAT -- a TEMPLATE
// driver with its FILE, an OGR driver, or an image format for a query map;
// a format no OUTPUTFORMAT defines takes the layers' own HEADER, TEMPLATE
// and FOOTER files.

#include "render/prepared_map.h"
#include "wms/mapserv/cgi_params.h"
#include "wms/mapserv/cgi_query.h"
#include "wms/response.h"
#include "wms/wms_request.h"

namespace maptune {

Response queryResponse(const PreparedMap& map, const WmsRequest& request, const CgiParams& params,
                       const CgiQueryResults& results);

}  // namespace maptune
