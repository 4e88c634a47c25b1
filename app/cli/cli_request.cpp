#include "cli/cli_commands.h"

#include "mapfile/map_loader.h"

namespace maptune::cli {

// Until the WMS service exists the engine cannot answer OGC requests: say so
// plainly instead of guessing.
int runRequest(const RequestOptions& o)
{
    LoadResult loaded = loadMapFile(o.mapfile);
    if (!loaded.ok()) {
        for (const Diagnostic& d : loaded.diagnostics) std::fprintf(stderr, "%s\n", qPrintable(d.toString()));
        return 1;
    }
    printError(QStringLiteral("request: the WMS service is not built yet; use 'render'"));
    return 1;
}

}  // namespace maptune::cli
