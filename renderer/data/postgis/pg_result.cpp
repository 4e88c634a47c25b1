#include "data/postgis/pg_result.h"

#include "data/postgis/pg_conninfo.h"

#include <libpq-fe.h>

#include <vector>

namespace maptune {

void PgResultDeleter::operator()(PGresult* r) const
{
    PQclear(r);
}

namespace {

constexpr Oid kFloat8Oid = 701;

PgResult exec(PGconn* conn, const QString& sql, const QStringList& params, bool typedBinary)
{
    const QByteArray text = sql.toUtf8();
    std::vector<QByteArray> values;
    std::vector<const char*> ptrs;
    values.reserve(size_t(params.size()));
    for (const QString& p : params) values.push_back(p.toUtf8());
    for (const QByteArray& v : values) ptrs.push_back(v.constData());
    const std::vector<Oid> types(values.size(), kFloat8Oid);
    return PgResult(PQexecParams(conn, text.constData(), int(values.size()), typedBinary ? types.data() : nullptr,
                                 ptrs.data(), nullptr, nullptr, typedBinary ? 1 : 0));
}

}  // namespace

PgResult execBinary(PGconn* conn, const PostgisStatement& st)
{
    return exec(conn, st.sql, st.params, true);
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
