#pragma once
// mapserv's image modes that need no WMS: MODE=legend (msDrawLegend) and
// MODE=scalebar (msDrawScalebar), each an image of its own in the map's
// IMAGETYPE (or the request's map.imagetype), at the scale of the map's
// EXTENT and SIZE.

#include "wms/response.h"
#include "wms/wms_context.h"

#include <optional>

namespace maptune {

// The response for MODE=legend / scalebar; nullopt for any other request.
std::optional<Response> cgiModeImage(const WmsContext& ctx);

}  // namespace maptune
