#pragma once
// libpq results owned RAII-style, and the two ways MapTune runs SQL.

#include "data/postgis/postgis_statement.h"
#include "trace/cancel_token.h"

#include <memory>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

namespace maptune {

struct PgResultDeleter {
    void operator()(PGresult* r) const;
};
using PgResult = std::unique_ptr<PGresult, PgResultDeleter>;

// Parameters typed float8, results in binary format (WKB without hex).
// A cancelled token cancels the statement on the server (PQcancel): a request
// past its time limit does not keep a backend and a worker busy.
PgResult execBinary(PGconn* conn, const PostgisStatement& st, const CancelToken& cancel = {});
// Untyped text parameters, text results (metadata, EXPLAIN).
PgResult execText(PGconn* conn, const QString& sql, const QStringList& params = {});
// The database's message ("relation \"x\" does not exist"), with its hint.
QString pgErrorMessage(PGconn* conn, const PGresult* result);

}  // namespace maptune
