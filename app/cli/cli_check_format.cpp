#include "cli/cli_commands.h"

#include "data/postgis/postgis_layer_checks.h"
#include "mapfile/map_formatter.h"
#include "mapfile/map_loader.h"
#include "mapfile/map_validator.h"

#include <QFile>

#include <cstdio>

namespace maptune::cli {

int runCheck(const QString& mapfile)
{
    LoadResult loaded = loadMapFile(mapfile);
    Diagnostics all = loaded.diagnostics;
    if (loaded.map) all += validateMap(*loaded.map);
    for (const Diagnostic& d : all) std::printf("%s\n", qPrintable(d.toString()));
    if (hasErrors(all) || !loaded.map) return 1;
    for (const LayerDef& layer : loaded.map->layers)
        for (const QString& w : postgisLayerWarnings(*loaded.map, layer)) std::printf("%s\n", qPrintable(w));
    std::printf("%s: ok\n", qPrintable(mapfile));
    return 0;
}

int runFormat(const QString& mapfile)
{
    QFile file(mapfile);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "%s: error: cannot open mapfile: %s\n", qPrintable(mapfile), qPrintable(file.errorString()));
        return 1;
    }
    const FormatResult formatted = formatMapText(file.readAll(), mapfile);
    for (const Diagnostic& d : formatted.diagnostics) std::fprintf(stderr, "%s\n", qPrintable(d.toString()));
    if (!formatted.ok()) return 1;
    return writeOutput(QStringLiteral("-"), formatted.text.toUtf8()) ? 0 : 1;
}

}  // namespace maptune::cli
