// PostGIS layers against the real test cluster (scripts/pg-test-cluster,
// started by the CTest fixture): DATA parsing, SQL shape, injection attempts,
// bbox/attribute/filter queries, binary WKB, the connection pool (reuse,
// bound, CLOSE_CONNECTION=ALWAYS, no leaks on errors, server restart), explain
// and check, and a MapRenderer draw with DbTraces. A run that cannot reach the
// cluster fails: it never skips.

#include "data/feature_source_factory.h"
#include "data/postgis/pg_connection_pool.h"
#include "data/postgis/pg_conninfo.h"
#include "data/postgis/postgis_data_def.h"
#include "data/postgis/postgis_explain.h"
#include "data/postgis/postgis_layer_checks.h"
#include "data/postgis/postgis_statement.h"
#include "render/engine.h"
#include "render/map_renderer.h"

#include <libpq-fe.h>

#include <QElapsedTimer>
#include <QProcess>
#include <QtTest>

#include <QMutex>
#include <QThread>

#include <algorithm>
#include <atomic>

using namespace maptune;

Q_DECLARE_METATYPE(maptune::Rect)

namespace {

const char* kPassword = "s3cretPw";

QString pgHost() { return qEnvironmentVariable("PGHOST", QStringLiteral("127.0.0.1")); }
QString pgPort() { return qEnvironmentVariable("PGPORT", QString::number(MAPTUNE_PG_TEST_PORT)); }

// Trust authentication ignores the password: it is there to prove it never leaks.
QString conninfo(const QString& appName = QStringLiteral("test"))
{
    return QStringLiteral("host=%1 port=%2 dbname=maptune_test user=maptune password=%3 application_name=%4")
        .arg(pgHost(), pgPort(), QLatin1String(kPassword), appName);
}

int clusterScript(const QString& cmd)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedChannels);
    p.start(QStringLiteral(MAPTUNE_SOURCE_DIR "/scripts/pg-test-cluster"),
            {cmd, qEnvironmentVariable("MAPTUNE_PG_TEST_DIR", QStringLiteral(MAPTUNE_PG_TEST_DIR)), pgPort()});
    p.waitForFinished(120000);
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

LayerDef pgLayer(const QString& data, const QStringList& processing = {}, const QString& app = QStringLiteral("test"))
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

QueryResult runQuery(const LayerDef& layer, const Rect& bbox, const QStringList& attributes = {})
{
    QueryResult out;
    MapDef map;
    auto src = openFeatureSource(map, layer, &out.error);
    if (!src) return out;
    FeatureQuery q;
    q.bbox = bbox;
    q.attributes = attributes;
    auto cursor = src->query(q, &out.error);
    if (cursor) {
        out.fields = cursor->fields();
        Feature f;
        while (cursor->next(f)) out.features << f;
        if (!cursor->error().isEmpty()) out.error = cursor->error();
        out.ok = out.error.isEmpty();
    }
    out.traces = src->takeDbTraces();
    return out;
}

QList<qint64> ids(const QueryResult& r)
{
    QList<qint64> out;
    for (const Feature& f : r.features) out << f.id;
    std::sort(out.begin(), out.end());
    return out;
}

bool exec(PGconn* c, const char* sql)
{
    PGresult* r = PQexec(c, sql);
    const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok) qWarning("%s: %s", sql, PQresultErrorMessage(r));
    PQclear(r);
    return ok;
}

// roads: 5 small features near the origin (gid 1..5) and 5000 far away so
// that the planner prefers the GiST index for small boxes.
const char* kSetup = R"SQL(
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

}  // namespace

class TestPostgis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void parseData_data();
    void parseData();
    void buildStatement_data();
    void buildStatement();
    void redactsPasswords_data();
    void redactsPasswords();
    void injectionCannotChangeSql_data();
    void injectionCannotChangeSql();

    void bboxFiltering_data();
    void bboxFiltering();
    void attributesSubset();
    void decodesBinaryWkb();
    void nativeFilterAndBoxToken_data();
    void nativeFilterAndBoxToken();
    void sridLookupIsCached();
    void poolReusesConnections();
    void poolBoundTimesOut();
    void closeConnectionAlways();
    void errorsAreClearAndLeakNothing_data();
    void errorsAreClearAndLeakNothing();
    void statementTimeout();
    void loadNeverExceedsPoolSize();
    void explainAndCheck();
    void rendersWithDbTraces();
    void failingLayerDoesNotStopOthers();
    void recoversAfterServerRestart();

private:
    PGconn* m_admin = nullptr;
};

void TestPostgis::initTestCase()
{
    initEngine();
    const QByteArray info = conninfo(QStringLiteral("setup")).toUtf8();
    m_admin = PQconnectdb(info.constData());
    if (PQstatus(m_admin) != CONNECTION_OK)
        QFAIL(qPrintable(QStringLiteral("cannot reach the PostgreSQL test cluster at %1:%2 (%3). Start it with "
                                        "scripts/pg-test-cluster start DIR %2, or run the tests through ctest.")
                             .arg(pgHost(), pgPort(), QString::fromUtf8(PQerrorMessage(m_admin)).trimmed())));
    QVERIFY(exec(m_admin, "SET client_min_messages = warning"));
    QVERIFY(exec(m_admin, kSetup));
}

void TestPostgis::cleanupTestCase()
{
    if (m_admin) PQfinish(m_admin);
}

// ---- no database needed ----

void TestPostgis::parseData_data()
{
    QTest::addColumn<QString>("data");
    QTest::addColumn<QString>("geom");
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("table");
    QTest::addColumn<QString>("subselect");
    QTest::addColumn<QString>("alias");
    QTest::addColumn<QString>("unique");
    QTest::addColumn<int>("srid");
    QTest::addColumn<QString>("error");  // substring; empty = must parse

    QTest::newRow("table") << "geom from roads" << "geom" << "" << "roads" << "" << "" << "" << 0 << "";
    QTest::newRow("schema.table, FROM uppercase") << "the_geom FROM public.roads" << "the_geom" << "public" << "roads" << "" << "" << "" << 0 << "";
    QTest::newRow("srid") << "geom from roads using srid=3857" << "geom" << "" << "roads" << "" << "" << "" << 3857 << "";
    QTest::newRow("clauses either order, any case") << "geom from roads USING SRID = 4326 Using Unique gid"
                                                    << "geom" << "" << "roads" << "" << "" << "gid" << 4326 << "";
    QTest::newRow("subselect with paren in a string")
        << "geom from (select * from roads where name = 'a (b') as r using unique gid using srid=4326"
        << "geom" << "" << "" << "(select * from roads where name = 'a (b')" << "r" << "gid" << 4326 << "";
    QTest::newRow("subselect alias without AS, srid first") << "geom from (select 1) r using srid=4326 using unique id"
                                                            << "geom" << "" << "" << "(select 1)" << "r" << "id" << 4326 << "";
    QTest::newRow("quoted identifiers") << "\"Geom\" from \"My Schema\".\"Ro\"\"ads\""
                                        << "Geom" << "My Schema" << "Ro\"ads" << "" << "" << "" << 0 << "";
    QTest::newRow("empty") << "  " << "" << "" << "" << "" << "" << "" << 0 << "empty";
    QTest::newRow("no from") << "geom roads" << "" << "" << "" << "" << "" << "" << 0 << "expected 'from'";
    QTest::newRow("no table") << "geom from" << "" << "" << "" << "" << "" << "" << 0 << "missing table";
    QTest::newRow("unbalanced") << "geom from (select 1 as r using unique id" << "" << "" << "" << "" << "" << "" << 0 << "unbalanced";
    QTest::newRow("subselect needs unique") << "geom from (select 1) as r" << "" << "" << "" << "" << "" << "" << 0 << "using unique";
    QTest::newRow("subselect needs alias") << "geom from (select 1) using unique id" << "" << "" << "" << "" << "" << "" << 0 << "alias";
    QTest::newRow("bad srid") << "geom from roads using srid=abc" << "" << "" << "" << "" << "" << "" << 0 << "positive number";
    QTest::newRow("trailing junk") << "geom from roads where x = 1" << "" << "" << "" << "" << "" << "" << 0 << "unexpected 'where x = 1'";
    QTest::newRow("unknown clause") << "geom from roads using index" << "" << "" << "" << "" << "" << "" << 0 << "unknown clause";
    QTest::newRow("srid twice") << "geom from roads using srid=1 using srid=2" << "" << "" << "" << "" << "" << "" << 0 << "twice";
}

void TestPostgis::parseData()
{
    QFETCH(QString, data);
    QFETCH(QString, error);
    QString err;
    const auto d = PostgisDataDef::parse(data, &err);
    if (!error.isEmpty()) {
        QVERIFY(!d);
        QVERIFY2(err.contains(error), qPrintable(err));
        QVERIFY(err.startsWith("DATA: "));
        return;
    }
    QVERIFY2(d, qPrintable(err));
    QTEST(d->geometryColumn, "geom");
    QTEST(d->schema, "schema");
    QTEST(d->table, "table");
    QTEST(d->subselect, "subselect");
    QTEST(d->alias, "alias");
    QTEST(d->uniqueColumn, "unique");
    QTEST(d->srid, "srid");
}

void TestPostgis::buildStatement_data()
{
    QTest::addColumn<QString>("data");
    QTest::addColumn<QStringList>("columns");
    QTest::addColumn<Rect>("bbox");
    QTest::addColumn<int>("srid");
    QTest::addColumn<QString>("filter");
    QTest::addColumn<int>("limit");
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QList<double>>("params");

    const Rect none;
    QTest::newRow("bbox pushed down, text columns")
        << "geom from roads" << QStringList{"name", "kind"} << Rect{0, 0.1, 10, 10} << 4326 << "" << -1
        << "SELECT \"name\"::text,\"kind\"::text,ST_AsBinary(\"geom\",'NDR') FROM \"roads\" "
           "WHERE \"geom\" && ST_MakeEnvelope($1,$2,$3,$4,4326)"
        << QList<double>{0, 0.1, 10, 10};
    QTest::newRow("no bbox, schema") << "geom from public.roads" << QStringList{} << none << 4326 << "" << -1
                                     << "SELECT ST_AsBinary(\"geom\",'NDR') FROM \"public\".\"roads\"" << QList<double>{};
    QTest::newRow("filter, limit, unique id, unknown srid")
        << "geom from (select * from roads) as r using unique gid" << QStringList{"name"} << Rect{1, 2, 3, 4} << 0
        << "kind = 'main'" << 10
        << "SELECT \"name\"::text,ST_AsBinary(\"geom\",'NDR'),\"gid\"::text FROM (select * from roads) AS \"r\" "
           "WHERE \"geom\" && ST_MakeEnvelope($1,$2,$3,$4) AND (kind = 'main') LIMIT 10"
        << QList<double>{1, 2, 3, 4};
    QTest::newRow("!BOX! replaced, no own predicate")
        << "geom from (select * from roads where geom && !BOX!) as r using unique gid using srid=4326" << QStringList{}
        << Rect{1, 2, 3, 4} << 4326 << "" << -1
        << "SELECT ST_AsBinary(\"geom\",'NDR'),\"gid\"::text FROM (select * from roads where geom && "
           "ST_MakeEnvelope($1,$2,$3,$4,4326)) AS \"r\""
        << QList<double>{1, 2, 3, 4};
    QTest::newRow("!BOX! without a bbox: the whole world")
        << "geom from (select * from roads where geom && !BOX!) as r using unique gid using srid=4326" << QStringList{}
        << none << 4326 << "" << -1
        << "SELECT ST_AsBinary(\"geom\",'NDR'),\"gid\"::text FROM (select * from roads where geom && "
           "ST_MakeEnvelope($1,$2,$3,$4,4326)) AS \"r\""
        << QList<double>{-1e30, -1e30, 1e30, 1e30};
    QTest::newRow("identifiers escaped") << "\"ge\"\"om\" from \"ro\"\"ads\"" << QStringList{"na\"me"} << none << 4326 << "" << -1
                                         << "SELECT \"na\"\"me\"::text,ST_AsBinary(\"ge\"\"om\",'NDR') FROM \"ro\"\"ads\""
                                         << QList<double>{};
}

void TestPostgis::buildStatement()
{
    QFETCH(QString, data);
    QFETCH(QStringList, columns);
    QFETCH(Rect, bbox);
    QFETCH(int, srid);
    QFETCH(QString, filter);
    QFETCH(int, limit);
    QFETCH(QList<double>, params);
    QString err;
    const auto d = PostgisDataDef::parse(data, &err);
    QVERIFY2(d, qPrintable(err));
    const auto st = PostgisStatement::select({*d, columns, bbox, srid, filter, limit}, &err);
    QVERIFY2(st, qPrintable(err));
    QTEST(st->sql, "sql");
    QCOMPARE(st->params.size(), params.size());
    for (int i = 0; i < params.size(); ++i) {
        bool ok = false;
        QCOMPARE(st->params[i].toDouble(&ok), params[i]);  // exact round trip
        QVERIFY(ok);
    }
}

void TestPostgis::redactsPasswords_data()
{
    QTest::addColumn<QString>("conninfo");
    QTest::addColumn<QString>("expected");
    QTest::newRow("key=value") << "host=db password=s3cret dbname=gis" << "host=db password=*** dbname=gis";
    QTest::newRow("spaces, quoted, case") << "host=db PASSWORD = 'a b\\'c' user=x" << "host=db PASSWORD = *** user=x";
    QTest::newRow("uri user:pass") << "postgresql://maps:s3cret@db:5432/gis" << "postgresql://maps:***@db:5432/gis";
    QTest::newRow("uri parameter") << "postgres://db/gis?user=a&password=s3cret" << "postgres://db/gis?user=a&password=***";
    QTest::newRow("no password") << "service=gis" << "service=gis";
}

void TestPostgis::redactsPasswords()
{
    QFETCH(QString, conninfo);
    QTEST(redactPgConnInfo(conninfo), "expected");
}

// A request controls only the bbox (numbers, bound as parameters) and, via
// the styles, attribute names (quoted identifiers): neither changes the SQL.
void TestPostgis::injectionCannotChangeSql_data()
{
    QTest::addColumn<Rect>("bbox");
    QTest::addColumn<QStringList>("attributes");
    QTest::addColumn<QString>("error");
    const Rect all{-1000, -1000, 1000, 1000};
    QTest::newRow("bbox not finite") << Rect{0, 0, qInf(), 1} << QStringList{} << "not finite";
    QTest::newRow("bbox NaN") << Rect{qQNaN(), 0, 1, 1} << QStringList{} << "";  // NaN is not a valid box: no filter
    QTest::newRow("attribute closes the quote") << all << QStringList{"name\"::text FROM roads; DROP TABLE roads; --"} << "does not exist";
    QTest::newRow("attribute subquery") << all << QStringList{"(select 1)"} << "does not exist";
}

void TestPostgis::injectionCannotChangeSql()
{
    QFETCH(Rect, bbox);
    QFETCH(QStringList, attributes);
    QFETCH(QString, error);
    const QueryResult r = runQuery(pgLayer(QStringLiteral("geom from roads")), bbox, attributes);
    if (error.isEmpty()) {
        QVERIFY2(r.ok, qPrintable(r.error));
    } else {
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(error), qPrintable(r.error));
    }
    for (const DbTrace& t : r.traces)
        for (const QString& p : t.params) {
            bool ok = false;
            p.toDouble(&ok);
            QVERIFY2(ok, qPrintable(p));  // parameters are numbers only
        }
    PGresult* check = PQexec(m_admin, "SELECT count(*) FROM roads");
    QCOMPARE(PQresultStatus(check), PGRES_TUPLES_OK);
    QCOMPARE(QByteArray(PQgetvalue(check, 0, 0)), QByteArray("5005"));
    PQclear(check);
}

// ---- against the cluster ----

void TestPostgis::bboxFiltering_data()
{
    QTest::addColumn<Rect>("bbox");
    QTest::addColumn<QList<qint64>>("expected");  // gids; -1: count 5005
    QTest::newRow("origin: line and path") << Rect{-1, -1, 2, 2} << QList<qint64>{1, 5};
    QTest::newRow("one road") << Rect{9, 9, 12, 12} << QList<qint64>{2};
    QTest::newRow("bbox touches only the bounding box of a line") << Rect{30.9, 30, 31, 30.1} << QList<qint64>{4};
    QTest::newRow("empty area") << Rect{40, 40, 50, 45} << QList<qint64>{};
    QTest::newRow("no bbox: everything") << Rect{} << QList<qint64>{-1};
}

void TestPostgis::bboxFiltering()
{
    QFETCH(Rect, bbox);
    QFETCH(QList<qint64>, expected);
    const QueryResult r = runQuery(pgLayer(QStringLiteral("geom from roads using unique gid using srid=4326")), bbox);
    QVERIFY2(r.ok, qPrintable(r.error));
    if (expected == QList<qint64>{-1}) QCOMPARE(r.features.size(), 5005);
    else QCOMPARE(ids(r), expected);
    QCOMPARE(r.traces.size(), 1);
    QCOMPARE(r.traces[0].rows, qint64(r.features.size()));
    QCOMPARE(r.traces[0].sql.contains("ST_MakeEnvelope"), bbox.isValid());
    QVERIFY(r.traces[0].bytes > 0 || expected.isEmpty());
}

void TestPostgis::attributesSubset()
{
    const LayerDef l = pgLayer(QStringLiteral("geom from roads using unique gid using srid=4326"));
    QueryResult r = runQuery(l, {-1, -1, 12, 12}, {"name", "lanes"});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.fields, (QStringList{"name", "lanes"}));
    QCOMPARE(ids(r), (QList<qint64>{1, 2, 5}));
    for (const Feature& f : r.features) {
        if (f.id == 1) QCOMPARE(f.values, (QStringList{"Alpha", "2"}));
        if (f.id == 5) QVERIFY(f.values[0].isNull() && f.values[1].isNull());  // SQL NULL
    }
    QVERIFY(!r.traces[0].sql.contains("\"kind\""));

    r = runQuery(l, {29, 29, 32, 33}, {"*"});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.fields, (QStringList{"gid", "name", "kind", "lanes"}));  // all but the geometry
    QCOMPARE(r.features.size(), 1);
    QCOMPARE(r.features[0].values, (QStringList{"4", "O'Brien \"St\"", "minor", "1"}));
}

void TestPostgis::decodesBinaryWkb()
{
    const QueryResult r = runQuery(pgLayer(QStringLiteral("geom from roads using unique gid using srid=4326")), {29, 29, 32, 33});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.features.size(), 1);
    const Geometry& g = r.features[0].geometry;
    QCOMPARE(g.type, Geometry::Type::Line);
    QCOMPARE(g.xy, (std::vector<double>{30, 30, 31, 32}));
    QCOMPARE(g.partCount(), 1);
    // Binary WKB: 1 byte order + 4 type + 4 count + 2 points * 16 = 41 bytes, not 82 hex characters.
    QCOMPARE(r.traces[0].bytes, qint64(41));
}

void TestPostgis::nativeFilterAndBoxToken_data()
{
    QTest::addColumn<QString>("data");
    QTest::addColumn<QStringList>("processing");
    QTest::addColumn<Rect>("bbox");
    QTest::addColumn<QList<qint64>>("expected");
    const Rect near{-1, -1, 25, 25};
    QTest::newRow("NATIVE_FILTER") << "geom from roads using unique gid using srid=4326"
                                   << QStringList{"NATIVE_FILTER=kind = 'main'"} << near << QList<qint64>{1, 3};
    QTest::newRow("!BOX!") << "geom from (select gid, name, geom from roads where geom && !BOX!) as r using unique gid using srid=4326"
                           << QStringList{} << Rect{9, 9, 12, 12} << QList<qint64>{2};
    QTest::newRow("!BOX! and NATIVE_FILTER, srid looked up")
        << "geom from (select * from roads where geom && !BOX! and lanes > 1) as r using srid=4326 using unique gid"
        << QStringList{"NATIVE_FILTER=kind <> 'minor'"} << near << QList<qint64>{1, 3};
    QTest::newRow("subselect, srid looked up") << "geom from (select * from roads where kind = 'minor') as r using unique gid"
                                               << QStringList{} << Rect{-100, -100, 99, 99} << QList<qint64>{2, 4};
}

void TestPostgis::nativeFilterAndBoxToken()
{
    QFETCH(QString, data);
    QFETCH(QStringList, processing);
    QFETCH(Rect, bbox);
    QFETCH(QList<qint64>, expected);
    const QueryResult r = runQuery(pgLayer(data, processing), bbox, {"name"});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(ids(r), expected);
    QVERIFY(!r.traces.last().sql.contains("!BOX!"));
    QCOMPARE(r.traces.last().params.size(), 4);
}

void TestPostgis::sridLookupIsCached()
{
    const LayerDef l = pgLayer(QStringLiteral("geom from roads"), {}, QStringLiteral("srid"));
    QueryResult r = runQuery(l, {-1, -1, 2, 2});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.traces.size(), 2);  // Find_SRID, then the SELECT
    QVERIFY(r.traces[0].sql.contains("Find_SRID"));
    QVERIFY(r.traces[1].sql.contains("ST_MakeEnvelope($1,$2,$3,$4,4326)"));
    r = runQuery(l, {-1, -1, 2, 2});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.traces.size(), 1);  // cached: no metadata round trip any more
    QCOMPARE(r.features.size(), 2);
}

void TestPostgis::poolReusesConnections()
{
    const LayerDef l = pgLayer(QStringLiteral("geom from roads using srid=4326"), {}, QStringLiteral("reuse"));
    const QueryResult first = runQuery(l, {-1, -1, 2, 2});
    QVERIFY2(first.ok, qPrintable(first.error));
    QVERIFY(first.traces[0].newConnection);
    QVERIFY(first.traces[0].connectMs > 0);
    const QueryResult second = runQuery(l, {-1, -1, 2, 2});
    QVERIFY2(second.ok, qPrintable(second.error));
    QVERIFY(!second.traces[0].newConnection);
    QCOMPARE(second.traces[0].connectMs, 0.0);
    const PgPoolStats s = PgConnectionPool::instance().stats(l.connection);
    QCOMPARE(s.open, 1);
    QCOMPARE(s.idle, 1);
    QCOMPARE(s.connects, qint64(1));
    qInfo("first draw: connect %.2f ms + query %.2f ms; pooled draw: wait %.3f ms + query %.2f ms",
          first.traces[0].connectMs, first.traces[0].queryMs, second.traces[0].poolWaitMs, second.traces[0].queryMs);
}

void TestPostgis::poolBoundTimesOut()
{
    PgConnectionPool& pool = PgConnectionPool::instance();
    const int oldMax = pool.maxPerKey(), oldTimeout = pool.acquireTimeoutMs();
    pool.setMaxPerKey(2);
    pool.setAcquireTimeoutMs(300);
    const QString info = conninfo(QStringLiteral("bound"));
    QString err;
    PgLease a = pool.acquire(info, &err);
    PgLease b = pool.acquire(info, &err);
    QVERIFY2(a && b, qPrintable(err));
    QElapsedTimer timer;
    timer.start();
    PgLease c = pool.acquire(info, &err);
    const qint64 waited = timer.elapsed();
    QVERIFY(!c);
    QVERIFY2(err.contains("no free PostgreSQL connection") && err.contains("MAPTUNE_PG_POOL_SIZE"), qPrintable(err));
    QVERIFY(!err.contains(kPassword));
    QVERIFY(waited >= 290 && waited < 3000);
    QCOMPARE(pool.stats(info).timeouts, qint64(1));
    QCOMPARE(pool.stats(info).open, 2);
    // A lease returned while someone waits wakes the waiter.
    pool.setAcquireTimeoutMs(5000);
    std::atomic_bool reused = false;
    QString waiterError;
    std::unique_ptr<QThread> waiter(QThread::create([&] {
        PgLease d = pool.acquire(info, &waiterError);
        reused = bool(d) && !d.isNew();
    }));
    waiter->start();
    QThread::msleep(100);
    b.release();
    QVERIFY(waiter->wait(6000));
    QVERIFY2(reused, qPrintable(waiterError));
    QVERIFY(pool.stats(info).waits >= 2);
    pool.setMaxPerKey(oldMax);
    pool.setAcquireTimeoutMs(oldTimeout);
}

void TestPostgis::closeConnectionAlways()
{
    const LayerDef l = pgLayer(QStringLiteral("geom from roads using srid=4326"), {"CLOSE_CONNECTION=ALWAYS"}, QStringLiteral("always"));
    for (int i = 0; i < 2; ++i) {
        const QueryResult r = runQuery(l, {-1, -1, 2, 2});
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.traces[0].newConnection);
        QVERIFY(r.traces[0].connectMs > 0);
    }
    QCOMPARE(PgConnectionPool::instance().stats(l.connection).open, 0);
}

void TestPostgis::errorsAreClearAndLeakNothing_data()
{
    QTest::addColumn<QString>("data");
    QTest::addColumn<QStringList>("attributes");
    QTest::addColumn<QString>("connection");  // empty: the cluster
    QTest::addColumn<QString>("error");
    QTest::newRow("missing table") << "geom from nosuch using srid=4326" << QStringList{} << "" << "relation \"nosuch\" does not exist";
    QTest::newRow("missing table, srid lookup") << "geom from nosuch" << QStringList{} << "" << "\"nosuch\" does not exist";
    QTest::newRow("wrong column") << "geom from roads using srid=4326" << QStringList{"nosuch"} << "" << "column \"nosuch\" does not exist";
    QTest::newRow("wrong geometry column") << "the_geom from roads using srid=4326" << QStringList{} << "" << "\"the_geom\" does not exist";
    QTest::newRow("subquery syntax error") << "geom from (selec * from roads) as r using unique gid using srid=4326"
                                           << QStringList{} << "" << "syntax error";
    QTest::newRow("bad connection") << "geom from roads using srid=4326" << QStringList{}
                                    << QStringLiteral("host=127.0.0.1 port=1 dbname=x user=y password=%1").arg(kPassword)
                                    << "cannot connect to PostgreSQL (host=127.0.0.1 port=1 dbname=x user=y password=***)";
}

void TestPostgis::errorsAreClearAndLeakNothing()
{
    QFETCH(QString, data);
    QFETCH(QStringList, attributes);
    QFETCH(QString, connection);
    QFETCH(QString, error);
    LayerDef l = pgLayer(data, {}, QStringLiteral("errors"));
    if (!connection.isEmpty()) l.connection = connection;
    QElapsedTimer timer;
    timer.start();
    const QueryResult r = runQuery(l, {-1, -1, 2, 2}, attributes);
    QVERIFY(timer.elapsed() < 6000);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(error), qPrintable(r.error));
    QVERIFY(!r.error.contains(kPassword));
    QVERIFY(!r.traces.isEmpty());
    QVERIFY(!r.traces.last().error.isEmpty());
    const PgPoolStats s = PgConnectionPool::instance().stats(l.connection);
    QCOMPARE(s.inUse, 0);         // every lease came back...
    QVERIFY(s.open == s.idle);    // ...and nothing is open beyond the idle ones
    QVERIFY(s.open <= 1);
}

void TestPostgis::statementTimeout()
{
    PgConnectionPool& pool = PgConnectionPool::instance();
    pool.setStatementTimeoutMs(200);  // applies to connections opened from now on
    const LayerDef l = pgLayer(QStringLiteral("geom from (select *, pg_sleep(2) from roads where gid = 1) as r using unique gid using srid=4326"),
                               {}, QStringLiteral("slow"));
    QElapsedTimer timer;
    timer.start();
    const QueryResult r = runQuery(l, {-1, -1, 2, 2});
    pool.setStatementTimeoutMs(0);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains("statement timeout"), qPrintable(r.error));
    QVERIFY(timer.elapsed() < 1500);
    const PgPoolStats s = pool.stats(l.connection);
    QCOMPARE(s.inUse, 0);
    QCOMPARE(s.idle, 1);  // a cancelled statement leaves the connection usable
}

void TestPostgis::loadNeverExceedsPoolSize()
{
    PgConnectionPool& pool = PgConnectionPool::instance();
    const int oldMax = pool.maxPerKey(), oldTimeout = pool.acquireTimeoutMs();
    pool.setMaxPerKey(3);
    pool.setAcquireTimeoutMs(10000);
    const LayerDef l = pgLayer(QStringLiteral("geom from roads using srid=4326"), {}, QStringLiteral("load"));
    std::atomic_int failures = 0, done = 0;
    QString firstError;
    QMutex errorMutex;
    std::vector<std::unique_ptr<QThread>> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back(QThread::create([&] {
            for (int i = 0; i < 15; ++i) {
                const QueryResult r = runQuery(l, {-1, -1, 120, 120}, {"name"});
                if (!r.ok || r.features.size() < 3) {
                    ++failures;
                    QMutexLocker lock(&errorMutex);
                    if (firstError.isEmpty()) firstError = r.error;
                }
            }
            ++done;
        }));
        threads.back()->start();
    }
    int maxServer = 0, maxPool = 0;
    while (done < 8) {
        PGresult* r = PQexec(m_admin, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'load'");
        maxServer = std::max(maxServer, QByteArray(PQgetvalue(r, 0, 0)).toInt());
        PQclear(r);
        maxPool = std::max(maxPool, pool.stats(l.connection).open);
        QThread::msleep(2);
    }
    for (auto& t : threads) QVERIFY(t->wait(10000));
    QVERIFY2(failures == 0, qPrintable(firstError));
    QVERIFY(maxServer >= 1);
    QVERIFY2(maxServer <= 3, qPrintable(QString::number(maxServer)));
    QVERIFY(maxPool <= 3);
    const PgPoolStats s = pool.stats(l.connection);
    QVERIFY(s.connects <= 3);
    QCOMPARE(s.reuses + s.connects, qint64(8 * 15));
    qInfo("8 threads x 15 draws on a pool of 3: %lld connects, %lld waits, at most %d server connections",
          s.connects, s.waits, maxServer);
    pool.setMaxPerKey(oldMax);
    pool.setAcquireTimeoutMs(oldTimeout);
}

void TestPostgis::explainAndCheck()
{
    MapDef map;
    PostgisExplain e = explainPostgisLayer(pgLayer(QStringLiteral("geom from roads using srid=4326")), {"name"}, {-1, -1, 2, 2});
    QVERIFY2(e.ok(), qPrintable(e.error));
    QVERIFY(e.sql.contains("ST_MakeEnvelope($1,$2,$3,$4,4326)"));
    QCOMPARE(e.params, (QStringList{"-1", "-1", "2", "2"}));
    QVERIFY2(planUsesIndex(e.plan), qPrintable(e.plan));
    QVERIFY(e.plan.contains("Buffers") || e.plan.contains("actual time"));
    QVERIFY2(e.warnings.isEmpty(), qPrintable(e.warnings.join('\n')));

    e = explainPostgisLayer(pgLayer(QStringLiteral("geom from noidx using srid=4326")), {}, {-1, -1, 2, 2});
    QVERIFY2(e.ok(), qPrintable(e.error));
    QVERIFY(e.plan.contains("Seq Scan"));
    QCOMPARE(e.warnings.size(), 1);
    QVERIFY(e.warnings[0].contains("no spatial index used"));

    e = explainPostgisLayer(pgLayer(QStringLiteral("geom from merc using srid=4326")), {}, {});
    QVERIFY2(e.ok(), qPrintable(e.error));
    QVERIFY2(e.warnings.join('\n').contains("SRID mismatch: the column \"geom\" has SRID 3857 but DATA says 'using srid=4326'"),
             qPrintable(e.warnings.join('\n')));

    QCOMPARE(postgisLayerWarnings(map, pgLayer(QStringLiteral("geom from roads"))), QStringList{});
    QStringList w = postgisLayerWarnings(map, pgLayer(QStringLiteral("geom from noidx")));
    QCOMPARE(w.size(), 1);
    QVERIFY2(w[0].contains("warning: layer 'pg': no GiST index on \"noidx\".\"geom\""), qPrintable(w[0]));
    w = postgisLayerWarnings(map, pgLayer(QStringLiteral("geom from nosuch")));
    QVERIFY(w.size() == 1 && w[0].contains("does not exist"));
    LayerDef offline = pgLayer(QStringLiteral("geom from roads"));
    offline.connection = QStringLiteral("host=127.0.0.1 port=1 dbname=x password=%1").arg(kPassword);
    w = postgisLayerWarnings(map, offline);
    QVERIFY(w.size() == 1 && w[0].contains("note: ") && !w[0].contains(kPassword));
}

void TestPostgis::rendersWithDbTraces()
{
    auto m = std::make_shared<MapDef>();
    m->name = "pg";
    m->width = 100;
    m->height = 100;
    m->extent = {-0.5, -0.5, 2.5, 2.5};
    LayerDef l = pgLayer(QStringLiteral("geom from roads using unique gid using srid=4326"), {}, QStringLiteral("render"));
    l.classItem = QStringLiteral("kind");
    ClassDef c;
    c.expression = {ExpressionDef::Type::String, QStringLiteral("main")};
    StyleDef s;
    s.color = Color::rgb(255, 0, 0);
    s.width = 3;
    c.styles << s;
    l.classes << c;
    m->layers << l;
    const RenderResult r = MapRenderer(m).render({});
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.trace.layers.size(), 1);
    const LayerTrace& lt = r.trace.layers[0];
    QVERIFY2(lt.error.isEmpty(), qPrintable(lt.error));
    QCOMPARE(lt.features, qint64(1));  // gid 1 is main; gid 5 is a path (no class)
    QCOMPARE(lt.db.size(), 1);
    QCOMPARE(lt.db[0].rows, qint64(2));
    QVERIFY(lt.db[0].sql.contains("\"kind\"::text"));
    QCOMPARE(lt.db[0].params.size(), 4);
    QVERIFY(!lt.db[0].sql.contains(kPassword));
    QVERIFY(r.trace.dbMs() > 0);
}

// A database that cannot be reached fails its layer only, quickly.
void TestPostgis::failingLayerDoesNotStopOthers()
{
    auto m = std::make_shared<MapDef>();
    m->width = 50;
    m->height = 50;
    m->extent = {-0.5, -0.5, 2.5, 2.5};
    ClassDef c;
    StyleDef s;
    s.color = Color::rgb(0, 0, 255);
    c.styles << s;
    LayerDef down = pgLayer(QStringLiteral("geom from roads using srid=4326"));
    down.name = QStringLiteral("down");
    down.connection = QStringLiteral("host=127.0.0.1 port=1 dbname=x password=%1").arg(kPassword);
    down.classes << c;
    LayerDef up = pgLayer(QStringLiteral("geom from roads using srid=4326"));
    up.name = QStringLiteral("up");
    up.classes << c;
    m->layers << down << up;
    QElapsedTimer timer;
    timer.start();
    const RenderResult r = MapRenderer(m).render({});
    QVERIFY(timer.elapsed() < 6000);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.trace.layers.size(), 2);
    QVERIFY2(r.trace.layers[0].error.contains("layer 'down'") && r.trace.layers[0].error.contains("cannot connect"),
             qPrintable(r.trace.layers[0].error));
    QVERIFY(!r.trace.layers[0].error.contains(kPassword));
    // The failed call is in the layer's timings, with its error and no password.
    QVERIFY(!r.trace.layers[0].db.isEmpty());
    QVERIFY(!r.trace.layers[0].db[0].error.isEmpty());
    QVERIFY(!r.trace.layers[0].db[0].error.contains(kPassword));
    QVERIFY(r.trace.layers[1].error.isEmpty());
    QCOMPARE(r.trace.layers[1].features, qint64(2));
}

// Last: a real stop and start of the cluster.
void TestPostgis::recoversAfterServerRestart()
{
    PgConnectionPool& pool = PgConnectionPool::instance();
    const LayerDef l = pgLayer(QStringLiteral("geom from roads using srid=4326"), {}, QStringLiteral("restart"));
    QueryResult r = runQuery(l, {-1, -1, 2, 2});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(pool.stats(l.connection).idle, 1);

    PQfinish(m_admin);
    m_admin = nullptr;
    QCOMPARE(clusterScript(QStringLiteral("stop")), 0);
    QElapsedTimer timer;
    timer.start();
    r = runQuery(l, {-1, -1, 2, 2});
    QVERIFY(!r.ok);
    QVERIFY(timer.elapsed() < 6000);
    QVERIFY2(r.error.contains("cannot connect to PostgreSQL") || r.error.contains("connection"), qPrintable(r.error));
    QVERIFY(!r.error.contains(kPassword));
    QCOMPARE(pool.stats(l.connection).inUse, 0);

    QCOMPARE(clusterScript(QStringLiteral("start")), 0);
    r = runQuery(l, {-1, -1, 2, 2});
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(ids(r).size(), 2);
    QVERIFY(r.traces.last().newConnection);

    // A pooled connection that died while idle is replaced without an error.
    const QueryResult warm = runQuery(l, {-1, -1, 2, 2});
    QVERIFY(warm.ok && !warm.traces.last().newConnection);
    QCOMPARE(clusterScript(QStringLiteral("stop")), 0);
    QCOMPARE(clusterScript(QStringLiteral("start")), 0);
    r = runQuery(l, {-1, -1, 2, 2});
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.traces.last().newConnection);
}

QTEST_MAIN(TestPostgis)
#include "test_postgis.moc"
