#pragma once
// Shared by the PostGIS tests that need a cluster (scripts/pg-test-cluster,
// started by a CTest fixture; PGHOST/PGPORT name it): the connection string
// with a password that must never leak, a PostGIS layer, one query through
// the feature source factory with its DbTraces, and the test tables.

#include "render/feature_source_factory.h"
#include "render/engine.h"

#include <libpq-fe.h>

#include <QtTest>

#include <algorithm>

namespace maptune::pgtest {

inline const char* const kPassword = "s3cretPw";

inline QString pgHost() { return qEnvironmentVariable("PGHOST", QStringLiteral("127.0.0.1")); }
inline QString pgPort() { return qEnvironmentVariable("PGPORT", QString::number(MAPTUNE_PG_TEST_PORT)); }

// Trust authentication ignores the password: it is there to prove it never leaks.
inline QString conninfo(const QString& appName = QStringLiteral("test"))
{
    return QStringLiteral("host=%1 port=%2 dbname=maptune_test user=maptune password=%3 application_name=%4")
        .arg(pgHost(), pgPort(), QLatin1String(kPassword), appName);
}

inline LayerDef pgLayer(const QString& data, const QStringList& processing = {}, const QString& app = QStringLiteral("test"))
{
    LayerDef l;
    l.name = QStringLiteral("pg");
    l.type = LayerType::Line;
    l.status = LayerStatus::Default;
    l.connectionType = ConnectionType::PostGIS;
    l.connection = conninfo(app);
    l.data = data;
    l.processing = processing;
    return l;
}

struct QueryResult {
    bool ok = false;
    QString error;
    QStringList fields;
    QList<Feature> features;
    QList<DbTrace> traces;
};

// One context for the test program, as the workbench or `serve` has one.
inline const EngineContextPtr& testEnginePtr()
{
    static const EngineContextPtr context = std::make_shared<const EngineContext>();
    return context;
}
inline const EngineContext& testEngine() { return *testEnginePtr(); }

// `sourceIds` false: a drawn map's query (FeatureQuery::sourceIds), which a row cache may serve.
inline QueryResult runQuery(const LayerDef& layer, const Rect& bbox, const QStringList& attributes = {},
                            const EngineContext& context = testEngine(), bool sourceIds = true)
{
    QueryResult out;
    MapDef map;
    auto opened = openFeatureSource(map, layer, context);
    if (!opened) {
        out.error = opened.error().message;
        return out;
    }
    const std::unique_ptr<FeatureSource> src = std::move(opened).value();
    FeatureQuery q;
    q.bbox = bbox;
    q.attributes = attributes;
    q.sourceIds = sourceIds;
    auto queried = src->query(q);
    if (!queried) {
        out.error = queried.message();
    } else {
        const std::unique_ptr<FeatureCursor> cursor = std::move(queried).value();
        out.fields = cursor->fields();
        Feature f;
        while (cursor->next(f)) out.features << f;
        if (!cursor->error().isEmpty()) out.error = cursor->error();
        out.ok = out.error.isEmpty();
    }
    out.traces = src->takeDbTraces();
    return out;
}

// Features as comparable text ("values|...:x y x y ..."), in the cursor's order.
inline QStringList describedInOrder(const QueryResult& r)
{
    QStringList out;
    for (const Feature& f : r.features) {
        QString s = f.values.join(QLatin1Char('|')) + QLatin1Char(':');
        for (double v : f.geometry.xy) s += QString::number(v, 'g', 17) + QLatin1Char(' ');
        out << s;
    }
    return out;
}

// The same, sorted: without ORDER BY (MapServer sends none) two statements
// may return the same rows in another order.
inline QStringList described(const QueryResult& r)
{
    QStringList out = describedInOrder(r);
    out.sort();
    return out;
}

// A drawn map's query of `name`: ids need only be distinct (FeatureQuery::sourceIds).
inline QueryResult drawLayer(const LayerDef& l, const Rect& box, const EngineContext& e)
{
    return runQuery(l, box, {QStringLiteral("name")}, e, false);
}

inline const DbTrace* traceStarting(const QueryResult& r, const char* prefix)
{
    for (const DbTrace& t : r.traces)
        if (t.sql.startsWith(QLatin1String(prefix))) return &t;
    return nullptr;
}

inline QList<qint64> ids(const QueryResult& r)
{
    QList<qint64> out;
    for (const Feature& f : r.features) out << f.id;
    std::sort(out.begin(), out.end());
    return out;
}

inline bool exec(PGconn* c, const char* sql)
{
    PGresult* r = PQexec(c, sql);
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok) qWarning("%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
    return ok;
}

// roads: 5 small features near the origin (gid 1..5) and 5000 far away so
// that the planner prefers the GiST index for small boxes.
inline const char* const kSetup = R"SQL(
DROP TABLE IF EXISTS roads, noidx, merc;
CREATE TABLE roads (gid integer PRIMARY KEY, name text, kind text, lanes integer, geom geometry(LineString,4326));
INSERT INTO roads VALUES
  (1, 'Alpha', 'main', 2, 'SRID=4326;LINESTRING(0 0, 1 1)'),
  (2, 'Beta', 'minor', 1, 'SRID=4326;LINESTRING(10 10, 11 11)'),
  (3, 'Gamma', 'main', 4, 'SRID=4326;LINESTRING(20 20, 21 21)'),
  (4, 'O''Brien "St"', 'minor', 1, 'SRID=4326;LINESTRING(30 30, 31 32)'),
  (5, NULL, 'path', NULL, 'SRID=4326;LINESTRING(0.5 0, 0.5 1)');
INSERT INTO roads SELECT 100 + i, 'far' || i, 'far', 1,
  ST_MakeLine(ST_MakePoint(100 + (i % 70), 50 + i / 70), ST_MakePoint(100.5 + (i % 70), 50.5 + i / 70))::geometry(LineString,4326)
  FROM generate_series(1, 5000) AS i;
CREATE INDEX roads_geom_idx ON roads USING GIST (geom);
CREATE TABLE noidx (id integer, geom geometry(Point,4326));
INSERT INTO noidx SELECT i, ST_SetSRID(ST_MakePoint(i % 100, i / 100), 4326) FROM generate_series(1, 3000) AS i;
CREATE TABLE merc (id integer, geom geometry(Point,3857));
INSERT INTO merc VALUES (1, 'SRID=3857;POINT(1000 1000)');
ANALYZE roads; ANALYZE noidx; ANALYZE merc;
)SQL";

// The body of an initTestCase: its QFAIL and QVERIFYs fail the calling one.
// `app` names the admin connection; `setupSql` creates a test's own tables.
inline void connectAndCreateTables(PGconn*& admin, const QString& app = QStringLiteral("setup"), const char* setupSql = kSetup)
{
    initEngine();
    const QByteArray info = conninfo(app).toUtf8();
    admin = PQconnectdb(info.constData());
    if (PQstatus(admin) != CONNECTION_OK)
        QFAIL(qPrintable(QStringLiteral("cannot reach the PostgreSQL test cluster at %1:%2 (%3). Start it with "
                                        "scripts/pg-test-cluster start DIR %2, or run the tests through ctest.")
                             .arg(pgHost(), pgPort(), QString::fromUtf8(PQerrorMessage(admin)).trimmed())));
    QVERIFY(exec(admin, "SET client_min_messages = warning"));
    QVERIFY(exec(admin, setupSql));
}

}  // namespace maptune::pgtest
