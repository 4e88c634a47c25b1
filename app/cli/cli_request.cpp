#include "cli/cli_commands.h"

#include "mapfile/map_loader.h"
#include "wms/request_profile.h"
#include "wms/wms_service.h"

namespace maptune::cli {

// Answers in process like `mapserv` with QUERY_STRING: OGC exceptions are
// ordinary responses (exit 0); only an unreadable mapfile is a user error.
int runRequest(const RequestOptions& o)
{
    LoadResult loaded = loadMapFile(o.mapfile);
    if (!loaded.ok()) {
        for (const Diagnostic& d : loaded.diagnostics) std::fprintf(stderr, "%s\n", qPrintable(d.toString()));
        return 1;
    }
    const WmsService service(loaded.map);
    const WmsRequest request = WmsRequest::fromQueryString(o.query.toUtf8());
    Response response = service.handle(request);
    if (wantsProfile(request)) response = profileResponse(response);  // in process: the user's own machine
    QByteArray out;
    if (o.headers) {
        out += "Content-Type: " + response.contentType() + "\r\n";
        for (const auto& [k, v] : response.headers)
            if (k.compare("Content-Type", Qt::CaseInsensitive) != 0) out += k + ": " + v + "\r\n";
        out += "\r\n";
    }
    out += response.body;
    return writeOutput(o.output, out) ? 0 : 1;
}

}  // namespace maptune::cli
