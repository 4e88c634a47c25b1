#pragma once
// The maptune-cli subcommands (DESIGN.md "Command line"). Each returns the
// process exit status: 0 success, 1 user error (message on stderr), 2 usage.

#include <QString>
#include <QStringList>

#include <optional>

namespace maptune::cli {

struct RenderOptions {
    QString mapfile;
    QString output = QStringLiteral("-");
    QString layers;
    QString bbox;
    QString size;
    QString format;
    bool timings = false;
};
int runRender(const RenderOptions& o);

struct RequestOptions {
    QString mapfile;
    QString query;
    QString output = QStringLiteral("-");
    bool headers = false;
};
int runRequest(const RequestOptions& o);

int runCheck(const QString& mapfile);

struct ExplainOptions {
    QString mapfile;
    QString layer;
    QString bbox;  // map CRS; empty: the map EXTENT
};
int runExplain(const ExplainOptions& o);  // PostGIS layers: SQL + EXPLAIN (ANALYZE, BUFFERS)
int runFormat(const QString& mapfile);

struct ServeOptions {
    QStringList mapfiles;
    QString host = QStringLiteral("127.0.0.1");
    int port = 8080;          // 0: any free port (printed)
    int threads = 0;          // rendering workers; 0: one per core
    QString fastcgi;          // a unix socket path or ":PORT": FastCGI instead of HTTP
};
int runServe(const ServeOptions& o);  // until SIGINT/SIGTERM

// Helpers shared by the commands.
void printError(const QString& message);
bool writeOutput(const QString& path, const QByteArray& bytes);  // "-" = stdout

}  // namespace maptune::cli
