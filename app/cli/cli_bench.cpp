// maptune-cli bench: the load generator on the command line. One target: one
// run; several: an A/B experiment in interleaved rounds. A MAPFILE target is
// served in process on an ephemeral loopback port and measured over HTTP
// like any other WMS.

#include "cli/cli_commands.h"

#include "loadtest/bbox_sequence.h"
#include "loadtest/experiment.h"
#include "loadtest/url_template.h"
#include "server/http_server.h"
#include "server/map_registry.h"
#include "server/service_router.h"

#include <CLI/CLI.hpp>

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QUrl>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <memory>
#include <unistd.h>

namespace maptune::cli {

namespace {

CancelToken g_cancel;

void onInterrupt(int)
{
    g_cancel.cancel();  // an atomic store: async-signal-safe
}

bool isMapfileTarget(const QString& target)
{
    return !target.contains(QLatin1String("://"));
}

// The in-process server for MAPFILE targets, shared by all of them.
struct EmbeddedServer {
    MapRegistry registry;
    std::unique_ptr<ServiceRouter> router;
    std::unique_ptr<HttpServer> http;
};

// "EPSG:6677" from PROJECTION "init=epsg:6677" or "EPSG:6677", else wms_srs.
QString mapSrs(const MapDef& map)
{
    for (const QString& arg : map.projection.args) {
        QString a = arg.trimmed();
        if (a.startsWith(QLatin1String("init="), Qt::CaseInsensitive)) a = a.mid(5);
        if (a.startsWith(QLatin1String("epsg:"), Qt::CaseInsensitive)) return QStringLiteral("EPSG:") + a.mid(5);
    }
    for (const char* key : {"wms_srs", "ows_srs"})
        if (auto v = map.web.metadata.value(QString::fromLatin1(key)))
            if (!v->trimmed().isEmpty()) return v->trimmed().split(QLatin1Char(' ')).first();
    return {};
}

QString mapLayers(const MapDef& map)
{
    QStringList names;
    for (const LayerDef& l : map.layers)
        if (!l.name.isEmpty() && !names.contains(l.name)) names << l.name;
    return names.join(QLatin1Char(','));
}

// Starts the embedded server on the first MAPFILE target and turns every
// MAPFILE target into a GetMap URL template; an error message instead.
std::optional<QString> resolveMapTargets(BenchOptions& o, EmbeddedServer& server, BboxOptions& bbox)
{
    QList<ServedMapPtr> maps;
    for (const QString& t : std::as_const(o.targets)) {
        if (!isMapfileTarget(t)) continue;
        if (!QFileInfo::exists(t)) return QStringLiteral("'%1' is neither an http:// URL template nor a mapfile").arg(t);
        if (auto error = server.registry.addMapFile(t)) return *error;
        maps << server.registry.find(MapRegistry::nameForPath(t));
    }
    if (maps.isEmpty()) return std::nullopt;
    ServerOptions so;
    so.host = QStringLiteral("127.0.0.1");
    so.port = 0;
    so.workers = o.serverThreads;
    so.reloadIntervalMs = 0;
    server.router = std::make_unique<ServiceRouter>(server.registry, so);
    server.http = std::make_unique<HttpServer>(*server.router);
    if (auto error = server.http->start()) return *error;

    const bool ownSequence = !bbox.preset.isEmpty() || !bbox.extent.isEmpty() || !bbox.center.isEmpty() || !bbox.bboxFile.isEmpty();
    const auto size = parseImageSize(bbox.size);
    int k = 0;
    for (QString& t : o.targets) {
        if (!isMapfileTarget(t)) continue;
        const ServedMap& served = *maps[k++];
        const QString srs = o.srs.isEmpty() ? mapSrs(*served.map) : o.srs;
        if (srs.isEmpty()) return QStringLiteral("%1: no EPSG code in its PROJECTION; give --srs").arg(served.path);
        const QString layers = o.layers.isEmpty() ? mapLayers(*served.map) : o.layers;
        t = QStringLiteral("http://127.0.0.1:%1/%2?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=%3&STYLES=&SRS=%4"
                           "&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=%5")
                .arg(server.http->port())
                .arg(served.name, QString::fromUtf8(QUrl::toPercentEncoding(layers, ",")), srs,
                     QString::fromUtf8(QUrl::toPercentEncoding(o.format, "/")));
        if (!ownSequence && k == 1) {
            // Random windows inside the map EXTENT, from the whole map down to 1/16 of it.
            const Rect& e = served.map->extent;
            if (!e.isValid() || !size) return QStringLiteral("%1: no EXTENT; give --extent/--res or --preset").arg(served.path);
            const double full = std::min(e.width() / size->first, e.height() / size->second);
            bbox.extent = QStringLiteral("%1,%2,%3,%4").arg(e.minx, 0, 'g', 17).arg(e.miny, 0, 'g', 17).arg(e.maxx, 0, 'g', 17).arg(e.maxy, 0, 'g', 17);
            bbox.res = QStringLiteral("%1,%2").arg(full / 16, 0, 'g', 17).arg(full, 0, 'g', 17);
        }
    }
    return std::nullopt;
}

std::optional<QList<qint64>> serverPids(const QStringList& specs)
{
    QList<qint64> pids;
    for (QString s : specs) {
        if (s.startsWith(QLatin1Char('@'))) {
            QFile f(s.mid(1));
            if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
            s = QString::fromLatin1(f.readLine()).trimmed();
        }
        bool ok = false;
        pids << s.toLongLong(&ok);
        if (!ok) return std::nullopt;
    }
    return pids;
}

// A one-line progress bar on stderr, redrawn in place.
void drawProgress(const QString& label, const LoadProgress& p)
{
    constexpr int kWidth = 30;
    const int filled = int(p.fraction * kWidth + 0.5);
    const QString bar = QString(filled, QLatin1Char('#')) + QString(kWidth - filled, QLatin1Char('.'));
    const QString text = p.phase == LoadProgress::Phase::Warmup
                             ? QStringLiteral("%1 warming up...").arg(label)
                             : QStringLiteral("%1 [%2] %3% %4s %5 req/min, %6 ok, %7 errors")
                                   .arg(label, bar)
                                   .arg(int(p.fraction * 100), 3)
                                   .arg(p.elapsedS, 0, 'f', 1)
                                   .arg(p.reqPerMin, 0, 'f', 0)
                                   .arg(p.ok)
                                   .arg(p.errors);
    std::fprintf(stderr, "\r%-110s", qPrintable(text.left(110)));
    std::fflush(stderr);
}

void clearProgress()
{
    std::fprintf(stderr, "\r%110s\r", "");
    std::fflush(stderr);
}

void printExamples(const LoadReport& r)
{
    for (const ErrorExample& e : r.errorExamples)
        std::fprintf(stderr, "  error '%s' (status %d, %s): %s\n    from %s\n", qPrintable(e.reason), e.status,
                     qPrintable(e.contentType.isEmpty() ? QStringLiteral("no content type") : e.contentType),
                     qPrintable(e.firstBytes), qPrintable(e.url));
}

}  // namespace

int runBench(BenchOptions o)
{
    const QStringList original = o.targets;
    BboxOptions bbox{o.preset, o.extent, o.res, o.center, o.jitter, o.span, o.bboxFile, o.size, o.seed};
    EmbeddedServer server;
    if (auto error = resolveMapTargets(o, server, bbox)) {
        printError(*error);
        return 1;
    }
    const BboxSpecResult spec = resolveBboxSpec(bbox);
    if (!spec.spec) {
        printError(spec.error);
        return 2;
    }
    if (o.printBboxes > 0) {
        for (const QString& t : std::as_const(o.targets)) {
            const auto boxes = BboxSequence::first(*spec.spec, o.printBboxes);
            for (qsizetype i = 0; i < boxes.size(); ++i)
                std::printf("%s\n", qPrintable(UrlTemplate(t).fill(boxes[i], spec.spec->width, spec.spec->height, i)));
        }
        return 0;
    }
    const auto pids = serverPids(o.serverPids);
    if (!pids) {
        printError(QStringLiteral("--server-pid: expected PID or @PIDFILE"));
        return 2;
    }
    ExperimentOptions eo;
    eo.load.bbox = *spec.spec;
    eo.load.concurrency = o.concurrency;
    eo.load.durationS = o.durationS;
    eo.load.maxRequests = o.requests;
    eo.load.warmup = o.warmup;
    eo.load.timeoutS = o.timeoutS;
    eo.load.allowRemote = o.allowRemote;
    eo.load.checkSize = !o.noSizeCheck;
    eo.rounds = o.targets.size() > 1 ? o.rounds : 1;
    eo.abba = o.abba;
    for (qsizetype i = 0; i < o.targets.size(); ++i) {
        const bool mapfile = isMapfileTarget(original[i]);
        QString label = i < o.labels.size() ? o.labels[i] : QString();
        if (label.isEmpty() && (mapfile || original.size() > 1))
            label = mapfile ? MapRegistry::nameForPath(original[i]) : QString(QLatin1Char('A' + char(i % 26)));
        eo.configs << ExperimentConfig{label, o.targets[i], *pids, mapfile};
    }
    for (const ExperimentConfig& c : std::as_const(eo.configs)) {
        LoadOptions lo = eo.load;
        lo.urlTemplate = c.urlTemplate;
        if (auto error = LoadRunner::validate(lo)) {
            printError(*error);
            return 2;
        }
    }

    std::signal(SIGINT, onInterrupt);
    std::signal(SIGPIPE, SIG_IGN);
    Experiment experiment(eo);
    experiment.setCancelToken(g_cancel);
    const bool bar = ::isatty(STDERR_FILENO) && !o.quiet;
    if (bar)
        experiment.setProgressCallback([&](const ExperimentProgress& p) {
            drawProgress(p.runs > 1 ? QStringLiteral("%1/%2 %3").arg(p.run + 1).arg(p.runs).arg(p.label) : p.label, p.load);
        });
    experiment.setRunCallback([&](const LoadReport& r) {
        if (bar) clearProgress();
        if (!o.json) std::printf("# %s\n", qPrintable(r.humanLine()));
        std::fflush(stdout);
        if (!o.quiet) printExamples(r);
    });
    const ExperimentResult result = experiment.run();
    if (server.http) server.http->stop();
    if (!result.error.isEmpty()) {
        printError(result.error);
        return 1;
    }
    if (o.json) {
        const QJsonObject json = result.runs.size() == 1 && eo.configs.size() == 1 ? result.runs.first().toJson() : result.toJson();
        std::printf("%s\n", QJsonDocument(json).toJson(QJsonDocument::Compact).constData());
    } else if (eo.configs.size() > 1) {
        std::printf("\n%s", qPrintable(result.table()));
    }
    std::fflush(stdout);
    if (result.cancelled) {
        printError(QStringLiteral("interrupted"));
        return 130;
    }
    for (const LoadReport& r : result.runs)
        if (r.errors || !r.ok) return 3;
    return 0;
}

namespace {

struct BenchArgs {
    std::vector<std::string> targets, labels, serverPids;
    std::string size = "512", preset, extent, res, center, jitter = "0,0", span, bboxFile, layers, srs, format = "image/png";
    BenchOptions o;
};

}  // namespace

CLI::App* addBenchSubcommand(CLI::App& cli, std::function<int()>& run)
{
    auto a = std::make_shared<BenchArgs>();
    BenchOptions& o = a->o;
    auto* b = cli.add_subcommand("bench", "load-test a WMS (URL template or MAPFILE served in process); "
                                          "several targets: an A/B experiment in interleaved rounds");
    b->add_option("TARGET", a->targets, "URL template with {BBOX} {MINX} {MINY} {MAXX} {MAXY} {WIDTH} {HEIGHT} {SEQ}, "
                                        "or a mapfile")->required();
    b->add_option("-n,--requests", o.requests, "maximum measured requests (default 100000)");
    auto* duration = b->add_option("-d,--duration", o.durationS, "measuring time in seconds (default 30; 0: until --requests)");
    b->add_option("-c,--concurrency", o.concurrency, "simultaneous keep-alive connections (default 1)");
    b->add_option("-w,--warmup", o.warmup, "unmeasured warm-up requests (default 4 x concurrency)");
    b->add_option("--timeout", o.timeoutS, "per-request timeout in seconds (default 60)");
    b->add_option("--size", a->size, "WxH or N (square), default 512");
    b->add_option("--seed", o.seed, "bbox sequence seed (default 42, as ../shared/bench)");
    b->add_option("--preset", a->preset, "bbox preset: raster (random windows in the bench orthophoto) or roads (palace map shifted east-west)");
    b->add_option("--extent", a->extent, "minx,miny,maxx,maxy: random windows inside this extent (with --res)");
    b->add_option("--res", a->res, "min,max map units per pixel for --extent (log-uniform)");
    b->add_option("--center", a->center, "x,y: bbox centre for jitter mode (with --span)");
    b->add_option("--jitter", a->jitter, "dx,dy: uniform random shift of the centre (+-)");
    b->add_option("--span", a->span, "w[,h]: bbox size in map units for jitter mode");
    b->add_option("--bbox-file", a->bboxFile, "one minx,miny,maxx,maxy a line, replayed in order");
    b->add_option("--label", a->labels, "label per target (repeatable)");
    b->add_option("--rounds", o.rounds, "several targets: rounds of A B ... (default 3)");
    b->add_flag("--abba", o.abba, "several targets: reverse the order every other round");
    b->add_option("--layers", a->layers, "MAPFILE targets: LAYERS (default: every named layer)");
    b->add_option("--srs", a->srs, "MAPFILE targets: SRS (default: the map's EPSG code)");
    b->add_option("--format", a->format, "MAPFILE targets: FORMAT (default image/png)");
    b->add_option("--threads", o.serverThreads, "MAPFILE targets: rendering workers (default: one per core)");
    b->add_option("--server-pid", a->serverPids, "PID or @PIDFILE of the server: its process tree's CPU per request (repeatable)");
    b->add_option("--print-bboxes", o.printBboxes, "print the first N URLs and exit");
    b->add_flag("--json", o.json, "print one JSON object with the figures");
    b->add_flag("-q,--quiet", o.quiet, "no progress bar and no error examples");
    b->add_flag("--no-size-check", o.noSizeCheck, "do not check the PNG width and height");
    b->add_flag("--allow-remote", o.allowRemote, "allow targets other than 127.0.0.1, localhost and ::1");
    run = [a, duration] {
        BenchOptions o = a->o;
        auto q = [](const std::string& s) { return QString::fromStdString(s); };
        for (const auto& t : a->targets) o.targets << q(t);
        for (const auto& l : a->labels) o.labels << q(l);
        for (const auto& p : a->serverPids) o.serverPids << q(p);
        o.size = q(a->size);
        o.preset = q(a->preset);
        o.extent = q(a->extent);
        o.res = q(a->res);
        o.center = q(a->center);
        o.jitter = q(a->jitter);
        o.span = q(a->span);
        o.bboxFile = q(a->bboxFile);
        o.layers = q(a->layers);
        o.srs = q(a->srs);
        o.format = q(a->format);
        // --requests alone means exactly that many requests, however long they take
        if (duration->count() == 0 && o.requests < 100000) o.durationS = 0;
        return runBench(o);
    };
    return b;
}

}  // namespace maptune::cli
