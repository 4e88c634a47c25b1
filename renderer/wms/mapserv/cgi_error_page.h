#pragma once
// mapserv's error page (msCGIWriteError): every error of the request, the
// newest first, each "routine(): kind. message", HTML-escaped, in MapServer's
// fixed page.

#include "wms/response.h"

#include <QStringList>

namespace maptune {

// `errors`: newest first; each line "routine(): Kind of error. message".
Response cgiErrorPage(const QStringList& errors);

}  // namespace maptune
