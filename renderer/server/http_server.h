#pragma once
// The HTTP transport, on cpp-httplib: GET /<map>?SERVICE=WMS&..., /health,
// /metrics (routing and limits in ServiceRouter). Keep-alive; a pool of
// connection threads large enough that requests beyond the router's admission
// limit are answered 503 at once; request-target and body size limits;
// graceful stop (no new connections, requests in flight finish).

#include "core/result.h"
#include "server/service_router.h"

#include <QString>

#include <memory>
#include <optional>
#include <thread>

namespace httplib {
class Server;
}

namespace maptune {

class HttpServer {
public:
    explicit HttpServer(ServiceRouter& router);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds and listens on the router's host:port (port 0: a free port).
    Status bind();
    int port() const { return m_port; }
    // Accepts connections until stop(); blocking. Call after bind().
    void run();
    // bind() (unless done) and run() on a background thread; returns once accepting.
    Status start();
    // Stops accepting, lets requests in flight finish, joins the threads.
    // Thread-safe; may be called from any thread.
    void stop();

    // Connection threads: the admission limit plus headroom for idle
    // keep-alive connections and for answering 503 to the excess.
    int connectionThreads() const;

private:
    void installRoutes();

    ServiceRouter& m_router;
    std::unique_ptr<httplib::Server> m_server;
    std::thread m_thread;
    int m_port = -1;
};

}  // namespace maptune
