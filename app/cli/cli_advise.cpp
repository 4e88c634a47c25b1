// maptune-cli advise: the raster advisor on the command line. Prints what each
// RASTER layer's files are and what that costs; --fix runs one of the
// advisor's actions (overviews, tiled GeoTIFF, COG) on the files it applies to.

#include "cli/cli_commands.h"

#include "loadtest/raster_advisor.h"
#include "mapfile/map_loader.h"

#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <memory>
#include <unistd.h>

namespace maptune::cli {

namespace {

CancelToken g_adviseCancel;

void onAdviseInterrupt(int)
{
    g_adviseCancel.cancel();
}

struct AdviseArgs {
    std::string mapfile, layer, fix, outDir;
};

std::optional<RasterAction> parseFix(const QString& text)
{
    if (text == QLatin1String("overviews")) return RasterAction::BuildOverviews;
    if (text == QLatin1String("tiled")) return RasterAction::ConvertToTiledGeoTiff;
    if (text == QLatin1String("cog")) return RasterAction::ConvertToCog;
    return std::nullopt;
}

// Runs action on every file of the report whose advice suggests it.
int applyFix(const LayerRasterReport& report, RasterAction action, const QString& outDir)
{
    const bool bar = ::isatty(STDERR_FILENO);
    int failures = 0;
    for (const RasterAdvice& a : report.advice) {
        if (!a.actions.contains(action)) continue;
        const RasterJobResult r = RasterAdvisor::apply(action, a.path, outDir, g_adviseCancel, [&](double f, const QString& stage) {
            if (bar) std::fprintf(stderr, "\r%-100s", qPrintable(QStringLiteral("[%1%] %2").arg(int(f * 100), 3).arg(stage).left(100)));
        });
        if (bar) std::fprintf(stderr, "\r%100s\r", "");
        if (r.cancelled) {
            printError(QStringLiteral("interrupted; nothing partial was left behind"));
            return 130;
        }
        if (!r.ok) {
            printError(QStringLiteral("%1: %2").arg(a.path, r.error));
            ++failures;
            continue;
        }
        std::printf("%s: %s -> %s\n", qPrintable(RasterAdvisor::actionLabel(action)), qPrintable(a.path), qPrintable(r.path));
    }
    return failures ? 1 : 0;
}

int runAdvise(const AdviseArgs& a)
{
    const LoadResult loaded = loadMapFile(QString::fromStdString(a.mapfile));
    if (!loaded.ok()) {
        for (const Diagnostic& d : loaded.diagnostics) std::fprintf(stderr, "%s\n", qPrintable(d.toString()));
        return 1;
    }
    const QString layerName = QString::fromStdString(a.layer);
    QList<LayerRasterReport> reports;
    if (layerName.isEmpty()) {
        reports = RasterAdvisor::inspectMap(*loaded.map);
        if (reports.isEmpty()) std::printf("no RASTER layers\n");
    } else {
        const LayerDef* layer = loaded.map->layer(layerName);
        if (!layer) {
            printError(QStringLiteral("the map has no layer '%1'").arg(layerName));
            return 1;
        }
        reports << RasterAdvisor::inspectLayer(*loaded.map, *layer);
    }
    std::optional<RasterAction> fix;
    if (!a.fix.empty() && !(fix = parseFix(QString::fromStdString(a.fix)))) {
        printError(QStringLiteral("--fix: expected overviews, tiled or cog"));
        return 2;
    }
    int status = 0;
    for (const LayerRasterReport& r : reports) {
        std::printf("%s", qPrintable(RasterAdvisor::text(r)));
        if (!r.error.isEmpty() && !layerName.isEmpty()) status = 1;
        if (fix && r.error.isEmpty()) status = std::max(status, applyFix(r, *fix, QString::fromStdString(a.outDir)));
    }
    std::fflush(stdout);
    return status;
}

}  // namespace

CLI::App* addAdviseSubcommand(CLI::App& cli, std::function<int()>& run)
{
    auto a = std::make_shared<AdviseArgs>();
    auto* c = cli.add_subcommand("advise", "raster advisor: each RASTER layer's files (format, tiling, overviews, "
                                           "compression, size) and what they cost a WMS");
    c->add_option("MAPFILE", a->mapfile, "the mapfile")->required();
    c->add_option("LAYER", a->layer, "one layer (default: every RASTER layer)");
    c->add_option("--fix", a->fix, "overviews | tiled | cog: apply that fix to the files it is advised for "
                                   "(conversions write <name>-tiled.tif / <name>-cog.tif, never over the source)");
    c->add_option("--out-dir", a->outDir, "--fix tiled|cog: write the new files here (default: next to the source)");
    run = [a] {
        std::signal(SIGINT, onAdviseInterrupt);
        return runAdvise(*a);
    };
    return c;
}

}  // namespace maptune::cli
