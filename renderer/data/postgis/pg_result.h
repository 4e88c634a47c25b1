#pragma once
// libpq results owned RAII-style, and the plain way MapTune runs SQL (the
// draw's SELECT streams its rows: pg_row_stream.h).

#include <QStringList>

#include <memory>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

namespace maptune {

struct PgResultDeleter {
    void operator()(PGresult* r) const;
};
using PgResult = std::unique_ptr<PGresult, PgResultDeleter>;

// Untyped text parameters, text results (metadata, EXPLAIN).
PgResult execText(PGconn* conn, const QString& sql, const QStringList& params = {});
// The database's message ("relation \"x\" does not exist"), with its hint.
QString pgErrorMessage(PGconn* conn, const PGresult* result);

}  // namespace maptune
