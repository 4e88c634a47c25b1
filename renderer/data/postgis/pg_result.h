#pragma once
// libpq results owned RAII-style, and the plain way MapTune runs SQL (the
// draw's SELECT streams its rows: pg_row_stream.h).

#include <QStringList>

#include <QByteArray>
#include <QByteArrayView>

#include <memory>
#include <vector>

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;

namespace maptune {

struct PgTupleId;

struct PgResultDeleter {
    void operator()(PGresult* r) const;
};
using PgResult = std::unique_ptr<PGresult, PgResultDeleter>;

// Query parameters as libpq takes them: UTF-8 values and pointers to them.
struct PgParams {
    explicit PgParams(const QStringList& params);
    int count() const { return int(values.size()); }
    const char* const* data() const { return pointers.data(); }

    std::vector<QByteArray> values;
    std::vector<const char*> pointers;
};

// Untyped text parameters, text results (metadata, EXPLAIN).
PgResult execText(PGconn* conn, const QString& sql, const QStringList& params = {});
// The database's message ("relation \"x\" does not exist"), with its hint.
QString pgErrorMessage(PGconn* conn, const PGresult* result);

// Of a binary single-row result: ctid and xmin in `column` and the next
// (false when they are not a tid and an xid), and the first `count` columns'
// bytes, a NULL as a view with null data.
bool pgTupleIdAt(const PGresult* row, int column, PgTupleId& out);
void pgRawValues(const PGresult* row, int count, std::vector<QByteArrayView>& out);

}  // namespace maptune
