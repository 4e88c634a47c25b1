// PostGIS layers read against the shared test cluster (fixture "pg"):
// injection attempts, bbox/attribute/filter queries, binary WKB, the cached
// SRID lookup, explain and check, and MapRenderer draws with DbTraces (one
// of them with an unreachable database). A run that cannot reach the
// cluster fails: it never skips.

#include "data/postgis/pg_connection_pool.h"
#include "data/postgis/postgis_explain.h"
#include "data/postgis/postgis_layer_checks.h"
#include "postgis_test_support.h"
#include "render/map_renderer.h"
#include "render/render_load.h"
#include "trace/trace_json.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonObject>
#include <QtTest>

using namespace maptune;
using namespace maptune::pgtest;

Q_DECLARE_METATYPE(maptune::Rect)

class TestPostgisSource : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { connectAndCreateTables(m_admin); }
    void cleanupTestCase() { if (m_admin) PQfinish(m_admin); }

    void injectionCannotChangeSql_data();
    void injectionCannotChangeSql();
    void bboxFiltering_data();
    void bboxFiltering();
    void attributesSubset();
    void decodesBinaryWkb();
    void nativeFilterAndBoxToken_data();
    void nativeFilterAndBoxToken();
    void sridLookupIsCached();
    void extentOfTheData_data();
    void extentOfTheData();
    void explainAndCheck();
    void rendersWithDbTraces();
    void failingLayerDoesNotStopOthers();
    void bandsAfterTheLastRowMatchOneThread();

private:
    PGconn* m_admin = nullptr;
};

// A request controls only the bbox (numbers, bound as parameters) and, via
// the styles, attribute names (quoted identifiers): neither changes the SQL.
void TestPostgisSource::injectionCannotChangeSql_data()
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

void TestPostgisSource::injectionCannotChangeSql()
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

void TestPostgisSource::bboxFiltering_data()
{
    QTest::addColumn<Rect>("bbox");
    QTest::addColumn<QList<qint64>>("expected");  // gids; -1: count 5005
    QTest::newRow("origin: line and path") << Rect{-1, -1, 2, 2} << QList<qint64>{1, 5};
    QTest::newRow("one road") << Rect{9, 9, 12, 12} << QList<qint64>{2};
    QTest::newRow("bbox touches only the bounding box of a line") << Rect{30.9, 30, 31, 30.1} << QList<qint64>{4};
    QTest::newRow("empty area") << Rect{40, 40, 50, 45} << QList<qint64>{};
    QTest::newRow("no bbox: everything") << Rect{} << QList<qint64>{-1};
}

void TestPostgisSource::bboxFiltering()
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

void TestPostgisSource::attributesSubset()
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

void TestPostgisSource::decodesBinaryWkb()
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

void TestPostgisSource::nativeFilterAndBoxToken_data()
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

void TestPostgisSource::nativeFilterAndBoxToken()
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

void TestPostgisSource::sridLookupIsCached()
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

// What GetCapabilities advertises for a layer without EXTENT: ST_Extent
// over the DATA as the layer defines it (filters in, !BOX! open).
void TestPostgisSource::extentOfTheData_data()
{
    QTest::addColumn<QString>("data");
    QTest::addColumn<QStringList>("processing");
    QTest::addColumn<Rect>("expected");
    QTest::newRow("table") << "geom from roads using unique gid" << QStringList{} << Rect{0, 0, 169.5, 121.5};
    QTest::newRow("NATIVE_FILTER") << "geom from roads using unique gid using srid=4326"
                                   << QStringList{"NATIVE_FILTER=kind = 'main'"} << Rect{0, 0, 21, 21};
    QTest::newRow("subselect with !BOX!")
        << "geom from (select * from roads where geom && !BOX! and kind = 'minor') as r using unique gid using srid=4326"
        << QStringList{} << Rect{10, 10, 31, 32};
}

void TestPostgisSource::extentOfTheData()
{
    QFETCH(QString, data);
    QFETCH(QStringList, processing);
    QFETCH(Rect, expected);
    MapDef map;
    auto opened = openFeatureSource(map, pgLayer(data, processing), testEngine());
    QVERIFY2(opened, qPrintable(opened.message()));
    const std::optional<Rect> e = (*opened)->extent();
    QVERIFY(e);
    QVERIFY2(qAbs(e->minx - expected.minx) < 1e-3 && qAbs(e->miny - expected.miny) < 1e-3 &&
                 qAbs(e->maxx - expected.maxx) < 1e-3 && qAbs(e->maxy - expected.maxy) < 1e-3,
             qPrintable(QStringLiteral("%1 %2 %3 %4").arg(e->minx).arg(e->miny).arg(e->maxx).arg(e->maxy)));
    const QList<DbTrace> traces = (*opened)->takeDbTraces();
    QVERIFY(!traces.isEmpty());
    QVERIFY(traces.last().sql.contains("ST_Extent"));
    QVERIFY(traces.last().error.isEmpty());
    // A table that does not exist: no extent, and the trace says why.
    auto broken = openFeatureSource(map, pgLayer("geom from no_such_table using srid=4326"), testEngine());
    QVERIFY(broken);
    QVERIFY(!(*broken)->extent());
    QVERIFY((*broken)->takeDbTraces().last().error.contains("no_such_table"));
}

void TestPostgisSource::explainAndCheck()
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

void TestPostgisSource::rendersWithDbTraces()
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
    // A drawn map numbers its features itself: the key column stays on the server.
    QVERIFY2(!lt.db[0].sql.contains("\"gid\""), qPrintable(lt.db[0].sql));
    QCOMPARE(lt.db[0].params.size(), 4);
    QVERIFY(!lt.db[0].sql.contains(kPassword));
    QVERIFY(r.trace.dbMs() > 0);

    // The profile (&MAPTUNE_PROFILE=json) shows the call: the bbox reached the SQL as bound parameters.
    const QJsonObject profile = traceToJsonObject(r.trace);
    const QJsonObject layer = profile.value(QLatin1String("layers")).toArray().first().toObject();
    const QJsonObject db = layer.value(QLatin1String("db")).toArray().first().toObject();
    QVERIFY2(db.value(QLatin1String("sql")).toString().contains(QLatin1String("&&")), qPrintable(db.value("sql").toString()));
    QCOMPARE(db.value(QLatin1String("params")).toArray().size(), 4);
    QCOMPARE(db.value(QLatin1String("rows")).toInt(), 2);
    QStringList phases;
    double at = layer.value(QLatin1String("startMs")).toDouble() + layer.value(QLatin1String("openMs")).toDouble();
    for (const QJsonValue& v : db.value(QLatin1String("phases")).toArray()) {
        phases << v.toObject().value(QLatin1String("phase")).toString();
        QVERIFY(std::abs(v.toObject().value(QLatin1String("startMs")).toDouble() - at) < 0.01);  // one after another
        at += v.toObject().value(QLatin1String("ms")).toDouble();
    }
    QCOMPARE(phases, (QStringList{QStringLiteral("pool wait"), QStringLiteral("connect"), QStringLiteral("query"),
                                  QStringLiteral("fetch")}));
}

// A database that cannot be reached fails its layer only, quickly.
void TestPostgisSource::failingLayerDoesNotStopOthers()
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


// A render alone on the machine draws a PostGIS line layer on two threads,
// in row bands once the last row is in (the server process streaming the
// rows needs the other core until then): the same pixels as one thread.
void TestPostgisSource::bandsAfterTheLastRowMatchOneThread()
{
    auto m = std::make_shared<MapDef>();
    m->width = 300;
    m->height = 300;
    m->extent = {99, 49, 171, 123};
    LayerDef l = pgLayer(QStringLiteral("geom from roads using unique gid using srid=4326"));
    ClassDef c;
    StyleDef casing, fill;
    casing.color = Color::rgb(90, 30, 30);
    casing.width = 4.5;
    fill.color = Color::rgb(250, 200, 120);
    fill.width = 2.5;
    c.styles << casing << fill;
    l.classes << c;
    m->layers << l;
    const RenderResult banded = MapRenderer(m).render({});
    QVERIFY2(banded.ok(), qPrintable(banded.error));
    QCOMPARE(banded.trace.layers[0].features, qint64(5000));
    RenderResult single;
    {
        const RenderLoad::Scope another(RenderLoad::Scope::Kind::Elsewhere);  // as if a second request were rendering: one thread
        single = MapRenderer(m).render({});
    }
    QVERIFY2(single.ok(), qPrintable(single.error));
    QCOMPARE(banded.image, single.image);
    int fillPixels = 0;  // both bands drew: the fill colour in the top and the bottom half
    for (int y : {40, 260})
        for (int x = 0; x < 300; ++x) fillPixels += banded.image.pixel(x, y) == qRgb(250, 200, 120);
    QVERIFY(fillPixels > 0);
}

QTEST_MAIN(TestPostgisSource)
#include "test_postgis_source.moc"
