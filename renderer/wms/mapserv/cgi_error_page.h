#pragma once
// mapserv's error page (msCGIWriteError): every error of the request, the
// newest first, each "routine(): kind. message", HTML-escaped, in MapServer's
// fixed page.

#include "wms/response.h"

#include <QStringList>

namespace maptune {

// `errors`: newest first; each line "routine(): Kind of error. message".
Response cgiErrorPage(const QStringList& errors);

// `response` with `earlier` errors (newest first) added below its own when it
// is such an error page: errors a request recorded before the one that failed
// it (a refused runtime substitution value, say). Other responses pass as they are.
Response withEarlierErrors(Response response, const QStringList& earlier);

}  // namespace maptune
