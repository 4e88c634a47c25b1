// The PostGIS row cache against the shared test cluster (fixture "pg"), on a
// table of its own: a second draw asks only for tuple ids and returns the
// same features; edits (UPDATE, DELETE, INSERT), a table rewrite (VACUUM
// FULL, TRUNCATE) and inheritance children are seen at once; sources the
// cache cannot key (subselects, views, feature info, ROW_CACHE=OFF) read
// full rows. Every draw is compared with a cacheless draw of the same box.

#include "postgis_test_support.h"

#include <QtTest>

using namespace maptune;
using namespace maptune::pgtest;

namespace {

const char* const kSetupCache = R"SQL(
DROP VIEW IF EXISTS cached_view;
DROP TABLE IF EXISTS cached_child, cached_roads;
CREATE TABLE cached_roads (gid integer PRIMARY KEY, name text, geom geometry(LineString,4326));
INSERT INTO cached_roads SELECT i, 'road ' || i,
  ST_MakeLine(ST_MakePoint(i % 50, i / 50), ST_MakePoint(i % 50 + 0.5, i / 50 + 0.5))::geometry(LineString,4326)
  FROM generate_series(1, 2000) AS i;
INSERT INTO cached_roads VALUES (5001, 'no geometry', NULL), (5002, 'empty', 'SRID=4326;LINESTRING EMPTY');
CREATE INDEX cached_roads_geom ON cached_roads USING GIST (geom);
CREATE VIEW cached_view AS SELECT * FROM cached_roads;
ANALYZE cached_roads;
)SQL";

const Rect kBox{-1, -1, 20.2, 10.2};

// Tables are never read whole here (test_postgis_whole_table covers that).
EngineContextPtr cachingEngine(size_t bytes = size_t(16) << 20)
{
    return std::make_shared<const EngineContext>(PgPoolSettings{}, bytes, 0);
}

LayerDef layer(const QString& data = QStringLiteral("geom from cached_roads using unique gid using srid=4326"),
               const QStringList& processing = {})
{
    return pgLayer(data, processing, QStringLiteral("row_cache"));
}

}  // namespace

class TestPostgisRowCache : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { connectAndCreateTables(m_admin, QStringLiteral("row_cache_setup"), kSetupCache); }
    void init() { QVERIFY(exec(m_admin, kSetupCache)); }
    void cleanupTestCase() { if (m_admin) PQfinish(m_admin); }

    void secondDrawAsksForTupleIdsOnly();
    void editsAreSeenAtOnce();
    void tableRewriteIsSeen();
    void emptyBoxRunsThePlainStatementOnce();
    void sourcesTheCacheCannotKeyReadFullRows_data();
    void sourcesTheCacheCannotKeyReadFullRows();
    void inheritanceChildrenTurnTheCacheOff();
    void rowCacheOption();
    void featureInfoReadsFullRows();
    void tinyBudgetStillDrawsEveryRow();
    void cancelledDrawFetchesNothing();

private:
    // The same box without a cache: what every cached draw must return.
    QStringList plain(const Rect& box = kBox) { return described(drawLayer(layer(), box, testEngine())); }
    QueryResult cached(const EngineContext& e, const Rect& box = kBox) { return drawLayer(layer(), box, e); }
    // The layer's source, after a draw of kBox filled the cache; null if it cannot open.
    std::unique_ptr<FeatureSource> warmSource(const EngineContext& e)
    {
        cached(e);
        MapDef map;
        auto src = openFeatureSource(map, layer(), e);
        return src ? std::move(src).value() : nullptr;
    }
    static FeatureQuery nameQuery(const Rect& box, bool sourceIds)
    {
        FeatureQuery q;
        q.bbox = box;
        q.attributes = {QStringLiteral("name")};
        q.sourceIds = sourceIds;
        return q;
    }

    PGconn* m_admin = nullptr;
};

void TestPostgisRowCache::secondDrawAsksForTupleIdsOnly()
{
    const EngineContextPtr engine = cachingEngine();
    const QueryResult first = cached(*engine);
    QVERIFY2(first.ok, qPrintable(first.error));
    QCOMPARE(described(first), plain());
    QVERIFY(first.features.size() > 100);
    const DbTrace* filled = traceStarting(first, "SELECT \"name\"::text,ST_AsBinary");
    QVERIFY(filled);
    QVERIFY2(filled->sql.contains(QLatin1String(",ctid,xmin FROM")), qPrintable(filled->sql));
    QVERIFY(filled->sql.contains(QLatin1String("pg_relation_filenode(")));

    const QueryResult second = cached(*engine);
    QVERIFY2(second.ok, qPrintable(second.error));
    QCOMPARE(described(second), described(first));
    QCOMPARE(second.traces.size(), 1);
    const DbTrace& ids = second.traces[0];
    QVERIFY2(ids.sql.startsWith(QLatin1String("SELECT ctid,xmin FROM \"cached_roads\" WHERE")), qPrintable(ids.sql));
    QCOMPARE(ids.cachedRows, ids.rows);
    QVERIFY(ids.bytes < filled->bytes / 3);
    QCOMPARE(ids.params.size(), 4);  // the box, still bound

    // A box partly outside the first: the new rows fetched by ctid, the rest cached.
    const Rect wider{-1, -1, 20.2, 14.2};
    const QueryResult third = cached(*engine, wider);
    QVERIFY2(third.ok, qPrintable(third.error));
    QCOMPARE(described(third), plain(wider));
    const DbTrace* fetched = traceStarting(third, "SELECT \"name\"::text,ST_AsBinary");
    QVERIFY(fetched);
    QVERIFY2(fetched->sql.contains(QLatin1String("WHERE ctid = ANY($1::tid[])")), qPrintable(fetched->sql));
    QCOMPARE(fetched->rows + third.traces[0].cachedRows, third.traces[0].rows);
    QVERIFY(fetched->rows > 0 && third.traces[0].cachedRows > 0);
}

void TestPostgisRowCache::editsAreSeenAtOnce()
{
    const EngineContextPtr engine = cachingEngine();
    QCOMPARE(described(cached(*engine)), plain());
    QVERIFY(exec(m_admin, "UPDATE cached_roads SET name = 'renamed' WHERE gid = 60"));
    QVERIFY(exec(m_admin, "UPDATE cached_roads SET geom = ST_Translate(geom, 0.25, 0) WHERE gid = 61"));
    QVERIFY(exec(m_admin, "DELETE FROM cached_roads WHERE gid = 62"));
    QVERIFY(exec(m_admin, "INSERT INTO cached_roads VALUES (9000, 'new', 'SRID=4326;LINESTRING(3 3, 4 4)')"));
    const QueryResult r = cached(*engine);
    QVERIFY2(r.ok, qPrintable(r.error));
    const QStringList now = described(r);
    QCOMPARE(now, plain());
    QVERIFY(now.filter(QStringLiteral("renamed:")).size() == 1);
    QVERIFY(now.filter(QStringLiteral("new:3 3 4 4")).size() == 1);
    QVERIFY(now.filter(QStringLiteral("road 62:")).isEmpty());
    // The changed rows, and only they, were read again.
    const DbTrace* fetched = traceStarting(r, "SELECT \"name\"::text,ST_AsBinary");
    QVERIFY(fetched);
    QCOMPARE(fetched->rows, 3);

    // After VACUUM the dead versions' line pointers may be reused by new rows.
    QVERIFY(exec(m_admin, "VACUUM cached_roads"));
    QVERIFY(exec(m_admin, "INSERT INTO cached_roads SELECT 10000 + i, 'reused ' || i, 'SRID=4326;LINESTRING(5 5, 6 6)' "
                          "FROM generate_series(1, 20) AS i"));
    QCOMPARE(described(cached(*engine)), plain());
}

void TestPostgisRowCache::tableRewriteIsSeen()
{
    const EngineContextPtr engine = cachingEngine();
    QCOMPARE(described(cached(*engine)), plain());
    // CLUSTER rewrites the table in another order into a new file: ctids
    // point to other rows, with the xmin of the one bulk insert.
    QVERIFY(exec(m_admin, "CREATE INDEX IF NOT EXISTS cached_roads_name ON cached_roads (name DESC)"));
    QVERIFY(exec(m_admin, "CLUSTER cached_roads USING cached_roads_name"));
    const QueryResult afterRewrite = cached(*engine);
    QVERIFY2(afterRewrite.ok, qPrintable(afterRewrite.error));
    QCOMPARE(described(afterRewrite), plain());
    // The guarded statement found nothing; the plain one ran and had rows.
    QCOMPARE(afterRewrite.traces.size(), 2);
    QCOMPARE(afterRewrite.traces[0].rows, 0);
    QVERIFY(!afterRewrite.traces[1].sql.contains(QLatin1String("ctid")));
    // The next draw learns the new file and fills the cache again.
    const QueryResult next = cached(*engine);
    QCOMPARE(described(next), plain());
    QVERIFY(traceStarting(next, "SELECT c.oid, pg_relation_filenode"));
    QCOMPARE(described(cached(*engine)), plain());
    QCOMPARE(cached(*engine).traces.value(0).cachedRows, cached(*engine).traces.value(0).rows);

    QVERIFY(exec(m_admin, "TRUNCATE cached_roads"));
    QVERIFY(exec(m_admin, "INSERT INTO cached_roads VALUES (1, 'after truncate', 'SRID=4326;LINESTRING(1 1, 2 2)')"));
    const QueryResult afterTruncate = cached(*engine);
    QCOMPARE(described(afterTruncate), plain());
    QCOMPARE(described(afterTruncate), QStringList{QStringLiteral("after truncate:1 1 2 2 ")});
}

void TestPostgisRowCache::emptyBoxRunsThePlainStatementOnce()
{
    const EngineContextPtr engine = cachingEngine();
    cached(*engine);
    const Rect nowhere{500, 500, 501, 501};
    const QueryResult r = cached(*engine, nowhere);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.features.isEmpty());
    QCOMPARE(r.traces.size(), 2);  // the guarded statement, then the plain one
    QVERIFY(!r.traces[1].sql.contains(QLatin1String("pg_relation_filenode")));
    // No rows there either: the table version still holds, no lookup follows.
    const QueryResult back = cached(*engine);
    QCOMPARE(back.traces.size(), 1);
    QCOMPARE(back.traces[0].cachedRows, back.traces[0].rows);
}

void TestPostgisRowCache::sourcesTheCacheCannotKeyReadFullRows_data()
{
    QTest::addColumn<QString>("data");
    QTest::newRow("subselect") << "geom from (select * from cached_roads) as r using unique gid using srid=4326";
    QTest::newRow("view") << "geom from cached_view using unique gid using srid=4326";
}

void TestPostgisRowCache::sourcesTheCacheCannotKeyReadFullRows()
{
    QFETCH(QString, data);
    const EngineContextPtr engine = cachingEngine();
    for (int draw = 0; draw < 2; ++draw) {
        const QueryResult r = drawLayer(layer(data), kBox, *engine);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(described(r), plain());
        for (const DbTrace& t : r.traces) {
            QVERIFY2(!t.sql.contains(QLatin1String("ctid")), qPrintable(t.sql));
            QCOMPARE(t.cachedRows, 0);
        }
    }
    QCOMPARE(engine->sharedPgRowCache()->bytes(), size_t(0));
}

void TestPostgisRowCache::inheritanceChildrenTurnTheCacheOff()
{
    const EngineContextPtr engine = cachingEngine();
    QCOMPARE(described(cached(*engine)), plain());
    cached(*engine);
    // A child's rows have ctids of their own file that repeat the parent's.
    QVERIFY(exec(m_admin, "CREATE TABLE cached_child () INHERITS (cached_roads)"));
    QVERIFY(exec(m_admin, "INSERT INTO cached_child VALUES (7000, 'child', 'SRID=4326;LINESTRING(2 2, 3 3)')"));
    for (int draw = 0; draw < 3; ++draw) {
        const QueryResult r = cached(*engine);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(described(r), plain());
        QVERIFY(described(r).filter(QStringLiteral("child:")).size() == 1);
    }
    const QueryResult last = cached(*engine);
    QVERIFY(!last.traces.last().sql.contains(QLatin1String("ctid")));
}

void TestPostgisRowCache::rowCacheOption()
{
    const EngineContextPtr engine = cachingEngine();
    const LayerDef off = layer(QStringLiteral("geom from cached_roads using unique gid using srid=4326"), {QStringLiteral("ROW_CACHE=OFF")});
    for (int draw = 0; draw < 2; ++draw) {
        const QueryResult r = drawLayer(off, kBox, *engine);
        QCOMPARE(described(r), plain());
        QCOMPARE(r.traces.size(), 1);
        QVERIFY(!r.traces[0].sql.contains(QLatin1String("ctid")));
    }
    const LayerDef bad = layer(QStringLiteral("geom from cached_roads using unique gid using srid=4326"), {QStringLiteral("ROW_CACHE=maybe")});
    const QueryResult r = drawLayer(bad, kBox, *engine);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QLatin1String("ROW_CACHE=MAYBE")) && r.error.contains(QLatin1String("ON or OFF")), qPrintable(r.error));
}

void TestPostgisRowCache::featureInfoReadsFullRows()
{
    const EngineContextPtr engine = cachingEngine();
    const std::unique_ptr<FeatureSource> src = warmSource(*engine);
    QVERIFY(src);
    const FeatureQuery q = nameQuery({0, 0, 2.2, 0.2}, true);  // GetFeatureInfo: the table's own keys
    auto cursor = src->query(q);
    QVERIFY(cursor);
    QList<qint64> ids;
    Feature f;
    while ((*cursor)->next(f)) ids << f.id;
    std::sort(ids.begin(), ids.end());
    QCOMPARE(ids, (QList<qint64>{1, 2}));
    const QList<DbTrace> traces = src->takeDbTraces();
    QVERIFY(traces.last().sql.contains(QLatin1String("\"gid\"::text")));
    QVERIFY(!traces.last().sql.contains(QLatin1String("ctid")));
}

void TestPostgisRowCache::tinyBudgetStillDrawsEveryRow()
{
    const EngineContextPtr engine = cachingEngine(4096);
    for (int draw = 0; draw < 3; ++draw) {
        const QueryResult r = cached(*engine);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(described(r), plain());
    }
    QVERIFY(engine->sharedPgRowCache()->bytes() <= 4096);
}

void TestPostgisRowCache::cancelledDrawFetchesNothing()
{
    const EngineContextPtr engine = cachingEngine();
    const std::unique_ptr<FeatureSource> src = warmSource(*engine);
    QVERIFY(src);
    const FeatureQuery q = nameQuery({-1, -1, 49.7, 39.7}, false);  // all 2000 roads; kBox's cached, the rest not
    auto cursor = src->query(q);
    QVERIFY(cursor);
    Feature f;
    QVERIFY((*cursor)->next(f));  // the first ids come from the cache
    q.cancel.cancel();
    int more = 0;
    while ((*cursor)->next(f)) ++more;
    QVERIFY(more < 1999);
    for (const DbTrace& t : src->takeDbTraces()) QVERIFY2(!t.sql.contains(QLatin1String("ANY($1::tid[])")), qPrintable(t.sql));
    // The cache is as it was: the whole area drawn next is complete.
    QCOMPARE(described(cached(*engine, q.bbox)), plain(q.bbox));
}

QTEST_GUILESS_MAIN(TestPostgisRowCache)
#include "test_postgis_row_cache.moc"
