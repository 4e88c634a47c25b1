// PostGIS layer definitions without a database: DATA parsing (tables,
// subselects, USING UNIQUE/SRID, quoted identifiers, errors), the SELECT
// built from it (bbox as bound parameters, !BOX!, filters, escaping) and
// passwords redacted from connection strings.

#include "data/postgis/pg_conninfo.h"
#include "data/postgis/postgis_data_def.h"
#include "data/postgis/postgis_statement.h"

#include <QtTest>

using namespace maptune;

Q_DECLARE_METATYPE(maptune::Rect)

class TestPostgisStatement : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parseData_data();
    void parseData();
    void buildStatement_data();
    void buildStatement();
    void conditionsAreBound();
    void keyLeftOutWhenNotWanted();
    void onlyBoxRestricts();
    void redactsPasswords_data();
    void redactsPasswords();
    void knowsALocalServer_data();
    void knowsALocalServer();
};

void TestPostgisStatement::parseData_data()
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

void TestPostgisStatement::parseData()
{
    QFETCH(QString, data);
    QFETCH(QString, error);
    const auto d = PostgisDataDef::parse(data);
    const QString err = d.message();
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

void TestPostgisStatement::buildStatement_data()
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

void TestPostgisStatement::buildStatement()
{
    QFETCH(QString, data);
    QFETCH(QStringList, columns);
    QFETCH(Rect, bbox);
    QFETCH(int, srid);
    QFETCH(QString, filter);
    QFETCH(int, limit);
    QFETCH(QList<double>, params);
    const auto d = PostgisDataDef::parse(data);
    QVERIFY2(d, qPrintable(d.message()));
    const auto st = PostgisStatement::select({*d, columns, bbox, srid, filter, limit, {}});
    QVERIFY2(st, qPrintable(st.message()));
    QTEST(st->sql, "sql");
    QCOMPARE(st->params.size(), params.size());
    for (int i = 0; i < params.size(); ++i) {
        bool ok = false;
        QCOMPARE(st->params[i].toDouble(&ok), params[i]);  // exact round trip
        QVERIFY(ok);
    }
}

// TIME / dimension values become placeholders after the bbox's four, typed
// by the server from the column (only the bbox is float8).
void TestPostgisStatement::conditionsAreBound()
{
    const auto d = PostgisDataDef::parse(QStringLiteral("geom from events using unique gid using srid=4326"));
    QVERIFY(d);
    PostgisSelectSpec spec{*d, {"name"}, Rect{0, 0, 10, 10}, 4326, {}, -1, {}};
    spec.conditions = {RequestConditionDef{"t", RequestConditionDef::Kind::Time,
                                           {{"2004-01-02 00:00:00", "2004-01-02 00:00:00"}, {"2004-02-01 00:00:00", "2004-02-29 23:59:59"}}},
                       RequestConditionDef{"le\"vel", RequestConditionDef::Kind::Number, {{"100", "100"}}}};
    const auto st = PostgisStatement::select(spec);
    QVERIFY2(st, qPrintable(st.message()));
    QVERIFY2(st->sql.endsWith(QLatin1String(" AND (\"t\" = $5 OR (\"t\" >= $6 AND \"t\" <= $7)) AND (\"le\"\"vel\" = $8)")),
             qPrintable(st->sql));
    QCOMPARE(st->params.mid(4), QStringList({"2004-01-02 00:00:00", "2004-02-01 00:00:00", "2004-02-29 23:59:59", "100"}));
    QCOMPARE(st->float8Params, 4);
    QVERIFY(!st->sql.contains(QLatin1String("2004")));
}

void TestPostgisStatement::keyLeftOutWhenNotWanted()
{
    const auto d = PostgisDataDef::parse(QStringLiteral("geom from roads using unique gid"));
    QVERIFY2(d, qPrintable(d.message()));
    PostgisSelectSpec spec{*d, {"name"}, Rect{0, 0, 10, 10}, 4326, {}, -1, {}};
    spec.uniqueKey = false;
    const auto st = PostgisStatement::select(spec);
    QVERIFY2(st, qPrintable(st.message()));
    QCOMPARE(st->sql, QStringLiteral("SELECT \"name\"::text,ST_AsBinary(\"geom\",'NDR') FROM \"roads\" "
                                     "WHERE \"geom\" && ST_MakeEnvelope($1,$2,$3,$4,4326)"));
}

void TestPostgisStatement::onlyBoxRestricts()
{
    const auto d = PostgisDataDef::parse(QStringLiteral("geom from roads using unique gid"));
    QVERIFY2(d, qPrintable(d.message()));
    const PostgisSelectSpec plain{*d, {"name"}, Rect{0, 0, 10, 10}, 4326, {}, -1, {}};
    QVERIFY(PostgisStatement::onlyBoxRestricts(plain));
    PostgisSelectSpec noBox = plain;
    noBox.bbox = Rect{};
    QVERIFY(PostgisStatement::onlyBoxRestricts(noBox));
    PostgisSelectSpec filtered = plain;
    filtered.nativeFilter = QStringLiteral("kind = 'main'");
    QVERIFY(!PostgisStatement::onlyBoxRestricts(filtered));
    PostgisSelectSpec limited = plain;
    limited.limit = 10;
    QVERIFY(!PostgisStatement::onlyBoxRestricts(limited));
    PostgisSelectSpec timed = plain;
    timed.conditions = {RequestConditionDef{"t", RequestConditionDef::Kind::Time, {{"2004", "2004"}}}};
    QVERIFY(!PostgisStatement::onlyBoxRestricts(timed));
    PostgisSelectSpec infinite = plain;
    infinite.bbox.maxx = INFINITY;
    QVERIFY(!PostgisStatement::select(infinite));
    QVERIFY(!PostgisStatement::onlyBoxRestricts(infinite));
    const auto boxed = PostgisDataDef::parse(QStringLiteral("geom from (select * from roads where geom && !BOX!) as r using unique gid"));
    QVERIFY2(boxed, qPrintable(boxed.message()));
    QVERIFY(!PostgisStatement::onlyBoxRestricts({*boxed, {"name"}, Rect{0, 0, 10, 10}, 4326, {}, -1, {}}));
}

void TestPostgisStatement::redactsPasswords_data()
{
    QTest::addColumn<QString>("conninfo");
    QTest::addColumn<QString>("expected");
    QTest::newRow("key=value") << "host=db password=s3cret dbname=gis" << "host=db password=*** dbname=gis";
    QTest::newRow("spaces, quoted, case") << "host=db PASSWORD = 'a b\\'c' user=x" << "host=db PASSWORD = *** user=x";
    QTest::newRow("uri user:pass") << "postgresql://maps:s3cret@db:5432/gis" << "postgresql://maps:***@db:5432/gis";
    QTest::newRow("uri parameter") << "postgres://db/gis?user=a&password=s3cret" << "postgres://db/gis?user=a&password=***";
    QTest::newRow("no password") << "service=gis" << "service=gis";
}

void TestPostgisStatement::redactsPasswords()
{
    QFETCH(QString, conninfo);
    QTEST(redactPgConnInfo(conninfo), "expected");
}

void TestPostgisStatement::knowsALocalServer_data()
{
    QTest::addColumn<QString>("conninfo");
    QTest::addColumn<bool>("local");
    QTest::newRow("loopback address") << "host=127.0.0.1 port=55432 dbname=bench" << true;
    QTest::newRow("localhost") << "host=localhost dbname=gis" << true;
    QTest::newRow("unix socket") << "host=/var/run/postgresql dbname=gis" << true;
    QTest::newRow("uri, ipv6 loopback") << "postgresql://[::1]:5432/gis" << true;
    QTest::newRow("another machine") << "host=db.example.org dbname=gis" << false;
    QTest::newRow("hostaddr decides") << "host=localhost hostaddr=10.0.0.5 dbname=gis" << false;
    QTest::newRow("one of two hosts remote") << "host=localhost,db2 dbname=gis" << false;
    QTest::newRow("unparsable") << "host='unterminated" << false;
}

void TestPostgisStatement::knowsALocalServer()
{
    QFETCH(QString, conninfo);
    QTEST(pgConnInfoIsLocal(conninfo), "local");
}

QTEST_GUILESS_MAIN(TestPostgisStatement)
#include "test_postgis_statement.moc"
