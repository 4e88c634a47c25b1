// maptune-cli: the headless face of the engine (no QtWidgets).

#include "cli/allocator.h"
#include "cli/cli_commands.h"
#include "render/engine.h"

#include <CLI/CLI.hpp>

#include <QCoreApplication>
#include <QGuiApplication>

#include <QDir>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <iostream>

using namespace maptune;

int main(int argc, char** argv)
{
    // Text and font rendering need a QGuiApplication; "offscreen" keeps it headless.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt warns on every start when there is no runtime dir (cron, systemd, CI):
    // give it the private one it would pick itself.
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        const QByteArray dir = QDir::tempPath().toUtf8() + "/runtime-" + QByteArray::number(getuid());
        if (mkdir(dir.constData(), 0700) == 0 || errno == EEXIST) qputenv("XDG_RUNTIME_DIR", dir);
    }
    QGuiApplication app(argc, argv);
    initEngine();

    CLI::App cli{"maptune-cli: render MapServer mapfiles, answer WMS requests, check and format mapfiles"};
    cli.require_subcommand(0, 1);
    bool version = false;
    cli.add_flag("--version", version, "print versions and exit");

    cli::RenderOptions ro;
    std::string rMap, rOut = "-", rLayers, rBbox, rSize, rFormat;
    auto* render = cli.add_subcommand("render", "draw a map at its EXTENT and SIZE (like map2img)");
    render->add_option("MAPFILE", rMap, "the mapfile")->required();
    render->add_option("-o,--output", rOut, "output file, - for stdout");
    render->add_option("--layers", rLayers, "comma-separated layer or group names to switch on");
    render->add_option("--bbox", rBbox, "minx,miny,maxx,maxy (image edges, map CRS)");
    render->add_option("--size", rSize, "WxH in pixels");
    render->add_option("--format", rFormat, "OUTPUTFORMAT name or MIME type");
    render->add_flag("--timings", ro.timings, "print the per-layer timing trace on stderr");

    std::string qMap, qQuery, qOut = "-";
    cli::RequestOptions qo;
    auto* request = cli.add_subcommand("request", "answer a mapserv-style QUERY_STRING in process");
    request->add_option("MAPFILE", qMap, "the mapfile")->required();
    request->add_option("QUERY_STRING", qQuery, "e.g. SERVICE=WMS&REQUEST=GetCapabilities")->required();
    request->add_option("-o,--output", qOut, "output file, - for stdout");
    request->add_flag("--headers", qo.headers, "print the status line and headers first");

    std::string cMap;
    auto* check = cli.add_subcommand("check", "report every problem as FILE:LINE:COL: message; exit 1 on errors");
    check->add_option("MAPFILE", cMap, "the mapfile")->required();

    std::string fMap;
    auto* format = cli.add_subcommand("format", "print the mapfile in canonical form");
    format->add_option("MAPFILE", fMap, "the mapfile")->required();

    std::string eMap, eLayer, eBbox;
    auto* explain = cli.add_subcommand("explain", "show the SQL and EXPLAIN (ANALYZE, BUFFERS) plan of a PostGIS layer");
    explain->add_option("MAPFILE", eMap, "the mapfile")->required();
    explain->add_option("LAYER", eLayer, "the layer name")->required();
    explain->add_option("--bbox", eBbox, "minx,miny,maxx,maxy in the map CRS (default: the map EXTENT)");

    std::vector<std::string> sMaps, sRoots;
    std::string sHost = "127.0.0.1", sFastcgi;
    int sPort = 8080, sThreads = 0;
    auto* serve = cli.add_subcommand("serve", "serve the maps over HTTP (or FastCGI) as WMS until SIGINT/SIGTERM");
    serve->add_option("MAPFILE", sMaps, "mapfiles, served as /<name without .map>")->required();
    serve->add_option("--host", sHost, "address to listen on");
    serve->add_option("--port", sPort, "TCP port; 0 picks a free one");
    serve->add_option("--threads", sThreads, "rendering workers (default: one per core)");
    serve->add_option("--fastcgi", sFastcgi, "serve FastCGI on a unix socket path or :PORT instead of HTTP");
    serve->add_option("--allow-root", sRoots,
                      "a directory (or /vsi... prefix) the maps may also read data from, besides the mapfile's "
                      "directory and SHAPEPATH (repeatable; adds to MAPTUNE_ALLOWED_ROOTS)");
    PgPoolSettings sPg;
    serve->add_option("--pg-pool-size", sPg.maxPerKey, "PostgreSQL connections per CONNECTION string")
        ->check(CLI::PositiveNumber)->capture_default_str();
    serve->add_option("--pg-acquire-timeout-ms", sPg.acquireTimeoutMs,
                      "how long a layer waits for a free PostgreSQL connection")
        ->check(CLI::NonNegativeNumber)->capture_default_str();
    serve->add_option("--pg-statement-timeout-ms", sPg.statementTimeoutMs, "PostgreSQL statement_timeout (0: none)")
        ->check(CLI::NonNegativeNumber)->capture_default_str();
    serve->add_flag("!--pg-no-prepared-statements", sPg.preparedStatements,
                    "run PostgreSQL statements unprepared (behind PgBouncer in transaction mode; also detected)");
    serve->add_option("--pg-connect-timeout", sPg.connectTimeoutS,
                      "seconds to connect, unless the CONNECTION string sets connect_timeout")
        ->check(CLI::PositiveNumber)->capture_default_str();

    int sPgRowCache = int(EngineContext::kDefaultPgRowCacheBytes >> 20);
    serve->add_option("--pg-row-cache-mb", sPgRowCache,
                      "PostGIS rows kept decoded between draws, keyed by tuple version (ctid, xmin), so that a draw asks "
                      "the database only which rows are in its box; a table up to a quarter of it, drawn again, is kept whole, "
                      "and while nothing is committed to the database a draw asks only for its snapshot; "
                      "0: read every row of every draw")
        ->check(CLI::NonNegativeNumber)->capture_default_str();
    int sGdalCache = 0;
    serve->add_option("--gdal-cache-mb", sGdalCache,
                      "GDAL's raster block cache for the whole process, in MB (default: GDAL_CACHEMAX if set, else 256 MB until "
                      "a JPEG 2000 or other wavelet-coded raster is opened, then 5 % of RAM); "
                      "the cache all workers share, the largest part of the server's memory under raster load")
        ->check(CLI::NonNegativeNumber)->capture_default_str();
    double sDrain = 2;
    int sInstances = 1, sBudget = 0;
    bool sAllowProfile = false;
    serve->add_flag("--allow-profile", sAllowProfile,
                    "answer &MAPTUNE_PROFILE=json (the request's trace as JSON) from any client, not only loopback ones");
    serve->add_option("--drain", sDrain,
                      "on SIGTERM, seconds /health answers 503 \"draining\" (requests still served) before the "
                      "listener closes and requests in flight finish")
        ->check(CLI::NonNegativeNumber)->capture_default_str();
    serve->add_option("--instances", sInstances, "serve processes sharing the PostgreSQL server (for --pg-connection-budget)")
        ->check(CLI::PositiveNumber)->capture_default_str();
    serve->add_option("--pg-connection-budget", sBudget,
                      "PostgreSQL connections all instances may use together; refuse to start when "
                      "instances x pool size x CONNECTION strings would pass it (default: no check)")
        ->check(CLI::NonNegativeNumber);

    std::function<int()> runBenchCommand;
    auto* bench = cli::addBenchSubcommand(cli, runBenchCommand);
    std::function<int()> runAdviseCommand;
    auto* advise = cli::addAdviseSubcommand(cli, runAdviseCommand);
    std::function<int()> runLintCommand, runSchemaCommand;
    auto* lint = cli::addLintSubcommand(cli, runLintCommand);
    auto* schema = cli::addSchemaSubcommand(cli, runSchemaCommand);

    try {
        cli.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        cli.exit(e);
        return 2;
    }
    if (version) {
        std::printf("maptune-cli %s (%s, %s)\n", MAPTUNE_VERSION, qPrintable(engineVersions()),
                    qPrintable(cli::allocatorVersion()));
        return 0;
    }
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    if (*render) {
        ro.mapfile = q(rMap);
        ro.output = q(rOut);
        ro.layers = q(rLayers);
        ro.bbox = q(rBbox);
        ro.size = q(rSize);
        ro.format = q(rFormat);
        return cli::runRender(ro);
    }
    if (*request) {
        qo.mapfile = q(qMap);
        qo.query = q(qQuery);
        qo.output = q(qOut);
        return cli::runRequest(qo);
    }
    if (*check) return cli::runCheck(q(cMap));
    if (*format) return cli::runFormat(q(fMap));
    if (*serve) {
        cli::ServeOptions so;
        for (const std::string& m : sMaps) so.mapfiles << q(m);
        so.host = q(sHost);
        so.port = sPort;
        so.threads = sThreads;
        so.fastcgi = q(sFastcgi);
        for (const std::string& r : sRoots) so.allowedRoots << q(r);
        so.pg = sPg;
        so.drainS = sDrain;
        so.instances = sInstances;
        so.pgBudget = sBudget;
        so.allowProfile = sAllowProfile;
        so.gdalCacheMb = sGdalCache;
        so.pgRowCacheMb = sPgRowCache;
        return cli::runServe(so);
    }
    if (*explain) return cli::runExplain({q(eMap), q(eLayer), q(eBbox)});
    if (*bench) return runBenchCommand();
    if (*advise) return runAdviseCommand();
    if (*lint) return runLintCommand();
    if (*schema) return runSchemaCommand();
    std::cout << cli.help();
    return 2;
}
