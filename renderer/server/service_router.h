#pragma once
// Everything the HTTP and FastCGI transports share, as a function from
// (method, path, query) to a Response: /health, /metrics, and
// /<map>?SERVICE=WMS&... answered by the map's WmsService under admission
// control (RequestGate), a time limit (DeadlineWatchdog), with Server-Timing
// on every WMS response and the render trace recorded into /metrics. The
// transports only convert bytes (STYLE rule 2).

#include "server/deadline_watchdog.h"
#include "server/map_registry.h"
#include "server/request_gate.h"
#include "server/worker_threads.h"
#include "server/request_observer.h"
#include "server/server_metrics.h"
#include "server/server_options.h"
#include "wms/response.h"

#include <QByteArray>

#include <atomic>

namespace maptune {

struct WmsRequest;

class ServiceRouter {
public:
    // How a path names a map. Strict (HTTP): "/<map>" or "/" with one map.
    // LastSegment (FastCGI): the last segment of SCRIPT_NAME/PATH_INFO when it
    // names a served map, else the single served map -- as mapserv behind
    // /cgi-bin/mapserv answers for its one MAP.
    enum class PathMode { Strict, LastSegment };

    ServiceRouter(MapRegistry& registry, const ServerOptions& options);

    // selfUrl: the URL the client used, without the query ("http://host:8080/world"),
    // for capabilities of maps that set no wms_/ows_onlineresource -- as mapserv
    // derives it from HTTP_HOST and SCRIPT_NAME. Empty: the mapfile's or MapServer's default.
    // peer: the client's address; a loopback client may ask for &MAPTUNE_PROFILE=json
    // (any client when ServerOptions::allowProfile). Transports pass "" for a
    // request a proxy forwarded (its peer is the proxy, not the client).
    Response handle(const QByteArray& method, const QByteArray& path, const QByteArray& query,
                    PathMode mode = PathMode::Strict, const QByteArray& selfUrl = {}, const QByteArray& peer = {});

    // Answers for requests refused before routing (too long, too large).
    static Response plain(int status, const QByteArray& text);
    static Response overloaded();

    MapRegistry& registry() { return m_registry; }
    ServerMetrics& metrics() { return m_metrics; }
    RequestGate& gate() { return m_gate; }
    const ServerOptions& options() const { return m_options; }
    // Told about every WMS request answered (null: nobody). The observer must
    // outlive the requests in flight: clear it and stop the transport first.
    void setObserver(RequestObserver* observer) { m_observer.store(observer); }
    // Draining (before a planned stop): /health answers 503 "draining" so
    // that load balancers send new work elsewhere; requests are still served.
    void setDraining(bool draining) { m_draining.store(draining); }
    bool draining() const { return m_draining.load(); }

private:
    std::atomic<bool> m_draining{false};
    ServedMapPtr resolve(const QByteArray& path, PathMode mode) const;
    Response unknownMap() const;
    Response wms(const ServedMap& map, const QByteArray& query, const QByteArray& selfUrl, bool mayProfile);
    void notify(const ServedMap& map, const QString& type,
                const Response& response, double ms);

    MapRegistry& m_registry;
    ServerOptions m_options;
    ServerMetrics m_metrics;
    RequestGate m_gate;
    WorkerThreads m_workers;  // after the gate: as many threads as render slots
    DeadlineWatchdog m_watchdog;
    std::atomic<RequestObserver*> m_observer{nullptr};
};

}  // namespace maptune
