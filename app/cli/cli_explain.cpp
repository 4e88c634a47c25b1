// maptune-cli explain MAPFILE LAYER [--bbox ...]: the SQL a GetMap runs for a
// PostGIS layer and the database's plan for it, with plain warnings.

#include "cli/cli_commands.h"

#include "data/postgis/pg_conninfo.h"
#include "data/postgis/postgis_explain.h"
#include "mapfile/map_loader.h"

#include <cmath>
#include <cstdio>

namespace maptune::cli {

int runExplain(const ExplainOptions& o)
{
    LoadResult loaded = loadMapFile(o.mapfile);
    if (!loaded.ok()) {
        for (const Diagnostic& d : loaded.diagnostics) std::fprintf(stderr, "%s\n", qPrintable(d.toString()));
        return 1;
    }
    const MapDef& map = *loaded.map;
    const LayerDef* layer = map.layer(o.layer);
    if (!layer) {
        printError(QStringLiteral("no layer named '%1' in %2").arg(o.layer, o.mapfile));
        return 1;
    }
    if (layer->connectionType != ConnectionType::PostGIS) {
        printError(QStringLiteral("layer '%1' is not a PostGIS layer (CONNECTIONTYPE POSTGIS): nothing to explain").arg(o.layer));
        return 1;
    }
    Rect box = map.extent;
    if (!o.bbox.isEmpty()) {
        const auto given = parseBbox(o.bbox);
        if (!given) {
            printError(QStringLiteral("--bbox '%1' is not minx,miny,maxx,maxy with min < max").arg(o.bbox));
            return 2;
        }
        box = *given;
    }
    const PostgisExplain e = explainPostgisView(map, *layer, box);
    std::printf("-- layer '%s', connection: %s\n", qPrintable(layer->name), qPrintable(redactPgConnInfo(layer->connection)));
    if (!e.sql.isEmpty()) {
        std::printf("SQL:\n  %s\n", qPrintable(e.sql));
        for (int i = 0; i < e.params.size(); ++i) std::printf("  $%d = %s\n", i + 1, qPrintable(e.params[i]));
    }
    if (!e.ok()) {
        printError(QStringLiteral("layer '%1': %2").arg(layer->name, e.error));
        return 1;
    }
    std::printf("\nEXPLAIN (ANALYZE, BUFFERS):\n%s\n", qPrintable(e.plan));
    for (const QString& w : e.warnings) std::printf("\nwarning: %s\n", qPrintable(w));
    return 0;
}

}  // namespace maptune::cli
