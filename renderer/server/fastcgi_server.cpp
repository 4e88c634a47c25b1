#include "server/fastcgi_server.h"

#include <fcgiapp.h>

#include <QFile>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace maptune {

namespace {

const char* reason(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Payload Too Large";
    case 414: return "URI Too Long";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Unknown";
    }
}

QByteArray param(const FCGX_Request& request, const char* name)
{
    const char* v = FCGX_GetParam(name, request.envp);
    return v ? QByteArray(v) : QByteArray();
}

void writeResponse(FCGX_Request& request, const Response& response, bool head)
{
    QByteArray out = "Status: " + QByteArray::number(response.status) + ' ' + reason(response.status) + "\r\n";
    out += "Content-Type: " + response.contentType() + "\r\n";
    for (const auto& [key, value] : response.headers)
        if (key.compare("Content-Type", Qt::CaseInsensitive) != 0) out += key + ": " + value + "\r\n";
    out += "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n\r\n";
    FCGX_PutStr(out.constData(), int(out.size()), request.out);
    if (!head) FCGX_PutStr(response.body.constData(), int(response.body.size()), request.out);
}

Response answer(ServiceRouter& router, const FCGX_Request& request)
{
    const ServerOptions& o = router.options();
    if (size_t(param(request, "REQUEST_URI").size()) > o.maxUriLength)
        return ServiceRouter::plain(414, "Request-URI too long; the limit is " + QByteArray::number(qulonglong(o.maxUriLength)) + " bytes.");
    if (param(request, "CONTENT_LENGTH").toULongLong() > o.maxBodyBytes)
        return ServiceRouter::plain(413, "Request body too large.");
    QByteArray path = param(request, "PATH_INFO");
    if (path.isEmpty()) path = param(request, "SCRIPT_NAME");
    const QByteArray https = param(request, "HTTPS").toLower();
    const QByteArray self = (https == "on" || https == "1" ? "https://" : "http://") + param(request, "HTTP_HOST")
                            + param(request, "SCRIPT_NAME") + param(request, "PATH_INFO");
    return router.handle(param(request, "REQUEST_METHOD"), path, param(request, "QUERY_STRING"),
                         ServiceRouter::PathMode::LastSegment, self, param(request, "REMOTE_ADDR"));
}

}  // namespace

FastCgiServer::FastCgiServer(ServiceRouter& router) : m_router(router)
{
    FCGX_Init();
}

FastCgiServer::~FastCgiServer()
{
    stop();
}

Status FastCgiServer::open(const QString& socket)
{
    const QByteArray spec = QFile::encodeName(socket);
    m_socket = FCGX_OpenSocket(spec.constData(), 128);
    if (m_socket < 0)
        return Error(QStringLiteral("cannot open the FastCGI socket '%1' (is the directory writable, the port free?)").arg(socket));
    if (!socket.startsWith(QLatin1Char(':')) && !socket.contains(QLatin1Char(':'))) {
        m_path = socket;
        ::chmod(spec.constData(), 0666);  // the web server usually runs as another user
    } else {
        // TCP: accepted connections inherit TCP_NODELAY, so a response's last
        // records do not wait for the web server's delayed ACK (see HttpServer).
        const int on = 1;
        ::setsockopt(m_socket, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    }
    return {};
}

void FastCgiServer::start(int threads)
{
    if (threads <= 0) threads = m_router.options().maxAdmitted() + 2;
    for (int i = 0; i < threads; ++i) m_threads.emplace_back([this] { serve(); });
}

void FastCgiServer::serve()
{
    FCGX_Request request;
    FCGX_InitRequest(&request, m_socket, 0);
    for (;;) {
        int accepted = -1;
        {
            std::lock_guard lock(m_acceptMutex);
            if (m_stopping) break;
            accepted = FCGX_Accept_r(&request);
        }
        if (accepted < 0) break;
        const QByteArray method = param(request, "REQUEST_METHOD");
        writeResponse(request, answer(m_router, request), method == "HEAD");
        FCGX_Finish_r(&request);
    }
    FCGX_Free(&request, 1);
}

void FastCgiServer::stop()
{
    if (m_stopping.exchange(true)) return;
    FCGX_ShutdownPending();
    // Wakes the thread blocked in accept(); the others see m_stopping.
    if (m_socket >= 0) ::shutdown(m_socket, SHUT_RDWR);
    for (std::thread& t : m_threads) t.join();
    m_threads.clear();
    if (m_socket >= 0) ::close(m_socket);
    if (!m_path.isEmpty()) ::unlink(QFile::encodeName(m_path).constData());
}

}  // namespace maptune
