#include "data/postgis/pg_result.h"

#include "data/postgis/pg_conninfo.h"

#include <libpq-fe.h>

#include <cerrno>
#include <vector>

#include <poll.h>

namespace maptune {

void PgResultDeleter::operator()(PGresult* r) const
{
    PQclear(r);
}

namespace {

constexpr Oid kFloat8Oid = 701;

void cancelOnServer(PGconn* conn)
{
    PGcancel* c = PQgetCancel(conn);
    if (!c) return;
    char message[256];
    PQcancel(c, message, sizeof message);
    PQfreeCancel(c);
}

// Waits for the statement sent with PQsendQueryParams, polling the token
// between socket reads; returns the last result (the error one after a cancel).
PgResult awaitResult(PGconn* conn, const CancelToken& cancel)
{
    bool cancelSent = false;
    while (PQisBusy(conn)) {
        if (!cancelSent && cancel.isCancelled()) {
            cancelSent = true;
            cancelOnServer(conn);
        }
        pollfd fd{PQsocket(conn), POLLIN, 0};
        if (::poll(&fd, 1, 50) < 0 && errno != EINTR) break;
        if (!PQconsumeInput(conn)) break;
    }
    PGresult* last = nullptr;
    while (PGresult* r = PQgetResult(conn)) {
        PQclear(last);
        last = r;
    }
    return PgResult(last);
}

// `float8Params`: how many leading parameters are float8 (-1: all); the
// server types the others by the column they are compared with.
PgResult exec(PGconn* conn, const QString& sql, const QStringList& params, bool typedBinary,
              const CancelToken* cancel = nullptr, int float8Params = -1)
{
    const QByteArray text = sql.toUtf8();
    std::vector<QByteArray> values;
    std::vector<const char*> ptrs;
    values.reserve(size_t(params.size()));
    for (const QString& p : params) values.push_back(p.toUtf8());
    for (const QByteArray& v : values) ptrs.push_back(v.constData());
    std::vector<Oid> types(values.size(), kFloat8Oid);
    if (float8Params >= 0)
        for (size_t i = size_t(float8Params); i < types.size(); ++i) types[i] = 0;
    if (cancel) {
        if (!PQsendQueryParams(conn, text.constData(), int(values.size()), typedBinary ? types.data() : nullptr,
                               ptrs.data(), nullptr, nullptr, typedBinary ? 1 : 0))
            return PgResult(nullptr);
        return awaitResult(conn, *cancel);
    }
    return PgResult(PQexecParams(conn, text.constData(), int(values.size()), typedBinary ? types.data() : nullptr,
                                 ptrs.data(), nullptr, nullptr, typedBinary ? 1 : 0));
}

}  // namespace

PgResult execBinary(PGconn* conn, const PostgisStatement& st, const CancelToken& cancel)
{
    return exec(conn, st.sql, st.params, true, &cancel, st.float8Params);
}

PgResult execText(PGconn* conn, const QString& sql, const QStringList& params)
{
    return exec(conn, sql, params, false);
}

QString pgErrorMessage(PGconn* conn, const PGresult* result)
{
    QString msg;
    if (result) {
        msg = QString::fromUtf8(PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY));
        const QString hint = QString::fromUtf8(PQresultErrorField(result, PG_DIAG_MESSAGE_HINT));
        if (!hint.isEmpty()) msg += QStringLiteral(" (hint: %1)").arg(hint);
    }
    if (msg.isEmpty()) msg = QString::fromUtf8(PQerrorMessage(conn)).trimmed();
    if (msg.isEmpty()) msg = QStringLiteral("unknown error");
    if (PQstatus(conn) == CONNECTION_BAD) msg = QStringLiteral("connection to the server lost: %1").arg(msg);
    return QStringLiteral("PostgreSQL: %1").arg(redactPgConnInfo(msg));
}

}  // namespace maptune
