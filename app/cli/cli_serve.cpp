#include "cli/cli_commands.h"

#include "raster/block_cache_budget.h"
#include "wms/online_resource.h"
#include "server/fastcgi_server.h"
#include "server/http_server.h"
#include "server/map_registry.h"
#include "server/service_router.h"

#include <QDir>
#include <QUrl>

#include <poll.h>

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace maptune::cli {

namespace {

int g_signalPipe[2] = {-1, -1};

void onSignal(int signal)
{
    const char byte = signal == SIGTERM ? 'T' : 'I';
    [[maybe_unused]] const ssize_t n = ::write(g_signalPipe[1], &byte, 1);
}

// SIGINT/SIGTERM wake waitForSignal() through a pipe (async-signal-safe).
bool installSignalHandlers()
{
    if (::pipe(g_signalPipe) != 0) return false;
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);  // a client that hangs up is not a reason to die
    return true;
}

// Blocks until SIGINT or SIGTERM; true for SIGTERM (a planned stop).
bool waitForSignal()
{
    char byte = 0;
    while (::read(g_signalPipe[0], &byte, 1) < 0 && errno == EINTR) {
    }
    return byte == 'T';
}

// SIGTERM: /health says "draining" for `seconds` while requests are still
// served, so that a load balancer's health checks move new work to the other
// instances before this one stops listening. A second signal cuts it short.
void drain(ServiceRouter& router, double seconds)
{
    router.setDraining(true);
    std::fprintf(stderr, "maptune-cli serve: draining for %.1f s (/health answers 503)\n", seconds);
    pollfd fd{g_signalPipe[0], POLLIN, 0};
    ::poll(&fd, 1, int(seconds * 1000));
}

void printServed(const MapRegistry& registry, const QString& host, int port)
{
    const QString h = host.contains(QLatin1Char(':')) ? QLatin1Char('[') + host + QLatin1Char(']') : host;
    for (const QString& name : registry.names()) {
        std::printf("Serving %s at http://%s:%d/%s?SERVICE=WMS&REQUEST=GetCapabilities\n", qPrintable(name),
                    qPrintable(h), port, qPrintable(name));
        const QString url = QStringLiteral("http://%1:%2/%3").arg(h).arg(port).arg(name);
        if (const ServedMapPtr served = registry.find(name))
            if (const auto elsewhere = foreignOnlineResource(*served->map, url))
                std::fprintf(stderr, "maptune-cli serve: warning: map '%s': %s\n", qPrintable(name),
                             qPrintable(foreignOnlineResourceWarning(*elsewhere, url)));
    }
    std::printf("Health at http://%s:%d/health, metrics at http://%s:%d/metrics. Stop with Ctrl+C.\n", qPrintable(h), port,
                qPrintable(h), port);
    std::fflush(stdout);
}

}  // namespace

int runServe(const ServeOptions& o)
{
    // The environment variable is how every map of the process learns its
    // extra roots (DataRoots::forMap), reloads included.
    if (!o.allowedRoots.isEmpty()) {
        QStringList roots = qEnvironmentVariable("MAPTUNE_ALLOWED_ROOTS").split(QLatin1Char(';'), Qt::SkipEmptyParts);
        for (const QString& r : o.allowedRoots) roots << (QDir::isAbsolutePath(r) ? r : QDir::current().absoluteFilePath(r));
        qputenv("MAPTUNE_ALLOWED_ROOTS", roots.join(QLatin1Char(';')).toUtf8());
    }
    if (o.gdalCacheMb > 0) BlockCacheBudget::setFixed(qint64(o.gdalCacheMb) * 1024 * 1024);
    else BlockCacheBudget::startAdaptive();
    // One pool and row cache for every served map, reloads included.
    MapRegistry registry(std::make_shared<const EngineContext>(o.pg, size_t(o.pgRowCacheMb) << 20));
    for (const QString& path : o.mapfiles)
        if (const Status added = registry.addMapFile(path); !added) {
            printError(added.message());
            return 1;
        }
    // Many instances, one PostgreSQL: each instance's pool may open
    // pool size connections per CONNECTION string.
    if (o.pgBudget > 0) {
        const int strings = int(registry.postgisConnectionStrings().size());
        const qint64 needed = qint64(o.instances) * o.pg.maxPerKey * strings;
        if (needed > o.pgBudget) {
            printError(QStringLiteral("--pg-connection-budget %1 is too small: %2 instances x pool size %3 x %4 CONNECTION "
                                      "string(s) may open %5 connections; lower --pg-pool-size or put PgBouncer in front")
                           .arg(o.pgBudget).arg(o.instances).arg(o.pg.maxPerKey).arg(strings).arg(needed));
            return 1;
        }
    }
    ServerOptions so;
    so.host = o.host;
    so.port = o.port;
    so.workers = o.threads;
    so.allowProfile = o.allowProfile;
    if (!installSignalHandlers()) {
        printError(QStringLiteral("cannot install signal handlers"));
        return 1;
    }
    ServiceRouter router(registry, so);
    registry.startWatching(so.reloadIntervalMs);

    if (!o.fastcgi.isEmpty()) {
        FastCgiServer server(router);
        if (const Status opened = server.open(o.fastcgi); !opened) {
            printError(opened.message());
            return 1;
        }
        server.start();
        for (const QString& name : registry.names())
            std::printf("Serving %s over FastCGI on %s (map by the last path segment, e.g. /%s?SERVICE=WMS&REQUEST=GetCapabilities)\n",
                        qPrintable(name), qPrintable(o.fastcgi), qPrintable(name));
        std::fflush(stdout);
        if (waitForSignal() && o.drainS > 0) drain(router, o.drainS);
        server.stop();
    } else {
        HttpServer server(router);
        if (const Status bound = server.bind(); !bound) {
            printError(bound.message());
            return 1;
        }
        if (const Status started = server.start(); !started) {  // bound: only a thread to start
            printError(started.message());
            return 1;
        }
        printServed(registry, so.host, server.port());
        if (waitForSignal() && o.drainS > 0) drain(router, o.drainS);
        std::fprintf(stderr, "maptune-cli serve: stopping (finishing requests in flight)\n");
        server.stop();
    }
    registry.stopWatching();
    return 0;
}

}  // namespace maptune::cli
