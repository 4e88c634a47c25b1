#include "cli/cli_commands.h"

#include "mapfile/map_loader.h"
#include "render/map_renderer.h"

#include <cstdio>

namespace maptune::cli {

namespace {

bool parseSize(const QString& text, int& w, int& h)
{
    const QStringList parts = text.toLower().split(QLatin1Char('x'));
    if (parts.size() != 2) return false;
    bool ok1 = false, ok2 = false;
    w = parts[0].toInt(&ok1);
    h = parts[1].toInt(&ok2);
    return ok1 && ok2 && w > 0 && h > 0;
}

}  // namespace

int runRender(const RenderOptions& o)
{
    LoadResult loaded = loadMapFile(o.mapfile);
    for (const Diagnostic& d : loaded.diagnostics)
        std::fprintf(stderr, "%s\n", qPrintable(d.toString()));
    if (!loaded.ok()) return 1;

    RenderRequest req;
    if (!o.layers.isEmpty()) {
        req.layersGiven = true;
        for (const QString& l : o.layers.split(QLatin1Char(','), Qt::SkipEmptyParts)) req.layers << l.trimmed();
    }
    if (!o.bbox.isEmpty()) {
        req.bbox = parseBbox(o.bbox);
        if (!req.bbox) {
            printError(QStringLiteral("--bbox '%1' is not minx,miny,maxx,maxy with min < max").arg(o.bbox));
            return 2;
        }
    }
    if (!o.size.isEmpty() && !parseSize(o.size, req.width, req.height)) {
        printError(QStringLiteral("--size '%1' is not WIDTHxHEIGHT").arg(o.size));
        return 2;
    }
    req.format = o.format;

    const MapRenderer renderer(loaded.map);
    const RenderResult result = renderer.render(req);
    for (const QString& w : result.warnings) std::fprintf(stderr, "warning: %s\n", qPrintable(w));
    if (!result.ok()) {
        printError(QStringLiteral("%1: %2").arg(o.mapfile, result.error));
        return 1;
    }
    if (o.timings) std::fprintf(stderr, "%s", qPrintable(result.trace.table()));
    return writeOutput(o.output, result.bytes) ? 0 : 1;
}

}  // namespace maptune::cli
