// maptune-cli bench: the load generator on the command line. One target: one
// run; several: an A/B experiment in interleaved rounds. A MAPFILE target is
// served in process on an ephemeral loopback port and measured over HTTP
// like any other WMS. --preset lut|formats|postgis|url=URL builds the map
// variants of a built-in experiment from one MAPFILE and runs them.

#include "cli/cli_commands.h"

#include "loadtest/bbox_sequence.h"
#include "loadtest/embedded_server.h"
#include "loadtest/experiment.h"
#include "loadtest/experiment_preset.h"
#include "loadtest/experiment_report.h"
#include "loadtest/url_template.h"
#include "mapfile/map_loader.h"
#include "server/map_registry.h"

#include <CLI/CLI.hpp>

#include <QFile>
#include <QFileInfo>
#include <QDir>
#include <QJsonDocument>
#include <QStandardPaths>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <memory>
#include <utility>
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

bool hasOwnSequence(const BboxOptions& bbox)
{
    return !bbox.preset.isEmpty() || !bbox.extent.isEmpty() || !bbox.center.isEmpty() || !bbox.bboxFile.isEmpty();
}

// Serves every MAPFILE target in process and turns it into a GetMap URL
// template; without a bbox option, random windows inside the first map's EXTENT.
std::optional<QString> resolveMapTargets(BenchOptions& o, EmbeddedServer& server, BboxOptions& bbox)
{
    bool any = false;
    for (const QString& t : std::as_const(o.targets)) {
        if (!isMapfileTarget(t)) continue;
        if (!QFileInfo::exists(t)) return QStringLiteral("'%1' is neither an http:// URL template nor a mapfile").arg(t);
        if (const Status added = server.addMap(t); !added) return added.message();
        any = true;
    }
    if (!any) return std::nullopt;
    if (const Status started = server.start(o.serverThreads); !started) return started.message();
    const bool ownSequence = hasOwnSequence(bbox);
    bool first = true;
    for (QString& t : o.targets) {
        if (!isMapfileTarget(t)) continue;
        const MapDefPtr map = server.map(t);
        const Result<QString> url = server.urlTemplate(t, {o.layers, o.srs, o.format});
        if (!url) return url.message();
        t = *url;
        if (!ownSequence && std::exchange(first, false))
            if (const Status windows = EmbeddedServer::defaultWindows(*map, bbox); !windows) return windows.message();
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

namespace {

int fail(const QString& message, int status)
{
    printError(message);
    return status;
}

void drawPresetProgress(const PresetProgress& p)
{
    std::fprintf(stderr, "\r%-110s", qPrintable(QStringLiteral("preparing %1/%2 [%3%] %4")
                                                      .arg(p.step + 1).arg(p.steps).arg(int(p.fraction * 100), 3)
                                                      .arg(p.stage).left(110)));
    std::fflush(stderr);
}

QString defaultWorkDir(const QString& mapfile)
{
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation);
    return QDir(cache.isEmpty() ? QDir::tempPath() : cache)
        .filePath(QStringLiteral("maptune/experiments/") + MapVariantWriter::safeName(QFileInfo(mapfile).completeBaseName()));
}

// --preset lut|formats|postgis|url=URL on one MAPFILE: the variants, served in
// process, as configurations. An exit status on failure.
std::optional<int> presetConfigs(const BenchOptions& o, EmbeddedServer& server, BboxOptions& bbox,
                                 QList<ExperimentConfig>& configs, ReportInfo& info)
{
    const auto spec = PresetSpec::parse(o.experiment);
    if (!spec) return fail(spec.message(), 2);
    if (o.targets.size() != 1 || !isMapfileTarget(o.targets[0]))
        return fail(QStringLiteral("--preset %1 needs exactly one MAPFILE target").arg(o.experiment), 2);
    const LoadResult loaded = loadMapFile(o.targets[0]);
    if (!loaded.ok()) {
        for (const Diagnostic& d : loaded.diagnostics) std::fprintf(stderr, "%s\n", qPrintable(d.toString()));
        return 1;
    }
    PresetOptions po;
    po.spec = *spec;
    po.layer = o.layer;
    po.workDir = o.workDir.isEmpty() ? defaultWorkDir(o.targets[0]) : QDir(o.workDir).absolutePath();
    po.pgConnInfo = o.pgConnInfo;
    if (!o.formats.isEmpty()) {
        po.formats.clear();
        for (const QString& k : o.formats) {
            const auto f = RasterConverter::fromKey(k);
            if (!f) return fail(QStringLiteral("--formats: unknown format '%1'").arg(k), 2);
            po.formats << *f;
        }
    }
    const bool bar = ::isatty(STDERR_FILENO) && !o.quiet;
    const PresetBuild built = ExperimentPreset::build(*loaded.map, po, g_cancel, bar ? drawPresetProgress : nullptr);
    if (bar) clearProgress();
    for (const QString& n : built.notes)
        if (!o.quiet) std::fprintf(stderr, "maptune-cli: %s\n", qPrintable(n));
    if (built.cancelled) return fail(QStringLiteral("interrupted"), 130);
    if (!built.ok()) return fail(built.error, 1);
    BenchGetMapParams params{o.layers.isEmpty() ? o.layer : o.layers, o.srs, o.format};
    if (const Status served = server.configsFor(built.variants, params, configs, o.serverThreads); !served)
        return fail(served.message(), 1);
    for (ExperimentConfig& c : configs)
        if (!c.serverInProcess) c.serverPids = {};
    if (!hasOwnSequence(bbox))
        if (const Status windows = EmbeddedServer::defaultWindows(*loaded.map, bbox); !windows)
            return fail(windows.message(), 2);
    info.title = QStringLiteral("MapTune experiment: %1 on %2").arg(o.experiment, QFileInfo(o.targets[0]).fileName());
    info.notes << QStringLiteral("Layer: %1. Work directory: %2.").arg(o.layer.isEmpty() ? QStringLiteral("(all)") : o.layer, po.workDir);
    info.notes << built.notes;
    for (const MapVariant& v : built.variants) info.descriptions << v.description;
    return std::nullopt;
}

// Plain targets: URL templates and MAPFILEs, one configuration each.
std::optional<int> targetConfigs(BenchOptions& o, EmbeddedServer& server, BboxOptions& bbox, const QList<qint64>& pids,
                                 QList<ExperimentConfig>& configs)
{
    const QStringList original = o.targets;
    if (auto error = resolveMapTargets(o, server, bbox)) return fail(*error, 1);
    for (qsizetype i = 0; i < o.targets.size(); ++i) {
        const bool mapfile = isMapfileTarget(original[i]);
        QString label = i < o.labels.size() ? o.labels[i] : QString();
        if (label.isEmpty() && (mapfile || original.size() > 1))
            label = mapfile ? MapRegistry::nameForPath(original[i]) : QString(QLatin1Char('A' + char(i % 26)));
        configs << ExperimentConfig{label, o.targets[i], pids, mapfile};
    }
    return std::nullopt;
}

bool writeReports(const BenchOptions& o, const ExperimentResult& result, const ReportInfo& info)
{
    const std::pair<QString, QString> files[] = {{o.csv, ExperimentReport::summaryCsv(result)},
                                                 {o.runsCsv, ExperimentReport::runsCsv(result)},
                                                 {o.html, ExperimentReport::html(result, info)}};
    bool ok = true;
    for (const auto& [path, text] : files) {
        if (path.isEmpty()) continue;
        if (const Status written = ExperimentReport::writeFile(path, text); !written) {
            printError(written.message());
            ok = false;
        }
    }
    return ok;
}

ExperimentResult runExperiment(const BenchOptions& o, const ExperimentOptions& eo)
{
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
    return experiment.run();
}

}  // namespace

int runBench(BenchOptions o)
{
    std::signal(SIGINT, onInterrupt);
    BboxOptions bbox{o.preset, o.extent, o.res, o.center, o.jitter, o.span, o.bboxFile, o.size, o.seed};
    const auto pids = serverPids(o.serverPids);
    if (!pids) {
        printError(QStringLiteral("--server-pid: expected PID or @PIDFILE"));
        return 2;
    }
    EmbeddedServer server;
    ExperimentOptions eo;
    ReportInfo info;
    const std::optional<int> failed = o.experiment.isEmpty() ? targetConfigs(o, server, bbox, *pids, eo.configs)
                                                             : presetConfigs(o, server, bbox, eo.configs, info);
    if (failed) return *failed;
    const BboxSpecResult spec = resolveBboxSpec(bbox);
    if (!spec.spec) {
        printError(spec.error);
        return 2;
    }
    if (o.printBboxes > 0) {
        const auto boxes = BboxSequence::first(*spec.spec, o.printBboxes);
        for (const ExperimentConfig& c : std::as_const(eo.configs))
            for (qsizetype i = 0; i < boxes.size(); ++i)
                std::printf("%s\n", qPrintable(UrlTemplate(c.urlTemplate).fill(boxes[i], spec.spec->width, spec.spec->height, i)));
        return 0;
    }
    eo.load.bbox = *spec.spec;
    eo.load.concurrency = o.concurrency;
    eo.load.durationS = o.durationS;
    eo.load.maxRequests = o.requests;
    eo.load.warmup = o.warmup;
    eo.load.timeoutS = o.timeoutS;
    eo.load.allowRemote = o.allowRemote;
    eo.load.checkSize = !o.noSizeCheck;
    eo.rounds = eo.configs.size() > 1 ? o.rounds : 1;
    eo.abba = o.abba;
    for (const ExperimentConfig& c : std::as_const(eo.configs)) {
        LoadOptions lo = eo.load;
        lo.urlTemplate = c.urlTemplate;
        if (const Status valid = LoadRunner::validate(lo); !valid) {
            printError(c.label.isEmpty() ? valid.message() : c.label + QStringLiteral(": ") + valid.message());
            return 2;
        }
    }
    const ExperimentResult result = runExperiment(o, eo);
    server.stop();
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
    if (!writeReports(o, result, info)) return 1;
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
    std::string layer, pg, workDir, formats, csv, runsCsv, html;
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
    b->add_option("--preset", a->preset, "bbox preset: raster (random windows in the bench orthophoto) or roads (palace map "
                                         "shifted east-west); or an experiment on one MAPFILE: lut, formats, postgis, url=URL");
    b->add_option("--layer", a->layer, "experiment presets: the layer the experiment is about (also the default LAYERS)");
    b->add_option("--pg", a->pg, "postgis preset: libpq connection string of the database to load the layer into");
    b->add_option("--formats", a->formats, "formats preset: comma-separated subset of gtiff-tiled,gtiff-striped,jpeg-tiff,jp2,cog");
    b->add_option("--work-dir", a->workDir, "experiment presets: where variant mapfiles and made files go "
                                            "(default ~/.cache/maptune/experiments/MAP; made rasters are reused)");
    b->add_option("--csv", a->csv, "write one CSV row per configuration to FILE");
    b->add_option("--runs-csv", a->runsCsv, "write one CSV row per run to FILE");
    b->add_option("--html", a->html, "write a self-contained HTML report with charts to FILE");
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
        // --preset is either a bbox preset (raster, roads) or an experiment preset.
        if (bboxPresetNames().contains(q(a->preset)) || a->preset.empty()) o.preset = q(a->preset);
        else o.experiment = q(a->preset);
        o.layer = q(a->layer);
        o.pgConnInfo = q(a->pg);
        o.workDir = q(a->workDir);
        if (!a->formats.empty()) o.formats = q(a->formats).split(QLatin1Char(','), Qt::SkipEmptyParts);
        o.csv = q(a->csv);
        o.runsCsv = q(a->runsCsv);
        o.html = q(a->html);
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
