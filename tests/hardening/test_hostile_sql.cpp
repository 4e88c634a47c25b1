// SQL injection through every WMS parameter that reaches a PostGIS layer,
// against a real private PostGIS cluster (fixture pg_hardening) with
// log_statement = all: whatever a request says, the statements the server
// executes are the ones a plain request executes (text identical, values only
// as bound numeric parameters) and the tables are intact. Also: a request's
// time limit reaches a slow query (it is cancelled on the server).

#include "hardening_support.h"

#include "render/engine.h"

#include <libpq-fe.h>

#include <QElapsedTimer>
#include <QSet>
#include <QTemporaryDir>
#include <QThread>
#include <QUrl>

using namespace maptune;
using namespace maptune::hardening;

namespace {

constexpr int kPort = MAPTUNE_PG_HARDENING_PORT;
const QString kApp = QStringLiteral("hostile_sql");

const char* kSetup = R"SQL(
DROP TABLE IF EXISTS hroads, hcanary;
CREATE TABLE hroads (gid integer PRIMARY KEY, name text, kind text, geom geometry(LineString,4326));
INSERT INTO hroads VALUES
  (1, 'Alpha', 'main', 'SRID=4326;LINESTRING(1 1, 9 9)'),
  (2, 'O''Brien', 'minor', 'SRID=4326;LINESTRING(1 9, 9 1)'),
  (3, '<b>x</b>', 'main', 'SRID=4326;LINESTRING(12 2, 18 8)');
DROP TABLE IF EXISTS hevents;
CREATE TABLE hevents (gid integer PRIMARY KEY, t timestamp, geom geometry(Point,4326));
INSERT INTO hevents VALUES
  (1, '2004-01-01 00:00:00', 'SRID=4326;POINT(2 2)'),
  (2, '2004-01-02 00:00:00', 'SRID=4326;POINT(4 4)'),
  (3, '2004-02-01 12:00:00', 'SRID=4326;POINT(6 6)');
CREATE TABLE hcanary (v text);
INSERT INTO hcanary VALUES ('alive');
)SQL";

QByteArray mapText(const QString& conninfo)
{
    const QByteArray conn = conninfo.toUtf8();
    return R"(MAP
  NAME "sql"
  SIZE 200 100
  EXTENT 0 0 20 10
  UNITS DD
  PROJECTION "init=epsg:4326" END
  WEB METADATA "wms_srs" "EPSG:4326 EPSG:3857" "wms_enable_request" "*" END END
  LAYER
    NAME "pgroads"
    TYPE LINE
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION ")" + conn + R"("
    DATA "geom from hroads using unique gid using srid=4326"
    TEMPLATE "query"
    METADATA "wms_include_items" "all" "gml_include_items" "all" END
    CLASSITEM "kind"
    CLASS NAME "main" EXPRESSION "main" STYLE COLOR 200 0 0 WIDTH 3 END END
    CLASS NAME "other" STYLE COLOR 0 0 200 END END
  END
  LAYER
    NAME "pgsub"
    TYPE LINE
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION ")" + conn + R"("
    DATA "geom from (select * from hroads where kind = '%kind%') as t using unique gid using srid=4326"
    VALIDATION "kind" "^[a-z]+$" "default_kind" "main" END
    FILTER ("[name]" != "nobody")
    CLASS STYLE COLOR 0 120 0 END END
  END
  LAYER
    NAME "pgevents"
    TYPE POINT
    STATUS OFF
    CONNECTIONTYPE POSTGIS
    CONNECTION ")" + conn + R"("
    DATA "geom from hevents using unique gid using srid=4326"
    METADATA "wms_timeitem" "t" "wms_timeextent" "2004-01-01/2004-03-01" END
    CLASS STYLE COLOR 0 0 0 SIZE 3 END END
  END
  LAYER
    NAME "pgslow"
    TYPE LINE
    STATUS OFF
    CONNECTIONTYPE POSTGIS
    CONNECTION ")" + conn + R"("
    DATA "geom from (select h.gid, h.geom from hroads h, pg_sleep(8)) as t using unique gid using srid=4326"
    CLASS STYLE COLOR 0 0 0 END END
  END
END
)";
}

struct Statement {
    QString text;
    QStringList params;
};

// log_line_prefix '%m [%p] %a: ': records of our application, continuation lines start with a tab.
QList<Statement> statementsSince(const QString& log, qint64 offset)
{
    QFile f(log);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(offset)) return {};
    static const QRegularExpression record(QStringLiteral("^\\S+ \\S+ \\S+ \\[\\d+\\] ([^:]*): (LOG|DETAIL):  (.*)$"));
    QList<Statement> out;
    bool inStatement = false;
    for (const QByteArray& raw : f.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.startsWith(QLatin1Char('\t'))) {
            if (inStatement) out.last().text += QLatin1Char(' ') + line.trimmed();
            continue;
        }
        inStatement = false;
        const auto m = record.match(line);
        if (!m.hasMatch() || m.captured(1) != kApp) continue;
        const QString message = m.captured(3);
        static const QRegularExpression exec(QStringLiteral("^(?:statement|execute [^:]*): (.*)$"));
        if (m.captured(2) == QLatin1String("LOG")) {
            const auto e = exec.match(message);
            if (!e.hasMatch()) continue;
            out << Statement{e.captured(1), {}};
            inStatement = true;
        } else if (message.startsWith(QLatin1String("parameters: ")) && !out.isEmpty()) {
            static const QRegularExpression param(QStringLiteral("\\$\\d+ = '([^']*)'"));
            for (auto it = param.globalMatch(message); it.hasNext();) out.last().params << it.next().captured(1);
        }
    }
    for (Statement& s : out) s.text = s.text.simplified();
    return out;
}

qint64 fileSize(const QString& path)
{
    return QFileInfo(path).size();
}

}  // namespace

class TestHostileSql : public QObject {
    Q_OBJECT
    PGconn* m_admin = nullptr;
    QString m_log;
    QTemporaryDir m_dir;
    std::unique_ptr<Server> m_server;
    QSet<QString> m_known;       // statement texts plain requests execute
    QSet<QString> m_knownTraced; // DbTrace SQL of plain GetMaps

    QString scalar(const char* sql)
    {
        PGresult* r = PQexec(m_admin, sql);
        const QString v = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 ? QString::fromUtf8(PQgetvalue(r, 0, 0))
                                                                                  : QStringLiteral("<%1>").arg(QString::fromUtf8(PQresultErrorMessage(r)));
        PQclear(r);
        return v;
    }
    bool exec(const char* sql)
    {
        PGresult* r = PQexec(m_admin, sql);
        const bool ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
        if (!ok) qWarning("%s: %s", sql, PQresultErrorMessage(r));
        PQclear(r);
        return ok;
    }
    Response ask(const QByteArray& query) { return m_server->router->handle("GET", "/sql", query); }

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void parametersCannotChangeSql_data();
    void parametersCannotChangeSql();
    void timeLimitCancelsSlowQuery();
    void timeIsBoundInTheWhereClause();
};

static const QByteArray kGetMap = "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=pgroads,pgsub&STYLES=&SRS=EPSG:4326"
                                  "&BBOX=0,0,20,10&WIDTH=200&HEIGHT=100&FORMAT=image/png";
static const QByteArray kGetFeatureInfo = "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=pgroads&QUERY_LAYERS=pgroads"
                                          "&STYLES=&SRS=EPSG:4326&BBOX=0,0,20,10&WIDTH=200&HEIGHT=100&X=50&Y=50"
                                          "&INFO_FORMAT=application/json&FEATURE_COUNT=5";

void TestHostileSql::initTestCase()
{
    initEngine();
    m_admin = PQconnectdb(pgConnInfo(kPort, QStringLiteral("setup")).toUtf8().constData());
    if (PQstatus(m_admin) != CONNECTION_OK)
        QFAIL(qPrintable(QStringLiteral("cannot reach the hardening PostgreSQL cluster on port %1 (%2); run through ctest "
                                        "(fixture pg_hardening) or scripts/pg-test-cluster start %3 %1")
                             .arg(kPort).arg(QString::fromUtf8(PQerrorMessage(m_admin)).trimmed(), QStringLiteral(MAPTUNE_PG_HARDENING_DIR))));
    QVERIFY(exec("SET client_min_messages = warning"));
    QVERIFY(exec(kSetup));
    QVERIFY(exec("ALTER SYSTEM SET log_statement = 'all'"));
    QVERIFY(exec("ALTER SYSTEM SET log_line_prefix = '%m [%p] %a: '"));
    QVERIFY(exec("SELECT pg_reload_conf()"));
    m_log = QFileInfo(scalar("SHOW data_directory")).path() + QStringLiteral("/postgres.log");
    QVERIFY2(QFileInfo(m_log).isReadable(), qPrintable(m_log));
    QThread::msleep(300);  // the reload reaches the backends

    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("sql.map")), mapText(pgConnInfo(kPort, kApp))));
    m_server = std::make_unique<Server>(QStringList{m_dir.filePath(QStringLiteral("sql.map"))});
    QVERIFY2(m_server->errors.isEmpty(), qPrintable(m_server->errors.join('\n')));

    // What plain requests execute (twice: a new connection, then a pooled
    // one), also with a substitution value the layer's VALIDATION accepts.
    const qint64 mark = fileSize(m_log);
    for (int i = 0; i < 4; ++i) {
        const Response map = ask(i < 2 ? kGetMap : kGetMap + "&kind=minor");
        QCOMPARE(map.contentType(), QByteArray("image/png"));
        QVERIFY(map.trace);
        for (const LayerTrace& l : map.trace->layers) {
            QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
            for (const DbTrace& d : l.db) m_knownTraced << d.sql.simplified();
        }
        const Response info = ask(kGetFeatureInfo);
        QVERIFY2(info.body.contains("Alpha") || info.body.contains("Brien"), info.body.constData());
    }
    QThread::msleep(200);
    for (const Statement& s : statementsSince(m_log, mark)) m_known << s.text;
    QVERIFY2(m_known.size() >= 2, qPrintable(QStringList(m_known.values()).join('\n')));
    // The accepted value and the default both reached the SQL.
    const QString known = QStringList(m_known.values()).join('\n');
    QVERIFY2(known.contains(QLatin1String("kind = 'minor'")) && known.contains(QLatin1String("kind = 'main'")), qPrintable(known));
    QVERIFY(!m_knownTraced.isEmpty());
}

void TestHostileSql::cleanupTestCase()
{
    if (!m_admin) return;
    exec("ALTER SYSTEM RESET log_statement");
    exec("ALTER SYSTEM RESET log_line_prefix");
    exec("SELECT pg_reload_conf()");
    PQfinish(m_admin);
}

void TestHostileSql::parametersCannotChangeSql_data()
{
    QTest::addColumn<QByteArray>("query");
    const QByteArray drop = QUrl::toPercentEncoding(QStringLiteral("'); DROP TABLE hcanary; --"));
    const QByteArray orTrue = QUrl::toPercentEncoding(QStringLiteral("x' OR '1'='1"));
    auto map = [](const char* from, const QByteArray& to) { return QByteArray(kGetMap).replace(from, to); };
    auto info = [](const char* from, const QByteArray& to) { return QByteArray(kGetFeatureInfo).replace(from, to); };
    QTest::newRow("BBOX closes the call") << map("0,0,20,10", "0,0,20,10" + drop);
    QTest::newRow("BBOX expression") << map("0,0,20,10", QUrl::toPercentEncoding(QStringLiteral("0,0,20,(select 10)")));
    QTest::newRow("BBOX huge") << map("0,0,20,10", "-1e308,-1e308,1e308,1e308");
    QTest::newRow("BBOX hex float") << map("0,0,20,10", "0x0,0,0x14,10");
    QTest::newRow("BBOX nan") << map("0,0,20,10", "nan,0,20,inf");
    QTest::newRow("SRS quote") << map("EPSG:4326", "EPSG:4326" + orTrue);
    QTest::newRow("SRS drop") << map("EPSG:4326", "EPSG:4326" + drop);
    QTest::newRow("SRS proj string") << map("EPSG:4326", QUrl::toPercentEncoding(QStringLiteral("+proj=longlat +datum=WGS84 +no_defs')--")));
    QTest::newRow("SRS 3857") << map("SRS=EPSG:4326&BBOX=0,0,20,10", "SRS=EPSG:3857&BBOX=0,0,2226389,1118890");
    QTest::newRow("LAYERS quote") << map("LAYERS=pgroads,pgsub", "LAYERS=pgroads%22" + drop);
    QTest::newRow("LAYERS list") << map("LAYERS=pgroads,pgsub", "LAYERS=pgroads," + orTrue);
    QTest::newRow("STYLES") << map("STYLES=", "STYLES=" + drop + "," + orTrue);
    QTest::newRow("runtime substitution kind") << kGetMap + "&kind=" + orTrue;
    QTest::newRow("runtime substitution KIND drop") << kGetMap + "&KIND=" + drop;
    QTest::newRow("runtime substitution %kind%") << kGetMap + "&%25kind%25=" + drop;
    QTest::newRow("runtime substitution accepted") << kGetMap + "&kind=minor";
    QTest::newRow("runtime substitution trailing newline") << kGetMap + "&kind=main%0A";
    QTest::newRow("runtime substitution newline then SQL") << kGetMap + "&kind=main%0A" + drop;
    QTest::newRow("runtime substitution repeated") << kGetMap + "&kind=minor&kind=" + drop;
    QTest::newRow("runtime substitution default_ name") << kGetMap + "&default_kind=" + drop;
    QTest::newRow("runtime substitution format string") << kGetMap + "&kind=%25s%25n%25x";
    QTest::newRow("runtime substitution mapserv mode=map") << "mode=map&layers=pgsub&kind=" + orTrue;
    QTest::newRow("runtime substitution mapserv nquery")
        << "mode=nquery&qlayer=pgsub&qformat=geojson&kind=" + drop;
    QTest::newRow("mapserv layer data") << kGetMap + "&map.layer[pgroads].data=" +
                                               QUrl::toPercentEncoding(QStringLiteral("geom from hcanary; DROP TABLE hcanary"));
    QTest::newRow("mapserv filter") << kGetMap + "&map.layer[pgroads]=FILTER+" + drop;
    QTest::newRow("FILTER ogc") << kGetMap + "&FILTER=" + QUrl::toPercentEncoding(QStringLiteral(
                                       "(<Filter><PropertyIsEqualTo><PropertyName>kind') OR 1=1; DROP TABLE hcanary; --"
                                       "</PropertyName><Literal>x</Literal></PropertyIsEqualTo></Filter>)"));
    QTest::newRow("FILTER literal") << kGetMap + "&FILTER=" + QUrl::toPercentEncoding(QStringLiteral(
                                           "(<Filter><PropertyIsEqualTo><PropertyName>kind</PropertyName>"
                                           "<Literal>x' OR '1'='1'); DROP TABLE hcanary; --</Literal></PropertyIsEqualTo></Filter>)()"));
    QTest::newRow("FILTER like") << kGetMap + "&FILTER=" + QUrl::toPercentEncoding(QStringLiteral(
                                        "(<Filter><PropertyIsLike wildCard='*' singleChar='.' escape='!'><PropertyName>kind</PropertyName>"
                                        "<Literal>*'; DROP TABLE hcanary; --</Literal></PropertyIsLike></Filter>)()"));
    QTest::newRow("FILTER dwithin distance") << kGetMap + "&FILTER=" + QUrl::toPercentEncoding(QStringLiteral(
                                                   "(<Filter><DWithin><PropertyName>geom</PropertyName><gml:Point><gml:coordinates>5,5"
                                                   "</gml:coordinates></gml:Point><Distance units='dd'>1); DROP TABLE hcanary; --</Distance>"
                                                   "</DWithin></Filter>)()"));
    QTest::newRow("CQL_FILTER") << kGetMap + "&CQL_FILTER=" + QUrl::toPercentEncoding(QStringLiteral("kind='x' OR 1=1; DROP TABLE hcanary"));
    QTest::newRow("EXP_FILTER") << kGetMap + "&EXP_FILTER=" + orTrue;
    QTest::newRow("TIME") << kGetMap + "&TIME=" + drop;
    const QByteArray events = QByteArray(kGetMap).replace("LAYERS=pgroads,pgsub", "LAYERS=pgevents");
    QTest::newRow("TIME on a time layer") << events + "&TIME=" + drop;
    QTest::newRow("TIME quote in a time") << events + "&TIME=" + QUrl::toPercentEncoding(QStringLiteral("2004-01-01' OR '1'='1"));
    QTest::newRow("TIME regex") << events + "&TIME=" + QUrl::toPercentEncoding(QStringLiteral("(a+)+$.*"));
    QTest::newRow("TIME format string") << events + "&TIME=%25s%25n%25x";
    QTest::newRow("TIME reversed range") << events + "&TIME=2004-02-01/2004-01-01";
    QByteArray many;
    for (int i = 0; i < 5000; ++i) many += QByteArray(i ? "," : "") + "2004-01-01";
    QTest::newRow("TIME huge list") << events + "&TIME=" + many;
    QTest::newRow("DIM") << kGetMap + "&DIM_KIND=" + drop + "&ELEVATION=" + drop;
    QTest::newRow("SORTBY") << kGetMap + "&SORTBY=" + QUrl::toPercentEncoding(QStringLiteral("name; DROP TABLE hcanary"));
    QTest::newRow("GFI X") << info("X=50", "X=50" + drop);
    QTest::newRow("GFI Y huge") << info("Y=50", "Y=1e400");
    QTest::newRow("GFI I J 1.3.0") << info("VERSION=1.1.1", "VERSION=1.3.0").replace("SRS=", "CRS=").replace("X=50&Y=50", "I=50" + drop + "&J=" + orTrue);
    QTest::newRow("GFI FEATURE_COUNT") << info("FEATURE_COUNT=5", "FEATURE_COUNT=5" + drop);
    QTest::newRow("GFI FEATURE_COUNT negative") << info("FEATURE_COUNT=5", "FEATURE_COUNT=-1");
    QTest::newRow("GFI FEATURE_COUNT huge") << info("FEATURE_COUNT=5", "FEATURE_COUNT=99999999999999");
    QTest::newRow("GFI RADIUS") << info("FEATURE_COUNT=5", "FEATURE_COUNT=5&RADIUS=5" + drop);
    QTest::newRow("GFI QUERY_LAYERS") << info("QUERY_LAYERS=pgroads", "QUERY_LAYERS=pgroads" + drop);
    QTest::newRow("GFI INFO_FORMAT") << info("application/json", "application/json" + drop);
    QTest::newRow("GFI runtime substitution") << info("QUERY_LAYERS=pgroads", "QUERY_LAYERS=pgsub").replace("LAYERS=pgroads", "LAYERS=pgsub") + "&kind=" + orTrue;
}

// Whatever the answer (an image, feature info or an exception), the server
// executed only statements a plain request executes, with numbers as values.
void TestHostileSql::parametersCannotChangeSql()
{
    QFETCH(QByteArray, query);
    const qint64 mark = fileSize(m_log);
    const Response r = ask(query);
    QCOMPARE(r.status, 200);
    if (r.trace)
        for (const LayerTrace& l : r.trace->layers)
            for (const DbTrace& d : l.db) QVERIFY2(m_knownTraced.contains(d.sql.simplified()), qPrintable(d.sql));
    QThread::msleep(100);
    for (const Statement& s : statementsSince(m_log, mark)) {
        QVERIFY2(m_known.contains(s.text), qPrintable(QStringLiteral("new statement: ") + s.text));
        for (const QString& p : s.params) {
            bool number = false;
            p.toDouble(&number);
            QVERIFY2(number || p == QLatin1String("inf") || p == QLatin1String("-inf"), qPrintable(p));
        }
    }
    QCOMPARE(scalar("SELECT v FROM hcanary"), QStringLiteral("alive"));
    QCOMPARE(scalar("SELECT count(*) FROM hroads"), QStringLiteral("3"));
    QCOMPARE(scalar("SELECT string_agg(kind, ',' ORDER BY gid) FROM hroads"), QStringLiteral("main,minor,main"));
}

// The request's time limit cancels a slow query on the server, the worker
// and the pooled connection come back, and the next request is served.
void TestHostileSql::timeLimitCancelsSlowQuery()
{
    ServerOptions options;
    options.timeLimitMs = 1000;
    options.workers = 2;
    Server server({m_dir.filePath(QStringLiteral("sql.map"))}, options);
    QVERIFY(server.errors.isEmpty());
    QElapsedTimer timer;
    timer.start();
    const Response r = server.router->handle("GET", "/sql", QByteArray(kGetMap).replace("LAYERS=pgroads,pgsub", "LAYERS=pgslow,pgroads"));
    const qint64 ms = timer.elapsed();
    QCOMPARE(r.status, 200);
    QVERIFY2(ms < 4000, qPrintable(QStringLiteral("answered after %1 ms; the query sleeps 8 s").arg(ms)));
    QVERIFY2(r.body.contains("time limit"), r.body.left(300).constData());
    // The backend is not left running the statement.
    QTRY_COMPARE_WITH_TIMEOUT(scalar("SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep%' "
                                     "AND application_name = 'hostile_sql'"),
                              QStringLiteral("0"), 3000);
    const Response next = server.router->handle("GET", "/sql", kGetMap);
    QCOMPARE(next.contentType(), QByteArray("image/png"));
    QCOMPARE(rawGet(server.http->port(), "/health").status, 200);
}

// A TIME on a PostGIS layer reaches its WHERE clause as bound parameters:
// the statement names only $n placeholders, the times travel as values, and
// only the matching rows come back.
void TestHostileSql::timeIsBoundInTheWhereClause()
{
    const QByteArray events = QByteArray(kGetMap).replace("LAYERS=pgroads,pgsub", "LAYERS=pgevents");
    struct Case {
        const char* time;
        int features;
        const char* param;
    };
    for (const Case& c : {Case{"2004-01-02", 1, "2004-01-02 00:00:00"}, Case{"2004-01-01/2004-01-31", 2, "2004-01-31 00:00:00"}}) {
        const qint64 mark = fileSize(m_log);
        const Response r = ask(events + "&TIME=" + c.time);
        QCOMPARE(r.contentType(), QByteArray("image/png"));
        QVERIFY(r.trace);
        QCOMPARE(r.trace->layers.size(), 1);
        QCOMPARE(r.trace->layers.first().features, c.features);
        QThread::msleep(100);
        bool seen = false;
        for (const Statement& s : statementsSince(m_log, mark)) {
            if (!s.text.contains(QLatin1String("hevents"))) continue;
            seen = true;
            QVERIFY2(s.text.contains(QLatin1String("\"t\" = $5")) || s.text.contains(QLatin1String("\"t\" >= $5 AND \"t\" <= $6")),
                     qPrintable(s.text));
            QVERIFY2(!s.text.contains(QLatin1String("2004")), qPrintable(s.text));
            QVERIFY2(s.params.contains(QLatin1String(c.param)), qPrintable(s.params.join(QLatin1Char(' '))));
        }
        QVERIFY2(seen, "the layer's SELECT is in the statement log");
    }
}

QTEST_MAIN(TestHostileSql)
#include "test_hostile_sql.moc"
