#include "server/service_router.h"

#include "render/render_load.h"

#include "wms/request_profile.h"

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
                              const QByteArray& selfUrl, const QByteArray& peer)
{
    // A request counts as running load from its arrival, not only while it
    // draws: a render under way must not take the second core for itself
    // while another request is being parsed or encoded.
    const RenderLoad::Scope load;
    if (method != "GET" && method != "HEAD") {
        Response r = plain(405, "Only GET is supported (OGC KVP requests).");
        r.headers.append({QByteArray("Allow"), QByteArray("GET, HEAD")});
        return r;
    }
    if (path == "/health") return m_draining.load() ? plain(503, "draining") : plain(200, "ok");
    if (path == "/metrics") {
        Response r;
        r.body = m_metrics.prometheusText(&m_registry);
        r.setContentType("text/plain; version=0.0.4; charset=utf-8");
        return r;
    }
    const ServedMapPtr map = resolve(path, mode);
    if (!map) return unknownMap();
    return wms(*map, query, selfUrl, m_options.allowProfile || isLoopbackAddress(peer));
}

namespace {

QByteArray totalTiming(double ms)
{
    return "total;dur=" + QByteArray::number(ms, 'f', 3);
}

// The URL the client used, for capabilities of maps without an online
// resource. It comes from the Host header, so only plain characters pass.
QString selfUrlOf(const QByteArray& selfUrl)
{
    static const QRegularExpression safe(QStringLiteral("^https?://[A-Za-z0-9.:\\-\\[\\]]+(/[A-Za-z0-9_.\\-/]*)?$"));
    const QString url = QString::fromLatin1(selfUrl);
    return !url.isEmpty() && safe.match(url).hasMatch() ? url + QLatin1Char('?') : QString();
}

}  // namespace

Response ServiceRouter::wms(const ServedMap& map, const QByteArray& query, const QByteArray& selfUrl, bool mayProfile)
{
    const Stopwatch clock;
    WmsRequest request = WmsRequest::fromQueryString(query);
    const QString type = ServerMetrics::requestType(request.value(QStringLiteral("REQUEST")).value_or(QString()));
    // Only capabilities name the URL; GetMap, the hot path, skips the regex.
    if (type == QLatin1String("GetCapabilities")) request.selfUrl = selfUrlOf(selfUrl);

    std::optional<RequestGate::Ticket> ticket = m_gate.tryAdmit();
    if (!ticket) {
        m_metrics.overloaded();
        m_metrics.requestFinished(map.name, type, 503, clock.elapsedMs() / 1000);
        Response busy = overloaded();
        notify(map, type, busy, clock.elapsedMs());
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
            const WmsService& service = map.service;
            response = m_workers.run([&service, &request] {
                const RenderLoad::Scope counted(RenderLoad::Scope::Kind::Adopted);  // by handle()'s scope, on the connection thread
                return service.handle(request);
            });
        } catch (const std::exception& e) {
            qWarning("maptune server: map '%s': %s", qPrintable(map.name), e.what());
            response = plain(500, "Internal error while answering the request; see the server log.");
        } catch (...) {
            qWarning("maptune server: map '%s': a request failed with an unknown error", qPrintable(map.name));
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
    notify(map, type, response, clock.elapsedMs());
    if (mayProfile && wantsProfile(request)) {
        Response profile = profileResponse(response);
        for (const auto& header : response.headers)
            if (header.first == "Server-Timing") profile.headers.append(header);
        return profile;
    }
    return response;
}

void ServiceRouter::notify(const ServedMap& map, const QString& type,
                           const Response& response, double ms)
{
    RequestObserver* observer = m_observer.load();
    if (!observer) return;
    ServedRequest served;
    served.finishedMs = QDateTime::currentMSecsSinceEpoch();
    served.map = map.name;
    served.type = type;
    if (response.subject) {
        served.layers = response.subject->layers;
        served.crs = response.subject->crs;
        served.width = response.subject->width;
        served.height = response.subject->height;
    }
    served.status = response.status;
    served.ms = ms;
    served.bytes = response.body.size();
    served.trace = response.trace;
    observer->requestServed(served);
}

}  // namespace maptune
