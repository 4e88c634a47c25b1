#pragma once
// Shared by the hardening tests: a server on a free loopback port, raw HTTP
// exchanges (targets sent byte for byte), files written into temporary dirs,
// and the private PostgreSQL clusters these tests start.

#include "server/http_server.h"
#include "server/map_registry.h"
#include "server/service_router.h"
#include "../raw_http.h"

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

using test::HttpReply;
using test::rawGet;

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
