#pragma once
// The FastCGI transport (libfcgi), so that the service runs behind nginx or
// Apache like mapserv: a listening socket (a unix socket path or ":PORT") and
// a few threads each looping on FCGX_Accept_r. The map is the last segment of
// PATH_INFO (or SCRIPT_NAME) when it names a served map, else the single
// served map; /health and /metrics answer as over HTTP.

#include "core/result.h"
#include "server/service_router.h"

#include <QString>

#include <atomic>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace maptune {

class FastCgiServer {
public:
    explicit FastCgiServer(ServiceRouter& router);
    ~FastCgiServer();
    FastCgiServer(const FastCgiServer&) = delete;
    FastCgiServer& operator=(const FastCgiServer&) = delete;

    // "/run/maptune.sock" (made connectable by every local user, like a port
    // on loopback) or ":9000" / "host:9000".
    Status open(const QString& socket);
    // Starts the accept threads (0: the router's admission limit + 2, so that
    // excess requests are answered 503 rather than left waiting in the backlog).
    void start(int threads = 0);
    // Stops accepting, finishes the requests in flight, joins. Idempotent.
    void stop();

private:
    void serve();

    ServiceRouter& m_router;
    int m_socket = -1;
    QString m_path;
    std::atomic_bool m_stopping{false};
    std::mutex m_acceptMutex;  // accept() serialised as in libfcgi's threaded example
    std::vector<std::thread> m_threads;
};

}  // namespace maptune
