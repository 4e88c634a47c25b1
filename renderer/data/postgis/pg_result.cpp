#include "data/postgis/pg_result.h"

#include "data/postgis/pg_conninfo.h"
#include "data/postgis/pg_row_cache.h"

#include <libpq-fe.h>


namespace maptune {

void PgResultDeleter::operator()(PGresult* r) const
{
    PQclear(r);
}

PgParams::PgParams(const QStringList& params)
{
    values.reserve(size_t(params.size()));
    for (const QString& p : params) values.push_back(p.toUtf8());
    for (const QByteArray& v : values) pointers.push_back(v.constData());
}

PgResult execText(PGconn* conn, const QString& sql, const QStringList& params)
{
    const PgParams p(params);
    return PgResult(PQexecParams(conn, sql.toUtf8().constData(), p.count(), nullptr, p.data(), nullptr, nullptr, 0));
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

bool pgTupleIdAt(const PGresult* row, int column, PgTupleId& out)
{
    return PgTupleId::fromBinary(PQgetvalue(row, 0, column), PQgetlength(row, 0, column), PQgetvalue(row, 0, column + 1),
                                 PQgetlength(row, 0, column + 1), out);
}

void pgRawValues(const PGresult* row, int count, std::vector<QByteArrayView>& out)
{
    out.resize(size_t(count));
    for (int i = 0; i < count; ++i)
        out[size_t(i)] = PQgetisnull(row, 0, i) ? QByteArrayView() : QByteArrayView(PQgetvalue(row, 0, i), PQgetlength(row, 0, i));
}

}  // namespace maptune
