#pragma once
// The maptune-cli subcommands (DESIGN.md "Command line"). Each returns the
// process exit status: 0 success, 1 user error (message on stderr), 2 usage.

#include "data/engine_context.h"
#include "data/postgis/pg_connection_pool.h"
#include "mapfile/map_def.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace CLI {
class App;
}

namespace maptune::cli {

struct RenderOptions {
    QString mapfile;
    QString output = QStringLiteral("-");
    QString layers;
    QString bbox;
    QString size;
    QString format;
    bool timings = false;
};
int runRender(const RenderOptions& o);

struct RequestOptions {
    QString mapfile;
    QString query;
    QString output = QStringLiteral("-");
    bool headers = false;
};
int runRequest(const RequestOptions& o);

int runCheck(const QString& mapfile);

struct ExplainOptions {
    QString mapfile;
    QString layer;
    QString bbox;  // map CRS; empty: the map EXTENT
};
int runExplain(const ExplainOptions& o);  // PostGIS layers: SQL + EXPLAIN (ANALYZE, BUFFERS)
int runFormat(const QString& mapfile);

struct ServeOptions {
    QStringList mapfiles;
    QString host = QStringLiteral("127.0.0.1");
    int port = 8080;          // 0: any free port (printed)
    int threads = 0;          // rendering workers; 0: one per core
    QString fastcgi;          // a unix socket path or ":PORT": FastCGI instead of HTTP
    QStringList allowedRoots; // more data roots (mapfile/data_roots.h)
    PgPoolSettings pg;        // the PostgreSQL pool every served map shares
    int pgRowCacheMb = int(EngineContext::kDefaultPgRowCacheBytes >> 20);  // 0: no row cache
    double drainS = 2;        // SIGTERM: seconds /health says "draining" before the listener closes
    int instances = 1;        // how many serve processes share the database (for the budget)
    int pgBudget = 0;         // the database's connections for all of them; 0: no check
    bool allowProfile = false;// &MAPTUNE_PROFILE=json from any client
    int gdalCacheMb = 0;      // GDAL's raster block cache for the process; 0: BlockCacheBudget's adaptive one
};
int runServe(const ServeOptions& o);  // until SIGINT/SIGTERM

struct BenchOptions {
    QStringList targets;        // URL templates ({BBOX} ...) or mapfiles (served in process)
    QStringList labels;
    qint64 requests = 100000;
    double durationS = 30;      // 0: until --requests
    int concurrency = 1;
    int warmup = -1;            // -1: 4 x concurrency
    double timeoutS = 60;
    QString size = QStringLiteral("512");
    quint64 seed = 42;
    QString preset, extent, res, center, jitter = QStringLiteral("0,0"), span, bboxFile;
    QString layers, srs, format = QStringLiteral("image/png");   // MAPFILE targets
    int serverThreads = 0;      // MAPFILE targets: rendering workers, 0: one per core
    int rounds = 3;             // several targets: A B A B ... rounds
    bool abba = false;
    QStringList serverPids;     // PID or @PIDFILE whose process tree is the server
    int printBboxes = 0;        // print the first N URLs and exit
    bool json = false;
    bool quiet = false;         // no progress bar, no error examples
    bool noSizeCheck = false;
    bool allowRemote = false;
    QString experiment;         // experiment preset: lut, formats, postgis, url=URL (one MAPFILE target)
    QString layer;              // the preset's layer
    QString pgConnInfo;         // postgis preset: where to load the layer
    QString workDir;            // presets: variant mapfiles and made files; empty: the cache directory
    QStringList formats;        // formats preset: format keys; empty: all
    QString csv, runsCsv, html; // report files
};
int runBench(BenchOptions o);  // exit 3 when a request failed (as ../shared/bench/load)
// Registers "bench" on the command line; run() parses the options into BenchOptions and runs.
CLI::App* addBenchSubcommand(CLI::App& cli, std::function<int()>& run);

// Registers "advise" (the raster advisor): what a map's raster files are and what they cost.
CLI::App* addAdviseSubcommand(CLI::App& cli, std::function<int()>& run);

// Registers "lint" (rules of renderer/lint, text/json/sarif) and "schema" (the keyword schema as JSON).
CLI::App* addLintSubcommand(CLI::App& cli, std::function<int()>& run);
CLI::App* addSchemaSubcommand(CLI::App& cli, std::function<int()>& run);

// Helpers shared by the commands.
// "minx,miny,maxx,maxy" with finite numbers and min < max, else nullopt.
std::optional<Rect> parseBbox(const QString& text);
void printError(const QString& message);
bool writeOutput(const QString& path, const QByteArray& bytes);  // "-" = stdout

}  // namespace maptune::cli
