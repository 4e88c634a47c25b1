#include "data/postgis/postgis_metadata.h"

#include "data/postgis/pg_result.h"
#include "trace/trace.h"

#include <libpq-fe.h>

namespace maptune {

namespace {

PgResult run(PGconn* conn, const QString& sql, const QStringList& params, const PgRoundTripRecorder& record, QString* err)
{
    Stopwatch clock;
    PgResult r = execText(conn, sql, params);
    const bool ok = PQresultStatus(r.get()) == PGRES_TUPLES_OK;
    *err = ok ? QString() : pgErrorMessage(conn, r.get());
    if (record) record(sql, clock.elapsedMs(), *err);
    return r;
}

// The FROM item with any !BOX! replaced by an empty box: metadata queries
// need the shape of the rows, not the rows.
QString metadataFrom(const PostgisDataDef& data, int srid)
{
    QString from = data.fromClause();
    from.replace(QLatin1String("!BOX!"), QStringLiteral("ST_MakeEnvelope(0,0,0,0,%1)").arg(srid));
    return from;
}

}  // namespace

Result<int> lookupPostgisSrid(PGconn* conn, const PostgisDataDef& data, const PgRoundTripRecorder& record)
{
    QString err;
    if (data.hasBoxToken())
        return Error(QStringLiteral("DATA uses !BOX! but has no 'using srid=<n>': add it so the box gets the right SRID"));
    if (!data.isSubselect()) {
        PgResult r = run(conn, QStringLiteral("SELECT Find_SRID(COALESCE(NULLIF($1,''),current_schema())::varchar,$2,$3)"),
                         {data.schema, data.table, data.geometryColumn}, record, &err);
        if (err.isEmpty() && PQntuples(r.get()) == 1) {
            const int srid = QByteArray(PQgetvalue(r.get(), 0, 0)).toInt();
            if (srid > 0) return srid;
        }
        if (PQstatus(conn) == CONNECTION_BAD) return Error(err);
    }
    const QString geom = data.quotedGeometry();
    PgResult r = run(conn, QStringLiteral("SELECT ST_SRID(%1) FROM %2 WHERE %1 IS NOT NULL LIMIT 1").arg(geom, metadataFrom(data, 0)),
                     {}, record, &err);
    if (!err.isEmpty()) return Error(err);
    return PQntuples(r.get()) == 1 ? QByteArray(PQgetvalue(r.get(), 0, 0)).toInt() : 0;
}

Result<PgTableVersion> lookupPostgisTable(PGconn* conn, const PostgisDataDef& data, const PgRoundTripRecorder& record)
{
    if (data.isSubselect()) return PgTableVersion{};
    QString err;
    // A table kept whole tests `&&` itself: only on a geometry column (a
    // geography's boxes are geocentric), and only where no row security
    // policy (which may depend on the session or the clock) decides.
    PgResult r = run(conn,
                     QStringLiteral("SELECT c.oid, pg_relation_filenode(c.oid), pg_table_size(c.oid), NOT c.relrowsecurity AND "
                                    "EXISTS (SELECT 1 FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid "
                                    "WHERE a.attrelid = c.oid AND a.attname = $2 AND t.typname = 'geometry') FROM pg_class c "
                                    "WHERE c.oid = to_regclass($1) AND c.relkind = 'r' AND NOT c.relhassubclass"),
                     {data.fromClause(), data.geometryColumn}, record, &err);
    if (!err.isEmpty()) return Error(err);
    if (PQntuples(r.get()) != 1 || PQgetisnull(r.get(), 0, 1)) return PgTableVersion{};
    PgTableVersion v;
    v.oid = QByteArray(PQgetvalue(r.get(), 0, 0)).toUInt();
    v.file = QByteArray(PQgetvalue(r.get(), 0, 1)).toUInt();
    v.tableBytes = QByteArray(PQgetvalue(r.get(), 0, 2)).toLongLong();
    v.keepableWhole = PQgetvalue(r.get(), 0, 3)[0] == 't';
    return v;
}

Result<QStringList> lookupPostgisColumns(PGconn* conn, const PostgisDataDef& data, int srid,
                                         const PgRoundTripRecorder& record)
{
    QString err;
    PgResult r = run(conn, QStringLiteral("SELECT * FROM %1 LIMIT 0").arg(metadataFrom(data, srid)), {}, record, &err);
    if (!err.isEmpty()) return Error(err);
    QStringList cols;
    for (int i = 0; i < PQnfields(r.get()); ++i) cols << QString::fromUtf8(PQfname(r.get(), i));
    return cols;
}

}  // namespace maptune
