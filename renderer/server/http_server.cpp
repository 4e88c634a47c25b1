#include "server/http_server.h"

#include <httplib.h>

#include <cerrno>
#include <cstring>

namespace maptune {

namespace {

void copyOut(const Response& from, httplib::Response& to)
{
    to.status = from.status;
    for (const auto& [key, value] : from.headers)
        if (key.compare("Content-Type", Qt::CaseInsensitive) != 0) to.set_header(key.toStdString(), value.toStdString());
    to.set_content(from.body.constData(), size_t(from.body.size()), from.contentType().toStdString());
}

}  // namespace

HttpServer::HttpServer(ServiceRouter& router) : m_router(router), m_server(std::make_unique<httplib::Server>())
{
    const ServerOptions& o = m_router.options();
    const int threads = connectionThreads();
    m_server->new_task_queue = [threads] { return new httplib::ThreadPool(size_t(threads)); };
    m_server->set_keep_alive_timeout(o.keepAliveTimeoutS);
    m_server->set_keep_alive_max_count(size_t(std::max(1, o.keepAliveMaxCount)));
    // Headers and body go out in separate writes: without TCP_NODELAY the body
    // waits for the ACK of the headers, which a proxy such as nginx delays by
    // 40 ms -- every request through it took ~45 ms instead of ~1 ms.
    m_server->set_tcp_nodelay(true);
    m_server->set_payload_max_length(o.maxBodyBytes);
    m_server->set_read_timeout(10, 0);
    m_server->set_write_timeout(10, 0);
    installRoutes();
}

HttpServer::~HttpServer()
{
    stop();
}

int HttpServer::connectionThreads() const
{
    return m_router.options().maxAdmitted() + m_router.options().effectiveWorkers() + 4;
}

void HttpServer::installRoutes()
{
    const size_t maxUri = m_router.options().maxUriLength;
    m_server->set_pre_routing_handler([maxUri](const httplib::Request& req, httplib::Response& res) {
        if (req.target.size() <= maxUri) return httplib::Server::HandlerResponse::Unhandled;
        copyOut(ServiceRouter::plain(414, "Request-URI too long; the limit is " + QByteArray::number(qulonglong(maxUri))
                                              + " bytes."),
                res);
        return httplib::Server::HandlerResponse::Handled;
    });
    auto route = [this](const httplib::Request& req, httplib::Response& res) {
        // The raw query: WmsRequest decodes it itself (repeated keys, '+').
        const size_t q = req.target.find('?');
        const QByteArray query = q == std::string::npos ? QByteArray() : QByteArray::fromStdString(req.target.substr(q + 1));
        const QByteArray path = QByteArray::fromStdString(req.path);
        const QByteArray self = "http://" + QByteArray::fromStdString(req.get_header_value("Host")) + path;
        // A request a proxy forwarded is not the loopback client it looks like
        // (nginx on the same host): the peer counts only when nothing forwarded it.
        const bool forwarded = req.has_header("Forwarded") || req.has_header("X-Forwarded-For") || req.has_header("X-Real-IP");
        copyOut(m_router.handle(QByteArray::fromStdString(req.method), path, query, ServiceRouter::PathMode::Strict, self,
                                forwarded ? QByteArray() : QByteArray::fromStdString(req.remote_addr)),
                res);
    };
    m_server->Get(".*", route);
    m_server->Post(".*", route);
    m_server->set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        copyOut(ServiceRouter::plain(500, "Internal error while answering the request; see the server log."), res);
    });
}

Status HttpServer::bind()
{
    const ServerOptions& o = m_router.options();
    const std::string host = o.host.toStdString();
    if (o.port == 0) {
        m_port = m_server->bind_to_any_port(host);
        if (m_port < 0)
            return Error(QStringLiteral("cannot listen on %1: %2").arg(o.host, QString::fromLocal8Bit(strerror(errno))));
    } else {
        if (!m_server->bind_to_port(host, o.port))
            return Error(QStringLiteral("cannot listen on %1:%2: %3 (is another server using the port? try --port)")
                             .arg(o.host)
                             .arg(o.port)
                             .arg(QString::fromLocal8Bit(strerror(errno))));
        m_port = o.port;
    }
    return {};
}

void HttpServer::run()
{
    m_server->listen_after_bind();
}

Status HttpServer::start()
{
    if (m_port < 0)
        if (Status bound = bind(); !bound) return bound;
    m_thread = std::thread([this] { run(); });
    // stop() is a no-op until the accept loop runs: wait for it.
    for (int i = 0; i < 5000 && !m_server->is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return {};
}

void HttpServer::stop()
{
    m_server->stop();
    if (m_thread.joinable()) m_thread.join();
}

}  // namespace maptune
