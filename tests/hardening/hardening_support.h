#pragma once
// Shared by the hardening tests: a server on a free loopback port, raw HTTP
// exchanges (targets sent byte for byte), files written into temporary dirs,
// and the private PostgreSQL clusters these tests start.

#include "server/http_server.h"
#include "server/map_registry.h"
#include "server/service_router.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>

namespace maptune::hardening {

inline bool writeFile(const QString& path, const QByteArray& bytes)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

inline QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A server with its own registry, router and HTTP transport on a free port.
struct Server {
    MapRegistry registry;
    std::unique_ptr<ServiceRouter> router;
    std::unique_ptr<HttpServer> http;
    QStringList errors;  // of addMapFile

    explicit Server(const QStringList& maps, ServerOptions options = {})
    {
        for (const QString& m : maps)
            if (const Status added = registry.addMapFile(m); !added) errors << added.message();
        options.port = 0;
        router = std::make_unique<ServiceRouter>(registry, options);
        http = std::make_unique<HttpServer>(*router);
        if (const Status started = http->start(); !started) errors << started.message();
    }
};

struct HttpReply {
    int status = 0;
    QByteArray head;
    QByteArray body;
    QByteArray header(const QByteArray& name) const
    {
        for (const QByteArray& line : head.split('\n'))
            if (line.toLower().startsWith(name.toLower() + ':')) return line.mid(name.size() + 1).trimmed();
        return {};
    }
};

// One HTTP/1.0 exchange; the target goes out exactly as given (no encoding).
inline HttpReply rawGet(int port, const QByteArray& target, const QByteArray& extraHeaders = {},
                        const QByteArray& host = "127.0.0.1")
{
    HttpReply reply;
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(quint16(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval timeout{30, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return reply;
    }
    const QByteArray request = "GET " + target + " HTTP/1.0\r\nHost: " + host + "\r\n" + extraHeaders + "\r\n";
    if (::write(fd, request.constData(), size_t(request.size())) == request.size()) {
        QByteArray all;
        char chunk[8192];
        ssize_t n;
        while ((n = ::read(fd, chunk, sizeof chunk)) > 0) all.append(chunk, n);
        const qsizetype split = all.indexOf("\r\n\r\n");
        reply.head = all.left(split);
        reply.body = split < 0 ? QByteArray() : all.mid(split + 4);
        const QList<QByteArray> status = reply.head.split(' ');
        if (status.size() > 1) reply.status = status[1].toInt();
    }
    ::close(fd);
    return reply;
}

// scripts/pg-test-cluster start|stop DIR PORT; its exit code.
inline int clusterScript(const QString& command, const QString& dir, int port)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedChannels);
    p.start(QStringLiteral(MAPTUNE_SOURCE_DIR "/scripts/pg-test-cluster"), {command, dir, QString::number(port)});
    if (!p.waitForFinished(180000)) return -1;
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

inline QString pgConnInfo(int port, const QString& app = QStringLiteral("hardening"))
{
    return QStringLiteral("host=127.0.0.1 port=%1 dbname=maptune_test user=maptune application_name=%2").arg(port).arg(app);
}

}  // namespace maptune::hardening
