#include "server/service_router.h"

#include "trace/trace.h"
#include "wms/wms_request.h"

#include <QDateTime>
#include <QRegularExpression>

#include <exception>
#include <thread>

namespace maptune {

int ServerOptions::effectiveWorkers() const
{
    if (workers > 0) return workers;
    const unsigned cores = std::thread::hardware_concurrency();
    return cores > 0 ? int(cores) : 1;
}

ServiceRouter::ServiceRouter(MapRegistry& registry, const ServerOptions& options)
    : m_registry(registry), m_options(options), m_gate(options.effectiveWorkers(), options.maxAdmitted()), m_workers(options.effectiveWorkers())
{
}

Response ServiceRouter::plain(int status, const QByteArray& text)
{
    Response r;
    r.status = status;
    r.body = text.endsWith('\n') ? text : text + '\n';
    r.setContentType("text/plain; charset=utf-8");
    return r;
}

Response ServiceRouter::overloaded()
{
    Response r = plain(503, "The server is busy; retry in a second.");
    r.headers.append({QByteArray("Retry-After"), QByteArray("1")});
    return r;
}

Response ServiceRouter::unknownMap() const
{
    // Never echo the request path back: list what is served instead.
    const QStringList names = m_registry.names();
    return plain(404, "Unknown map. This server serves: " + names.join(QStringLiteral(", ")).toUtf8()
                          + " (GET /<map>?SERVICE=WMS&REQUEST=GetCapabilities)");
}

ServedMapPtr ServiceRouter::resolve(const QByteArray& path, PathMode mode) const
{
    if (mode == PathMode::Strict) {
        if (path == "/" || path.isEmpty()) return m_registry.single();
        const QString segment = QString::fromUtf8(path.mid(1));
        if (!MapRegistry::isValidName(segment)) return nullptr;  // "/a/b", "/../x", "/.hidden"
        return m_registry.find(segment);
    }
    const QString last = QString::fromUtf8(path.mid(path.lastIndexOf('/') + 1));
    if (MapRegistry::isValidName(last))
        if (ServedMapPtr named = m_registry.find(last)) return named;
    return m_registry.single();
}

Response ServiceRouter::handle(const QByteArray& method, const QByteArray& path, const QByteArray& query, PathMode mode,
                              const QByteArray& selfUrl)
{
    if (method != "GET" && method != "HEAD") {
        Response r = plain(405, "Only GET is supported (OGC KVP requests).");
        r.headers.append({QByteArray("Allow"), QByteArray("GET, HEAD")});
        return r;
    }
    if (path == "/health") return plain(200, "ok");
    if (path == "/metrics") {
        Response r;
        r.body = m_metrics.prometheusText(&m_registry);
        r.setContentType("text/plain; version=0.0.4; charset=utf-8");
        return r;
    }
    const ServedMapPtr map = resolve(path, mode);
    if (!map) return unknownMap();
    return wms(*map, query, selfUrl);
}

namespace {

QByteArray totalTiming(double ms)
{
    return "total;dur=" + QByteArray::number(ms, 'f', 3);
}

// The capabilities of a map without an online resource name the URL the client
// used (a per-request copy of the map: capabilities are rare and cheap to copy
// for). The URL comes from the Host header, so only plain characters pass.
std::optional<WmsService> selfAddressedService(const ServedMap& map, const QString& type, const QByteArray& selfUrl)
{
    static const QRegularExpression safe(QStringLiteral("^https?://[A-Za-z0-9.:\\-\\[\\]]+(/[A-Za-z0-9_.\\-/]*)?$"));
    if (type != QLatin1String("GetCapabilities") || selfUrl.isEmpty()) return std::nullopt;
    const KeyValues& md = map.map->web.metadata;
    if (md.value(QStringLiteral("wms_onlineresource")) || md.value(QStringLiteral("ows_onlineresource"))) return std::nullopt;
    const QString url = QString::fromLatin1(selfUrl);
    if (!safe.match(url).hasMatch()) return std::nullopt;
    auto copy = std::make_shared<MapDef>(*map.map);
    copy->web.metadata.set(QStringLiteral("ows_onlineresource"), url + QLatin1Char('?'));
    return WmsService(copy);
}

}  // namespace

Response ServiceRouter::wms(const ServedMap& map, const QByteArray& query, const QByteArray& selfUrl)
{
    const Stopwatch clock;
    WmsRequest request = WmsRequest::fromQueryString(query);
    const QString type = ServerMetrics::requestType(request.value(QStringLiteral("REQUEST")).value_or(QString()));

    std::optional<RequestGate::Ticket> ticket = m_gate.tryAdmit();
    if (!ticket) {
        m_metrics.overloaded();
        m_metrics.requestFinished(map.name, type, 503, clock.elapsedMs() / 1000);
        Response busy = overloaded();
        notify(map, request, type, busy, clock.elapsedMs());
        return busy;
    }
    m_metrics.inFlightChanged(+1);
    const auto deadline = DeadlineWatchdog::Clock::now() + std::chrono::milliseconds(m_options.timeLimitMs);
    const DeadlineWatchdog::Guard guard(m_watchdog, deadline, request.cancel);

    Response response;
    if (!ticket->waitForWorker(deadline)) {
        m_metrics.timedOut();
        response = overloaded();
    } else {
        try {
            const std::optional<WmsService> self = selfAddressedService(map, type, selfUrl);
            const WmsService& service = self ? *self : map.service;
            response = m_workers.run([&service, &request] { return service.handle(request); });
        } catch (const std::exception& e) {
            qWarning("maptune server: map '%s': %s", qPrintable(map.name), e.what());
            response = plain(500, "Internal error while answering the request; see the server log.");
        } catch (...) {
            response = plain(500, "Internal error while answering the request; see the server log.");
        }
        if (request.cancel.isCancelled()) m_metrics.timedOut();
    }
    ticket.reset();  // free the worker before the bytes go out
    m_metrics.inFlightChanged(-1);

    if (response.trace) {
        m_metrics.traceFinished(map.name, *response.trace);
        response.headers.append({QByteArray("Server-Timing"), response.trace->serverTiming().toUtf8()});
    } else {
        response.headers.append({QByteArray("Server-Timing"), totalTiming(clock.elapsedMs())});
    }
    m_metrics.requestFinished(map.name, type, response.status, clock.elapsedMs() / 1000);
    notify(map, request, type, response, clock.elapsedMs());
    return response;
}

void ServiceRouter::notify(const ServedMap& map, const WmsRequest& request, const QString& type,
                           const Response& response, double ms)
{
    RequestObserver* observer = m_observer.load();
    if (!observer) return;
    ServedRequest served;
    served.finishedMs = QDateTime::currentMSecsSinceEpoch();
    served.map = map.name;
    served.type = type;
    served.layers = request.value(QStringLiteral("LAYERS")).value_or(QString());
    served.crs = request.value(QStringLiteral("CRS")).value_or(request.value(QStringLiteral("SRS")).value_or(QString()));
    served.width = request.value(QStringLiteral("WIDTH")).value_or(QString()).toInt();
    served.height = request.value(QStringLiteral("HEIGHT")).value_or(QString()).toInt();
    served.status = response.status;
    served.ms = ms;
    served.bytes = response.body.size();
    served.trace = response.trace;
    observer->requestServed(served);
}

}  // namespace maptune
