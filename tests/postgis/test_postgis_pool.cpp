// The PostgreSQL connection pool against a private test cluster (fixture
// "pg_pool": its own port and data dir, because the last test stops and
// starts it): reuse, the bound and its timeout, CLOSE_CONNECTION=ALWAYS, no
// leaks on errors, the statement timeout, load from many threads and
// recovery after a server restart. A run that cannot reach the cluster
// fails: it never skips.

#include "data/postgis/pg_connection_pool.h"
#include "data/postgis/pg_conninfo.h"
#include "postgis_test_support.h"
#include "render/map_renderer.h"

#include <QElapsedTimer>
#include <QMutex>
#include <QProcess>
#include <QThread>
#include <QtTest>

#include <atomic>

using namespace maptune;
using namespace maptune::pgtest;

namespace {

int clusterScript(const QString& cmd)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedChannels);
    p.start(QStringLiteral(MAPTUNE_SOURCE_DIR "/scripts/pg-test-cluster"),
            {cmd, qEnvironmentVariable("MAPTUNE_PG_TEST_DIR", QStringLiteral(MAPTUNE_PG_TEST_DIR)), pgPort()});
    p.waitForFinished(120000);
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

}  // namespace

class TestPostgisPool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { connectAndCreateTables(m_admin); }
    void cleanupTestCase() { if (m_admin) PQfinish(m_admin); }

    void poolReusesConnections();
    void threadGetsBackItsOwnConnection();
    void poolBoundTimesOut();
    void closeConnectionAlways();
    void errorsAreClearAndLeakNothing_data();
    void errorsAreClearAndLeakNothing();
    void statementTimeout();
    void loadNeverExceedsPoolSize();
    void poolKeyKeepsCredentials_data();
    void poolKeyKeepsCredentials();
    void credentialsAreNeverShared();
    void recoversAfterServerRestart();

private:
    PGconn* m_admin = nullptr;
};

void TestPostgisPool::poolReusesConnections()
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
    const PgPoolStats s = testEngine().pgPool().stats(l.connection);
    QCOMPARE(s.open, 1);
    QCOMPARE(s.idle, 1);
    QCOMPARE(s.connects, qint64(1));
    // Another program context has a pool of its own: it never gets this connection.
    const EngineContext other;
    const QueryResult elsewhere = runQuery(l, {-1, -1, 2, 2}, {}, other);
    QVERIFY2(elsewhere.ok, qPrintable(elsewhere.error));
    QVERIFY(elsewhere.traces[0].newConnection);
    QCOMPARE(other.pgPool().stats(l.connection).open, 1);
    QCOMPARE(testEngine().pgPool().stats(l.connection).open, 1);
    qInfo("first draw: connect %.2f ms + query %.2f ms; pooled draw: wait %.3f ms + query %.2f ms",
          first.traces[0].connectMs, first.traces[0].queryMs, second.traces[0].poolWaitMs, second.traces[0].queryMs);
}

// Two request threads each get back the connection they used last, not the
// one given back last: the server process they wake then last ran on their
// core, and the kernel keeps the two on one core.
void TestPostgisPool::threadGetsBackItsOwnConnection()
{
    PgConnectionPool pool;
    const QString info = conninfo(QStringLiteral("affinity"));
    Result<PgLease> mine = pool.acquire(info);
    QVERIFY2(mine, qPrintable(mine.message()));
    PGconn* const myConn = mine->conn();
    PGconn* theirConn = nullptr;
    std::unique_ptr<QThread> other(QThread::create([&] {
        Result<PgLease> theirs = pool.acquire(info);
        if (!theirs) return;
        theirConn = theirs->conn();
        mine->release();  // given back first ...
    }));  // ... theirs when the thread ends: the most recent
    other->start();
    QVERIFY(other->wait(30000));
    QVERIFY(theirConn && theirConn != myConn);
    QCOMPARE(pool.stats(info).idle, 2);
    // Without the preference this is theirs, the last given back.
    Result<PgLease> again = pool.acquire(info);
    QVERIFY(again);
    QCOMPARE(again->conn(), myConn);
    QCOMPARE(pool.stats(info).idle, 1);
}

void TestPostgisPool::poolBoundTimesOut()
{
    PgConnectionPool& pool = testEngine().pgPool();
    const int oldMax = pool.maxPerKey(), oldTimeout = pool.acquireTimeoutMs();
    pool.setMaxPerKey(2);
    pool.setAcquireTimeoutMs(300);
    const QString info = conninfo(QStringLiteral("bound"));
    Result<PgLease> a = pool.acquire(info);
    Result<PgLease> b = pool.acquire(info);
    QVERIFY2(a && b, qPrintable(a.message() + b.message()));
    QElapsedTimer timer;
    timer.start();
    const Result<PgLease> c = pool.acquire(info);
    const qint64 waited = timer.elapsed();
    QVERIFY(!c);
    const QString err = c.message();
    QVERIFY2(err.contains("no free PostgreSQL connection") && err.contains("--pg-pool-size"), qPrintable(err));
    QVERIFY(!err.contains(kPassword));
    QVERIFY(waited >= 290 && waited < 3000);
    QCOMPARE(pool.stats(info).timeouts, qint64(1));
    QCOMPARE(pool.stats(info).open, 2);
    // A lease returned while someone waits wakes the waiter.
    pool.setAcquireTimeoutMs(5000);
    std::atomic_bool reused = false;
    QString waiterError;
    std::unique_ptr<QThread> waiter(QThread::create([&] {
        const Result<PgLease> d = pool.acquire(info);
        waiterError = d.message();
        reused = d && !d->isNew();
    }));
    waiter->start();
    QThread::msleep(100);
    b->release();
    QVERIFY(waiter->wait(6000));
    QVERIFY2(reused, qPrintable(waiterError));
    QVERIFY(pool.stats(info).waits >= 2);
    pool.setMaxPerKey(oldMax);
    pool.setAcquireTimeoutMs(oldTimeout);
}

void TestPostgisPool::closeConnectionAlways()
{
    const LayerDef l = pgLayer(QStringLiteral("geom from roads using srid=4326"), {"CLOSE_CONNECTION=ALWAYS"}, QStringLiteral("always"));
    for (int i = 0; i < 2; ++i) {
        const QueryResult r = runQuery(l, {-1, -1, 2, 2});
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.traces[0].newConnection);
        QVERIFY(r.traces[0].connectMs > 0);
    }
    QCOMPARE(testEngine().pgPool().stats(l.connection).open, 0);
}

void TestPostgisPool::errorsAreClearAndLeakNothing_data()
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

void TestPostgisPool::errorsAreClearAndLeakNothing()
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
    const PgPoolStats s = testEngine().pgPool().stats(l.connection);
    QCOMPARE(s.inUse, 0);         // every lease came back...
    QVERIFY(s.open == s.idle);    // ...and nothing is open beyond the idle ones
    QVERIFY(s.open <= 1);
}

void TestPostgisPool::statementTimeout()
{
    PgConnectionPool& pool = testEngine().pgPool();
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

void TestPostgisPool::loadNeverExceedsPoolSize()
{
    PgConnectionPool& pool = testEngine().pgPool();
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

void TestPostgisPool::poolKeyKeepsCredentials_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("same");
    QTest::newRow("password case") << "host=h user=u password=Secret" << "host=h user=u password=secret" << false;
    QTest::newRow("user case") << "host=h user=Bob" << "host=h user=bob" << false;
    QTest::newRow("uri password case") << "postgresql://u:Secret@h/db" << "postgresql://u:secret@h/db" << false;
    QTest::newRow("spacing") << "host=h  user=u   dbname=d" << " host=h user=u dbname=d " << true;
    QTest::newRow("order") << "user=u host=h" << "host=h user=u" << true;
    QTest::newRow("quoting") << "host=h password='a b'" << "host=h password = 'a b'" << true;
    QTest::newRow("uri and key=value") << "postgresql://u@h:5432/d" << "host=h port=5432 user=u dbname=d" << true;
    QTest::newRow("unparsable strings stay apart") << "host='h" << "host='H" << false;
}

void TestPostgisPool::poolKeyKeepsCredentials()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, same);
    QCOMPARE(pgConnInfoKey(a) == pgConnInfoKey(b), same);
}

// The security bug this pins down: the pool used to key on the lower-cased
// string, so a mapfile with the wrong-case password was served on a
// connection another mapfile had authenticated. A role that must log in with
// a scram-sha-256 password (pg-test-cluster's pg_hba.conf) proves it for real.
void TestPostgisPool::credentialsAreNeverShared()
{
    QVERIFY(exec(m_admin, "SET password_encryption = 'scram-sha-256'"));
    QVERIFY(exec(m_admin, "DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'maptune_scram') "
                          "THEN EXECUTE 'DROP OWNED BY maptune_scram'; END IF; END $$"));
    QVERIFY(exec(m_admin, "DROP ROLE IF EXISTS maptune_scram"));
    QVERIFY(exec(m_admin, "CREATE ROLE maptune_scram LOGIN PASSWORD 'Right-Pw-42'"));
    QVERIFY(exec(m_admin, "GRANT SELECT ON roads TO maptune_scram"));

    auto layer = [](const QString& name, const QString& password) {
        LayerDef l = pgLayer(QStringLiteral("geom from roads using srid=4326"));
        l.name = name;
        l.connection = QStringLiteral("host=%1 port=%2 dbname=maptune_test user=maptune_scram password=%3 application_name=creds")
                           .arg(pgHost(), pgPort(), password);
        ClassDef c;
        StyleDef s;
        s.color = Color::rgb(0, 0, 255);
        c.styles << s;
        l.classes << c;
        return l;
    };
    const LayerDef right = layer(QStringLiteral("right"), QStringLiteral("Right-Pw-42"));
    const LayerDef wrong = layer(QStringLiteral("wrong"), QStringLiteral("right-pw-42"));
    auto m = std::make_shared<MapDef>();
    m->width = 50;
    m->height = 50;
    m->extent = {-0.5, -0.5, 2.5, 2.5};
    m->layers << right << wrong;

    // Twice: the second time a connection authenticated as "right" sits idle.
    const MapRenderer renderer(PreparedMap::prepare(m, testEnginePtr()));
    for (int round = 0; round < 2; ++round) {
        const RenderResult r = renderer.render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.trace.layers.size(), 2);
        QVERIFY2(r.trace.layers[0].error.isEmpty(), qPrintable(r.trace.layers[0].error));
        QCOMPARE(r.trace.layers[0].features, qint64(2));
        const QString error = r.trace.layers[1].error;
        QVERIFY2(error.contains("layer 'wrong'") && error.contains("password authentication failed"), qPrintable(error));
        QVERIFY2(!error.contains("ight-pw-42", Qt::CaseInsensitive), qPrintable(error));
        QCOMPARE(r.trace.layers[1].features, qint64(0));
    }
    const PgConnectionPool& pool = testEngine().pgPool();
    QCOMPARE(pool.stats(right.connection).idle, 1);
    QCOMPARE(pool.stats(right.connection).connects, qint64(1));
    QCOMPARE(pool.stats(wrong.connection).open, 0);
    QCOMPARE(pool.stats(wrong.connection).reuses, qint64(0));
}

// Last: a real stop and start of the cluster.
void TestPostgisPool::recoversAfterServerRestart()
{
    PgConnectionPool& pool = testEngine().pgPool();
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

QTEST_MAIN(TestPostgisPool)
#include "test_postgis_pool.moc"
