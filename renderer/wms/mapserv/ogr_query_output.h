#pragma once
// Query results written through an OGR driver (msOGRWriteFromQuery): one OGR
// layer per queried layer, the items gml_include_items / gml_exclude_items
// choose (under their gml_*_alias names and gml_*_type types), in memory.

#include "core/result.h"
#include "mapfile/map_def.h"
#include "wms/mapserv/cgi_query.h"
#include "wms/response.h"

namespace maptune {

// `format`: an OUTPUTFORMAT whose DRIVER is "OGR/<name>". `wkt`: the map's CRS.
Result<Response> ogrQueryResponse(const MapDef& map, const OutputFormatDef& format, const CgiQueryResults& results,
                                  const QString& wkt);

}  // namespace maptune
