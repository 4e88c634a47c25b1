#pragma once
// &MAPTUNE_PROFILE=json (DESIGN.md): instead of the image, the request's
// whole trace as JSON. Transports decide who may ask (loopback clients, or
// any client when the server runs with --allow-profile); everyone else gets
// the ordinary answer, as if the parameter were not there.

#include "wms/response.h"
#include "wms/wms_request.h"

namespace maptune {

bool wantsProfile(const WmsRequest& request);

// The JSON answer for a response: its status, content type and size, and its
// trace (null for answers that rendered nothing, such as capabilities).
Response profileResponse(const Response& answered);

// Whether a peer address (as the transports give it) is this machine.
bool isLoopbackAddress(const QByteArray& address);

}  // namespace maptune
