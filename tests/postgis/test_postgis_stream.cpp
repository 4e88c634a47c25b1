// A draw's SELECT as it reaches the database: rows streamed while the
// statement still runs, the statement prepared once per connection, and a
// stream dropped or failed part-way leaving its connection clean in the pool.
// Against the shared test cluster (fixture "pg"), on tables of its own.

#include "data/postgis/pg_connection_pool.h"
#include "data/postgis/pg_result.h"
#include "postgis_test_support.h"

#include <QElapsedTimer>
#include <QThread>
#include <QtTest>

using namespace maptune;
using namespace maptune::pgtest;

namespace {

// 400 rows of ~1 KiB each (the server sends in 8 KiB buffers), the last
// one only after a pause: rows that arrive before it were streamed.
const char* const kSetupStream = R"SQL(
DROP TABLE IF EXISTS stream_rows;
CREATE TABLE stream_rows (gid integer PRIMARY KEY, pad text, geom geometry(Point,4326));
INSERT INTO stream_rows SELECT i, repeat('x', 1000), ST_SetSRID(ST_MakePoint(i % 20, i / 20), 4326)
  FROM generate_series(1, 400) AS i;
)SQL";

const QString kSlowLastRow = QStringLiteral(
    "geom from (select gid, pad, geom from stream_rows where gid < 400 or pg_sleep(%1) is not null) as s "
    "using unique gid using srid=4326");

const Rect kAll{-1, -1, 30, 30};

std::unique_ptr<FeatureSource> openSource(const LayerDef& layer)
{
    MapDef map;
    auto opened = openFeatureSource(map, layer, testEngine());
    return opened ? std::move(opened).value() : nullptr;
}

// All rows with their 1 KiB `pad` column.
Result<std::unique_ptr<FeatureCursor>> queryPadded(FeatureSource& src)
{
    FeatureQuery q;
    q.bbox = kAll;
    q.attributes = {QStringLiteral("pad")};
    return src.query(q);
}

// A streamed query of all padded rows with its first row read; `error`
// says what failed instead.
struct StartedStream {
    std::unique_ptr<FeatureSource> source;
    std::unique_ptr<FeatureCursor> cursor;
    Feature first;
    QString error;
};

StartedStream startStream(const LayerDef& layer)
{
    StartedStream s;
    s.source = openSource(layer);
    if (!s.source) return {nullptr, nullptr, {}, QStringLiteral("the source does not open")};
    auto cursor = queryPadded(*s.source);
    if (!cursor) return {nullptr, nullptr, {}, cursor.message()};
    s.cursor = std::move(cursor).value();
    if (!s.cursor->next(s.first)) s.error = QStringLiteral("no first row: ") + s.cursor->error();
    return s;
}

// The state of the test's other backends with this application name.
QString backendState(PGconn* admin, const QString& app)
{
    const QByteArray sql = "SELECT state FROM pg_stat_activity WHERE application_name = '" + app.toUtf8() + "'";
    const PgResult r(PQexec(admin, sql.constData()));
    return PQntuples(r.get()) == 1 ? QString::fromUtf8(PQgetvalue(r.get(), 0, 0)) : QStringLiteral("(%1 backends)").arg(PQntuples(r.get()));
}

}  // namespace

class TestPostgisStream : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase() { if (m_admin) PQfinish(m_admin); }

    void rowsArriveWhileTheStatementRuns();
    void statementIsPreparedOncePerConnection();
    void droppedStreamLeavesItsConnectionIdle();
    void errorPartWayIsReportedAndLeavesTheConnectionUsable();
    void deallocatedStatementRunsTheKeyUnprepared();
    void unpooledConnectionsRunUnprepared();
    void readerWorksWhileTheNextRowIsOnItsWay();
    void everyRowComesOnceInOrderAcrossBatches();

private:
    PGconn* m_admin = nullptr;
};

void TestPostgisStream::initTestCase()
{
    connectAndCreateTables(m_admin, QStringLiteral("stream_setup"), kSetupStream);
}

void TestPostgisStream::rowsArriveWhileTheStatementRuns()
{
    const QString app = QStringLiteral("stream_slow");
    const LayerDef l = pgLayer(kSlowLastRow.arg(2), {}, app);
    StartedStream stream = startStream(l);
    QVERIFY2(stream.error.isEmpty(), qPrintable(stream.error));
    QCOMPARE(stream.first.values.value(0).size(), 1000);
    // The first row is here; the server is still on the last one.
    QCOMPARE(backendState(m_admin, app), QStringLiteral("active"));
    int rows = 1;
    Feature f;
    while (stream.cursor->next(f)) ++rows;
    QCOMPARE(stream.cursor->error(), QString());
    QCOMPARE(rows, 400);
    QCOMPARE(backendState(m_admin, app), QStringLiteral("idle"));
    const QList<DbTrace> traces = stream.source->takeDbTraces();
    QCOMPARE(traces.last().rows, qint64(400));
    QVERIFY(traces.last().fetchMs > traces.last().queryMs);
    // The lease went back to the pool with the last row, not with the cursor.
    QCOMPARE(testEngine().pgPool().stats(l.connection).idle, 1);
}

void TestPostgisStream::statementIsPreparedOncePerConnection()
{
    const QString app = QStringLiteral("stream_prepared");
    const LayerDef l = pgLayer(QStringLiteral("geom from stream_rows using unique gid using srid=4326"), {}, app);
    const QueryResult first = runQuery(l, {-1, -1, 5, 5});
    QVERIFY2(first.ok, qPrintable(first.error));
    const QueryResult second = runQuery(l, {4, 4, 10, 10});
    QVERIFY2(second.ok, qPrintable(second.error));
    QVERIFY(first.traces.last().prepared && second.traces.last().prepared);
    QVERIFY(!second.traces.last().newConnection);
    QVERIFY(ids(first) != ids(second));  // the bbox is bound, not planned in
    // The statement lives on the pooled connection, under one name.
    Result<PgLease> lease = testEngine().pgPool().acquire(l.connection);
    QVERIFY(lease);
    QCOMPARE(lease->preparedStatements().size(), 1);
    const PgResult r = execText(lease->conn(), QStringLiteral("SELECT count(*) FROM pg_prepared_statements WHERE name LIKE 'maptune_%'"));
    QCOMPARE(QByteArray(PQgetvalue(r.get(), 0, 0)), QByteArray("1"));
}

void TestPostgisStream::droppedStreamLeavesItsConnectionIdle()
{
    const QString app = QStringLiteral("stream_dropped");
    const LayerDef l = pgLayer(kSlowLastRow.arg(30), {}, app);
    {
        const StartedStream stream = startStream(l);
        QVERIFY2(stream.error.isEmpty(), qPrintable(stream.error));
        QCOMPARE(backendState(m_admin, app), QStringLiteral("active"));
    }  // dropped 30 s before the statement would end: cancelled and drained
    const PgPoolStats s = testEngine().pgPool().stats(l.connection);
    QCOMPARE(s.inUse, 0);
    QCOMPARE(s.idle, 1);
    QCOMPARE(backendState(m_admin, app), QStringLiteral("idle"));
    const QueryResult again = runQuery(pgLayer(QStringLiteral("geom from stream_rows using unique gid using srid=4326"), {}, app),
                                       {-1, -1, 5, 5});
    QVERIFY2(again.ok, qPrintable(again.error));
    QVERIFY(!again.traces.last().newConnection);
}

void TestPostgisStream::errorPartWayIsReportedAndLeavesTheConnectionUsable()
{
    const QString app = QStringLiteral("stream_error");
    // Division by zero at the 300th row, after 299 rows were sent.
    const LayerDef l = pgLayer(QStringLiteral("geom from (select gid, pad, geom, 1 / (300 - gid) as boom from stream_rows) as s "
                                              "using unique gid using srid=4326"),
                               {}, app);
    const QueryResult r = runQuery(l, kAll, {QStringLiteral("pad"), QStringLiteral("boom")});
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains("division by zero"), qPrintable(r.error));
    QVERIFY(r.features.size() > 0 && r.features.size() < 300);
    QCOMPARE(r.traces.last().error, r.error);
    const PgPoolStats s = testEngine().pgPool().stats(l.connection);
    QCOMPARE(s.inUse, 0);
    QCOMPARE(s.idle, 1);
    const QueryResult again = runQuery(l, {-1, -1, 5, 5}, {QStringLiteral("pad")});
    QVERIFY2(again.ok, qPrintable(again.error));
    QVERIFY(!again.traces.last().newConnection);
}

void TestPostgisStream::deallocatedStatementRunsTheKeyUnprepared()
{
    const QString app = QStringLiteral("stream_deallocated");
    const LayerDef l = pgLayer(QStringLiteral("geom from stream_rows using unique gid using srid=4326"), {}, app);
    QVERIFY(runQuery(l, {-1, -1, 5, 5}).ok);
    {
        // Something else on the connection (a pooler resetting it) drops the statement.
        Result<PgLease> lease = testEngine().pgPool().acquire(l.connection);
        QVERIFY(lease);
        QCOMPARE(PQresultStatus(execText(lease->conn(), QStringLiteral("DEALLOCATE ALL")).get()), PGRES_COMMAND_OK);
    }
    // Only a pooler between us and the server drops our statements: the
    // draw runs again, unprepared, as every later one on this key.
    QVERIFY(testEngine().pgPool().preparesStatements(l.connection));
    const QueryResult r = runQuery(l, {-1, -1, 5, 5});
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(r.traces.last().newConnection);
    QVERIFY(!r.traces.last().prepared);
    QVERIFY(!testEngine().pgPool().preparesStatements(l.connection));
    QCOMPARE(testEngine().pgPool().stats(l.connection).open, 1);
    QVERIFY(!runQuery(l, {-1, -1, 5, 5}).traces.last().prepared);
}

void TestPostgisStream::unpooledConnectionsRunUnprepared()
{
    const LayerDef l = pgLayer(QStringLiteral("geom from stream_rows using unique gid using srid=4326"),
                               {QStringLiteral("CLOSE_CONNECTION=ALWAYS")}, QStringLiteral("stream_unpooled"));
    const QueryResult r = runQuery(l, {-1, -1, 5, 5});
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(!r.traces.last().prepared);
    QVERIFY(r.features.size() > 0);
    QCOMPARE(testEngine().pgPool().stats(l.connection).open, 0);
}

// While the server has not sent the next row, the reading thread does the
// query's whileWaiting work (a renderer draws the features already read);
// that time is not the rows' fetch time.
void TestPostgisStream::readerWorksWhileTheNextRowIsOnItsWay()
{
    const LayerDef l = pgLayer(kSlowLastRow.arg(0.3), {}, QStringLiteral("stream_work"));
    const std::unique_ptr<FeatureSource> source = openSource(l);
    QVERIFY(source);
    QVERIFY(source->readsFromServer());
    int calls = 0, worked = 0;
    FeatureQuery q;
    q.bbox = kAll;
    q.attributes = {QStringLiteral("pad")};
    q.whileWaiting = [&] {
        ++calls;
        if (worked == 5) return false;
        ++worked;
        QThread::msleep(40);
        return true;
    };
    QElapsedTimer reading;
    reading.start();
    auto cursor = source->query(q);
    QVERIFY2(cursor, qPrintable(cursor.message()));
    int rows = 0;
    Feature f;
    while ((*cursor)->next(f)) ++rows;
    const double elapsedMs = reading.nsecsElapsed() / 1e6;
    QCOMPARE((*cursor)->error(), QString());
    QCOMPARE(rows, 400);
    QCOMPARE(worked, 5);       // 200 ms of work inside the 300 ms the last row took
    QVERIFY(calls > worked);   // then nothing to do: it slept until the row came
    const DbTrace trace = source->takeDbTraces().last();
    QVERIFY2(trace.fetchMs <= elapsedMs - 200, qPrintable(QStringLiteral("fetch %1 ms of %2").arg(trace.fetchMs).arg(elapsedMs)));
    QVERIFY2(trace.fetchMs > 30, qPrintable(QStringLiteral("fetch %1 ms").arg(trace.fetchMs)));  // the rest of the wait
}


// Many rows with some lacking geometry: none lost, repeated or reordered,
// a feature handed back keeping nothing of an earlier row.
void TestPostgisStream::everyRowComesOnceInOrderAcrossBatches()
{
    const LayerDef l = pgLayer(
        QStringLiteral("geom from (select gid, gid::text as label, case when gid % 7 = 0 then null "
                       "when gid % 11 = 0 then 'LINESTRING EMPTY'::geometry "
                       "else ST_SetSRID(ST_MakeLine(ST_MakePoint(0, 0), ST_MakePoint(gid, gid % 5)), 4326) end as geom "
                       "from generate_series(1, 1000) as gid order by gid) as s using unique gid using srid=4326"),
        {}, QStringLiteral("stream_batches"));
    QElapsedTimer clock;
    clock.start();
    const QueryResult r = runQuery(l, Rect{}, {QStringLiteral("label")});
    const double elapsedMs = double(clock.nsecsElapsed()) / 1e6;
    QVERIFY2(r.ok, qPrintable(r.error));
    QList<qint64> expected;
    for (qint64 gid = 1; gid <= 1000; ++gid)
        if (gid % 7 != 0 && gid % 11 != 0) expected << gid;
    QCOMPARE(r.features.size(), expected.size());
    for (qsizetype i = 0; i < r.features.size(); ++i) {
        const Feature& f = r.features[i];
        QCOMPARE(f.id, expected[i]);
        QCOMPARE(f.values, QStringList{QString::number(expected[i])});
        QCOMPARE(f.geometry.pointCount(), 2);
        QCOMPARE(f.geometry.xy[2], double(expected[i]));
    }
    QCOMPARE(r.traces.last().rows, qint64(1000));
    // Decoding is timed on a sample of the rows and scaled: still a real,
    // bounded figure.
    QVERIFY2(r.traces.last().fetchMs > 0 && r.traces.last().fetchMs < elapsedMs,
             qPrintable(QStringLiteral("fetch %1 ms of %2").arg(r.traces.last().fetchMs).arg(elapsedMs)));
}

QTEST_MAIN(TestPostgisStream)
#include "test_postgis_stream.moc"
