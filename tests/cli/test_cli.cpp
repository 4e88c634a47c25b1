// maptune-cli end to end: the DESIGN.md contract (arguments, exit codes,
// stdout/stderr) on small mapfiles and a corpus of bad input.

#include "../raw_http.h"

#include <QtTest>
#include <QImage>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runCli(const QStringList& args, const QString& cwd = {})
{
    QProcess p;
    if (!cwd.isEmpty()) p.setWorkingDirectory(cwd);
    p.start(QStringLiteral(MAPTUNE_CLI), args);
    p.waitForFinished(60000);
    Run r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;  // -1: crashed
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString dataFile(const QString& name) { return QStringLiteral(MAPTUNE_TEST_DATA "/cli/") + name; }

// Starts `maptune-cli serve ARGS --port 0` and returns the port it printed, or 0.
int startServe(QProcess& serve, const QStringList& args)
{
    serve.start(QStringLiteral(MAPTUNE_CLI), QStringList{"serve"} + args + QStringList{"--port", "0"});
    if (!serve.waitForStarted()) return 0;
    QByteArray out;
    for (int i = 0; i < 100 && !out.contains("/health"); ++i) {
        serve.waitForReadyRead(100);
        out += serve.readAllStandardOutput();
    }
    const QRegularExpressionMatch port = QRegularExpression(QStringLiteral("127\\.0\\.0\\.1:(\\d+)/health")).match(QString::fromUtf8(out));
    return port.hasMatch() ? port.captured(1).toInt() : 0;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void versionAndHelp()
    {
        Run v = runCli({"--version"});
        QCOMPARE(v.exitCode, 0);
        QVERIFY(v.out.contains("GDAL"));
        QVERIFY(v.out.contains("PROJ"));
#ifdef MAPTUNE_JEMALLOC
        QVERIFY2(v.out.contains("jemalloc 5."), v.out.constData());  // the allocator really linked in
#else
        QVERIFY2(v.out.contains("glibc malloc"), v.out.constData());
#endif
        Run h = runCli({"--help"});
        QCOMPARE(h.exitCode, 0);
        for (const char* cmd : {"render", "request", "check", "format"}) QVERIFY2(h.out.contains(cmd), cmd);
        QCOMPARE(runCli({"render"}).exitCode, 2);          // MAPFILE missing
        QCOMPARE(runCli({"frobnicate"}).exitCode, 2);
    }

    void renderToStdoutAndFile()
    {
        Run r = runCli({"render", dataFile("squares.map"), "-o", "-"});
        QCOMPARE(r.exitCode, 0);
        QImage img = QImage::fromData(r.out, "PNG");
        QCOMPARE(img.size(), QSize(100, 100));
        QCOMPARE(img.pixel(25, 25), qRgb(255, 0, 0));
        QCOMPARE(img.pixel(75, 75), qRgb(255, 255, 255));  // blue layer is STATUS OFF

        QTemporaryDir dir;
        const QString out = dir.filePath("x.png");
        r = runCli({"render", dataFile("squares.map"), "-o", out, "--layers", "extra", "--timings"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains("total"));  // --timings table
        img = QImage(out);
        QCOMPARE(img.pixel(75, 75), qRgb(0, 0, 255));
        QCOMPARE(img.pixel(25, 25), qRgb(255, 255, 255));  // red is ON, not DEFAULT: off with --layers
    }

    void renderOptions()
    {
        Run r = runCli({"render", dataFile("squares.map"), "--size", "50x40", "--bbox", "0,0,100,100", "--format", "jpeg"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("\xff\xd8"));
        QCOMPARE(QImage::fromData(r.out).size(), QSize(50, 40));
        QCOMPARE(runCli({"render", dataFile("squares.map"), "--size", "fifty"}).exitCode, 2);
        QCOMPARE(runCli({"render", dataFile("squares.map"), "--bbox", "1,2,3"}).exitCode, 2);
        Run unknown = runCli({"render", dataFile("squares.map"), "--layers", "nosuch"});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY(unknown.err.contains("nosuch"));
    }

    void formatIsIdempotent()
    {
        Run once = runCli({"format", dataFile("squares.map")});
        QCOMPARE(once.exitCode, 0);
        QTemporaryDir dir;
        QFile f(dir.filePath("f.map"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(once.out);
        f.close();
        Run twice = runCli({"format", f.fileName()});
        QCOMPARE(twice.exitCode, 0);
        QCOMPARE(twice.out, once.out);
    }

    void badInput_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("expected");   // in stderr/stdout
        QTest::newRow("misspelt keyword") << "bad/misspelt.map" << QStringList{"check"} << "misspelt.map:8:7: error: unknown keyword 'STYEL'";
        QTest::newRow("suggestion") << "bad/misspelt.map" << QStringList{"check"} << "did you mean 'STYLE'";
        QTest::newRow("unterminated string") << "bad/unterminated.map" << QStringList{"check"} << "unterminated.map:2:8:";
        QTest::newRow("missing END") << "bad/missing_end.map" << QStringList{"render"} << "missing_end.map:";
        QTest::newRow("bad number") << "bad/bad_number.map" << QStringList{"render"} << "bad_number.map:2:";
        QTest::newRow("missing data file (check)") << "bad/missing_data.map" << QStringList{"check"} << "no_such_file.shp";
        QTest::newRow("unknown SRS") << "bad/unknown_srs.map" << QStringList{"render"} << "999999";
        QTest::newRow("absurd size") << "bad/absurd_size.map" << QStringList{"render"} << "MAXSIZE";
        QTest::newRow("no such mapfile") << "bad/does_not_exist.map" << QStringList{"render"} << "does_not_exist.map";
    }
    void badInput()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, command);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        QStringList args = command;
        args << dataFile(file);
        if (command[0] == "render") args << "-o" << dir.filePath("out.png");
        Run r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        const QString all = QString::fromUtf8(r.out + r.err);
        QVERIFY2(all.contains(expected), qPrintable(all));
    }

    void brokenLayerStillRenders()
    {
        // A missing or corrupt data file fails that layer (named on stderr), not the map.
        for (const char* name : {"bad/missing_data.map", "bad/corrupt_raster.map"}) {
            Run r = runCli({"render", dataFile(name)});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(QImage::fromData(r.out).size() == QSize(10, 10));
            QVERIFY2(r.err.contains("layer '"), r.err.constData());
        }
    }

    void serveRefusesDataOutsideItsRootsUnlessAllowed()
    {
        // maps/m.map reads ../data/square.geojson: outside the mapfile's
        // directory, so `serve` refuses it until --allow-root names the folder.
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath("maps") && QDir(dir.path()).mkpath("data"));
        QFile data(dir.filePath("data/square.geojson"));
        QVERIFY(data.open(QIODevice::WriteOnly));
        data.write(R"({"type":"FeatureCollection","features":[{"type":"Feature","properties":{},)"
                   R"("geometry":{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]]]}}]})");
        data.close();
        QFile map(dir.filePath("maps/m.map"));
        QVERIFY(map.open(QIODevice::WriteOnly));
        map.write(QStringLiteral("MAP NAME m EXTENT 0 0 10 10 SIZE 10 10\n"
                                 "LAYER NAME sq TYPE POLYGON STATUS ON DATA \"%1\"\n"
                                 "CLASS STYLE COLOR 255 0 0 END END END END\n")
                      .arg(dir.filePath("data/square.geojson")).toUtf8());
        map.close();

        Run refused = runCli({"serve", map.fileName(), "--port", "0"});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("outside the directories this map may read"), refused.err.constData());

        QProcess serve;
        serve.start(QStringLiteral(MAPTUNE_CLI), {"serve", map.fileName(), "--port", "0", "--allow-root", dir.filePath("data")});
        QVERIFY(serve.waitForStarted());
        QByteArray out;
        for (int i = 0; i < 100 && !out.contains("http://"); ++i) {
            serve.waitForReadyRead(100);
            out += serve.readAllStandardOutput();
        }
        QVERIFY2(out.contains("http://"), (out + serve.readAllStandardError()).constData());
        QCOMPARE(serve.state(), QProcess::Running);
        serve.terminate();
        QVERIFY(serve.waitForFinished(10000));
    }

    void serveDrainsOnSigterm()
    {
        // SIGTERM: /health turns 503 "draining" while maps are still served,
        // then the process exits 0 once the drain time is over.
        QProcess serve;
        const int p = startServe(serve, {dataFile("squares.map"), "--drain", "2"});
        QVERIFY(p > 0);
        QCOMPARE(maptune::test::rawGet(p, "/health").status, 200);
        serve.terminate();
        QTRY_COMPARE_WITH_TIMEOUT(maptune::test::rawGet(p, "/health").status, 503, 1500);
        QCOMPARE(maptune::test::rawGet(p, "/health").body.trimmed(), QByteArray("draining"));
        QCOMPARE(maptune::test::rawGet(p, "/squares?SERVICE=WMS&REQUEST=GetCapabilities").status, 200);
        QVERIFY(serve.waitForFinished(10000));
        QCOMPARE(serve.exitStatus(), QProcess::NormalExit);
        QCOMPARE(serve.exitCode(), 0);
    }

    void serveBoundsGdalsCache()
    {
        // --gdal-cache-mb sets the process's one GDAL block cache; /metrics shows its limit and use.
        QProcess serve;
        const int p = startServe(serve, {dataFile("squares.map"), "--gdal-cache-mb", "16"});
        QVERIFY(p > 0);
        const maptune::test::HttpReply metrics = maptune::test::rawGet(p, "/metrics");
        serve.kill();
        serve.waitForFinished(5000);
        QCOMPARE(metrics.status, 200);
        QVERIFY2(metrics.body.contains("\nmaptune_gdal_cache_max_bytes 16777216\n"), metrics.body.constData());
        QVERIFY(metrics.body.contains("\nmaptune_gdal_cache_bytes "));
    }

    void serveRefusesAPoolPastTheConnectionBudget()
    {
        // 3 instances x 4 connections x 1 CONNECTION string = 12 > 10.
        QTemporaryDir dir;
        QFile map(dir.filePath("pg.map"));
        QVERIFY(map.open(QIODevice::WriteOnly));
        map.write("MAP NAME pg EXTENT 0 0 10 10 SIZE 10 10\n"
                  "LAYER NAME roads TYPE LINE STATUS ON CONNECTIONTYPE POSTGIS CONNECTION \"host=127.0.0.1 port=9 dbname=x\"\n"
                  "DATA \"geom from roads using unique gid using srid=4326\" END END\n");
        map.close();
        Run refused = runCli({"serve", map.fileName(), "--port", "0", "--instances", "3", "--pg-pool-size", "4",
                              "--pg-connection-budget", "10"});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("--pg-connection-budget 10 is too small: 3 instances x pool size 4"), refused.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
