#include "data/postgis/postgis_whole_table_read.h"

#include "data/postgis/pg_result.h"
#include "data/postgis/pg_row_decoder.h"
#include "data/postgis/pg_row_stream.h"
#include "trace/trace.h"

#include <libpq-fe.h>

namespace maptune {

namespace {

// A table that does not fit (or cannot be tested as `&&` tests it) is not read again for this long.
constexpr std::chrono::seconds kNotKeptFor{600};

}  // namespace

Result<QByteArray> pgCurrentSnapshot(PGconn* conn)
{
    const PgResult r = execText(conn, QString::fromLatin1(PostgisStatement::kCurrentSnapshot));
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) return Error(pgErrorMessage(conn, r.get()));
    if (PQntuples(r.get()) != 1) return Error(QStringLiteral("the server is a standby: no table is kept whole"));
    return QByteArray(PQgetvalue(r.get(), 0, 0));
}

PostgisWholeTableResult readPostgisWholeTable(const PostgisWholeTableRead& read, PgRowCacheScope& scope)
{
    PostgisWholeTableResult out;
    auto notKept = [&](const QString& error, std::chrono::seconds retry = PgRowCacheScope::kRefillInterval) {
        scope.endWholeRead(retry);
        out.error = error;
        return out;
    };
    auto snapshot = [&](PgLease& lease) {
        Result<QByteArray> s = pgCurrentSnapshot(lease.conn());
        if (!s && PQstatus(lease.conn()) == CONNECTION_BAD) lease.discard();
        return s;
    };

    Result<PgLease> first = read.lease();
    if (!first) return notKept(first.message());
    const Result<QByteArray> before = snapshot(*first);
    // A server that cannot say (before PostgreSQL 13, a standby) is not asked again soon.
    if (!before) return notKept(before.message(), PQstatus(first->conn()) == CONNECTION_OK ? kNotKeptFor : PgRowCacheScope::kRefillInterval);
    PgWholeTableRows rows;
    {
        PgRowStream stream(std::move(*first), read.cancel);  // gives the connection back when done
        if (!stream.start(read.statement)) return notKept(stream.error());
        PgRowDecoder decoder(read.fields);
        while (const PGresult* r = stream.nextRow()) {
            ++out.rows;
            const Status decoded = decoder.read(r);
            if (!decoded) return notKept(QStringLiteral("row %1: %2").arg(out.rows - 1).arg(decoded.message()), kNotKeptFor);
            out.bytes += decoder.bytes();
            if (!rows.add(decoder.id(), decoder.geometry(), decoder.values(), decoder.fields())) return notKept({}, kNotKeptFor);
            if (rows.bytes() > read.maxBytes) {
                out.tooLarge = true;
                return notKept({}, kNotKeptFor);
            }
        }
        if (!stream.error().isEmpty()) return notKept(stream.error());
        if (read.cancel.isCancelled()) return notKept({});
    }
    if (rows.size() == 0) {
        out.noRows = true;
        return notKept({});
    }
    Result<PgLease> second = read.lease();
    if (!second) return notKept(second.message());
    Stopwatch clock;
    const Result<QByteArray> after = snapshot(*second);
    out.lastSnapshotMs = clock.elapsedMs();
    if (!after) return notKept(after.message());
    if (*after != *before) {  // something committed meanwhile: the rows may mix two moments
        scope.endWholeReadOutdated();
        return out;
    }
    out.table = scope.publishWhole(read.file, *before, std::move(rows));
    if (!out.table) {
        out.tooLarge = true;
        scope.endWholeRead(kNotKeptFor);
    }
    return out;
}

}  // namespace maptune
