// Behind PgBouncer in transaction mode -- a site's way to let many MapTune
// instances share one PostgreSQL -- a statement prepared in one transaction
// may be gone in the next, on another server connection. The private
// PgBouncer of this test (scripts/pgbouncer-test, fixture "pgbouncer") runs
// DISCARD ALL after every transaction, so that it always is: draws find it
// out once and run unprepared from then on, with the right rows; the
// direct connection keeps its prepared statements; the setting turns them off.

#include "data/postgis/pg_connection_pool.h"
#include "postgis_test_support.h"

#include <QtTest>

using namespace maptune;
using namespace maptune::pgtest;

namespace {

const char* const kSetupPooler = R"SQL(
DROP TABLE IF EXISTS pooler_rows;
CREATE TABLE pooler_rows (gid integer PRIMARY KEY, geom geometry(Point,4326));
INSERT INTO pooler_rows SELECT i, ST_SetSRID(ST_MakePoint(i % 20, i / 20), 4326) FROM generate_series(1, 400) AS i;
)SQL";

const QString kData = QStringLiteral("geom from pooler_rows using unique gid using srid=4326");

LayerDef throughPooler(const QString& app)
{
    LayerDef l = pgLayer(kData, {}, app);
    l.connection.replace(QStringLiteral("port=") + pgPort(), QStringLiteral("port=%1").arg(MAPTUNE_PGBOUNCER_TEST_PORT));
    return l;
}

}  // namespace

class TestPostgisPooler : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { if (m_admin) PQfinish(m_admin); }

    void drawsFindThePoolerOnceAndRunUnprepared();
    void settingRunsStatementsUnprepared();

private:
    PGconn* m_admin = nullptr;
};

void TestPostgisPooler::initTestCase()
{
    connectAndCreateTables(m_admin, QStringLiteral("pooler_setup"), kSetupPooler);
}

void TestPostgisPooler::drawsFindThePoolerOnceAndRunUnprepared()
{
    const LayerDef pooled = throughPooler(QStringLiteral("pooler_draw"));
    const LayerDef direct = pgLayer(kData, {}, QStringLiteral("pooler_direct"));
    PgConnectionPool& pool = testEngine().pgPool();
    QVERIFY(pool.preparesStatements(pooled.connection));

    const QueryResult expected = runQuery(direct, {-1, -1, 5, 5});
    QVERIFY2(expected.ok, qPrintable(expected.error));
    QCOMPARE(expected.features.size(), 35);  // x 0..5 of rows y 1..5, x 1..5 of row 0
    QVERIFY(expected.traces.last().prepared);

    // The first draw prepares, finds its statement gone and runs again unprepared.
    const QueryResult first = runQuery(pooled, {-1, -1, 5, 5});
    QVERIFY2(first.ok, qPrintable(first.error));
    QCOMPARE(ids(first), ids(expected));
    QVERIFY(!first.traces.last().prepared);
    QVERIFY(!pool.preparesStatements(pooled.connection));
    QVERIFY(pool.preparesStatements(direct.connection));

    // From then on, unprepared at once, on every pooled connection of that key.
    for (const Rect& box : {Rect{-1, -1, 5, 5}, Rect{4, 4, 10, 10}}) {
        const QueryResult again = runQuery(pooled, box);
        QVERIFY2(again.ok, qPrintable(again.error));
        QCOMPARE(ids(again), ids(runQuery(direct, box)));
        QVERIFY(!again.traces.last().prepared);
        QVERIFY(again.traces.last().error.isEmpty());
    }
}

void TestPostgisPooler::settingRunsStatementsUnprepared()
{
    PgConnectionPool& pool = testEngine().pgPool();
    const LayerDef direct = pgLayer(kData, {}, QStringLiteral("pooler_setting"));
    pool.setPreparedStatements(false);
    const QueryResult r = runQuery(direct, {-1, -1, 5, 5});
    pool.setPreparedStatements(true);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.features.size(), 35);
    QVERIFY(!r.traces.last().prepared);
    QVERIFY(runQuery(direct, {-1, -1, 5, 5}).traces.last().prepared);
}

QTEST_MAIN(TestPostgisPooler)
#include "test_postgis_pooler.moc"
