// A site that outgrows one machine: nginx (the installer's example
// configuration, ports changed) in front of three `maptune-cli serve`
// instances on loopback. Under a steady GetMap load each instance in turn is
// stopped with SIGTERM (it drains: in-flight requests finish) and started
// again, the way the example's comment says to (healthy, then fail_timeout
// before the next); no client request may fail.

#include "../raw_http.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include <unistd.h>

namespace {

// A small map every instance serves (WMS enabled, one inline polygon).
const QByteArray kMap = "MAP\n  NAME \"squares\"\n  SIZE 64 64\n  EXTENT 0 0 100 100\n"
                        "  PROJECTION \"init=epsg:4326\" END\n"
                        "  WEB METADATA \"wms_title\" \"squares\" \"wms_srs\" \"EPSG:4326\" \"wms_enable_request\" \"*\" END END\n"
                        "  LAYER\n    NAME \"red\"\n    TYPE POLYGON\n    STATUS ON\n"
                        "    FEATURE WKT \"POLYGON((10 10, 90 10, 90 90, 10 90, 10 10))\" END\n"
                        "    CLASS STYLE COLOR 255 0 0 END END\n  END\nEND\n";

const QByteArray kGetMap = "/squares?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=red&STYLES=&SRS=EPSG:4326"
                           "&BBOX=0,0,100,100&WIDTH=64&HEIGHT=64&FORMAT=image/png";

using maptune::test::freePort;

bool waitHealthy(int port, int ms)
{
    for (int waited = 0; waited < ms; waited += 50) {
        if (maptune::test::rawGet(port, "/health").status == 200) return true;
        QTest::qWait(50);
    }
    return false;
}

// The shipped example with the test's ports, inside a minimal nginx.conf
// whose files all live in `dir`.
QByteArray nginxConf(const QString& dir, int listen, const std::vector<int>& ports)
{
    QFile example(QStringLiteral(MAPTUNE_SOURCE_DIR "/installer/examples/nginx-upstreams.conf"));
    if (!example.open(QIODevice::ReadOnly)) return {};
    QByteArray server = example.readAll();
    for (int i = 0; i < 3; ++i)
        server.replace("127.0.0.1:808" + QByteArray::number(i + 1), "127.0.0.1:" + QByteArray::number(ports[i]));
    server.replace("    listen 80;\n", "    listen 127.0.0.1:" + QByteArray::number(listen) + ";\n");
    server.replace("    listen [::]:80;\n", "");
    const QByteArray d = dir.toUtf8();
    QByteArray conf = "worker_processes 1;\npid " + d + "/nginx.pid;\nerror_log " + d + "/error.log;\n";
    if (::geteuid() == 0) conf += "user root root;\n";  // workers must reach the temporary folder
    conf += "events { worker_connections 256; }\nhttp {\n  log_format upstream '$upstream_addr $status';\n"
            "  access_log " + d + "/access.log upstream;\n"
            "  client_body_temp_path " + d + "/body;\n  proxy_temp_path " + d + "/proxy;\n"
            "  fastcgi_temp_path " + d + "/fastcgi;\n  uwsgi_temp_path " + d + "/uwsgi;\n  scgi_temp_path " + d + "/scgi;\n" +
            server + "}\n";
    return conf;
}

struct Instance {
    int port = 0;
    std::unique_ptr<QProcess> process;
    bool start(const QString& mapfile)
    {
        process = std::make_unique<QProcess>();
        process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        process->start(QStringLiteral(MAPTUNE_CLI), {QStringLiteral("serve"), mapfile, QStringLiteral("--port"),
                                                     QString::number(port), QStringLiteral("--drain"), QStringLiteral("1"),
                                                     QStringLiteral("--threads"), QStringLiteral("1")});
        return process->waitForStarted() && waitHealthy(port, 20000);
    }
};

}  // namespace

class TestRollingRestart : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void zeroFailedRequestsWhileEveryInstanceRestarts()
    {
        const QString nginx = QStandardPaths::findExecutable(QStringLiteral("nginx"), {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")});
        QVERIFY2(!nginx.isEmpty(), "nginx is not installed (scripts/setup installs it)");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                              QFileDevice::ReadOther | QFileDevice::ExeOther);
        const QString mapfile = dir.filePath(QStringLiteral("squares.map"));
        {
            QFile map(mapfile);
            QVERIFY(map.open(QIODevice::WriteOnly));
            map.write(kMap);
        }

        std::vector<Instance> instances(3);
        std::vector<int> ports;
        for (Instance& i : instances) {
            i.port = freePort();
            ports.push_back(i.port);
            QVERIFY2(i.start(mapfile), qPrintable(QStringLiteral("instance on port %1 did not start").arg(i.port)));
        }
        const int front = freePort();
        QFile conf(dir.filePath(QStringLiteral("nginx.conf")));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        const QByteArray text = nginxConf(dir.path(), front, ports);
        QVERIFY(!text.isEmpty());
        conf.write(text);
        conf.close();
        QProcess proxy;
        // Its workers must not outlive the test (a killed master leaves them running).
        const auto stopProxy = qScopeGuard([&proxy] {
            proxy.terminate();
            proxy.waitForFinished(10000);
        });
        proxy.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        proxy.start(nginx, {QStringLiteral("-p"), dir.path(), QStringLiteral("-c"), conf.fileName(), QStringLiteral("-g"),
                            QStringLiteral("daemon off;")});
        QVERIFY(proxy.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(maptune::test::rawGet(front, kGetMap).status == 200, 10000);

        // Two clients, one request after another each, for the whole run.
        std::atomic<bool> stop{false};
        std::atomic<int> ok{0}, failed{0};
        std::vector<std::thread> clients;
        QList<int> failures[2];
        for (int c = 0; c < 2; ++c)
            clients.emplace_back([&, c] {
                while (!stop) {
                    const maptune::test::HttpReply r = maptune::test::rawGet(front, kGetMap);
                    if (r.status == 200 && r.body.startsWith("\x89PNG")) ++ok;
                    else {
                        ++failed;
                        failures[c].append(r.status);
                    }
                }
            });
        QTest::qWait(1000);
        QList<int> servedBefore;
        for (Instance& i : instances) {
            const int before = ok;
            i.process->terminate();  // SIGTERM: drain, finish in-flight requests, exit 0
            QVERIFY(i.process->waitForFinished(20000));
            QCOMPARE(i.process->exitStatus(), QProcess::NormalExit);
            QCOMPARE(i.process->exitCode(), 0);
            QTest::qWait(500);        // the others carry the load alone for a while
            QVERIFY2(i.start(mapfile), qPrintable(QStringLiteral("restart on port %1").arg(i.port)));
            // As the example says: healthy, then fail_timeout (2 s) before the next one.
            QTest::qWait(2500);
            servedBefore << ok - before;
        }
        stop = true;
        for (std::thread& t : clients) t.join();

        if (failed) {
            QFile errors(dir.filePath(QStringLiteral("error.log")));
            if (errors.open(QIODevice::ReadOnly)) qWarning("nginx error.log:\n%s", errors.readAll().left(2500).constData());
        }
        QVERIFY2(failed == 0, qPrintable(QStringLiteral("%1 of %2 requests failed (statuses %3 %4)")
                                             .arg(failed.load())
                                             .arg(ok + failed)
                                             .arg(QString::number(failures[0].value(0)), QString::number(failures[1].value(0)))));
        QVERIFY2(ok > 30, qPrintable(QString::number(ok)));
        qInfo("%d GetMap requests through nginx while 3 instances restarted in turn; none failed", ok.load());
        for (int served : servedBefore) QVERIFY(served > 0);  // requests went on through every restart
        proxy.terminate();
        QVERIFY(proxy.waitForFinished(10000));
        // nginx spread them: every instance answered some (the access log names the upstream).
        QFile log(dir.filePath(QStringLiteral("access.log")));
        QVERIFY(log.open(QIODevice::ReadOnly));
        const QByteArray lines = log.readAll();
        for (const int port : ports)
            QVERIFY2(lines.contains("127.0.0.1:" + QByteArray::number(port) + " 200"), qPrintable(QString::number(port)));
        for (Instance& i : instances) {
            i.process->terminate();
            QVERIFY(i.process->waitForFinished(20000));
        }
    }
};

QTEST_GUILESS_MAIN(TestRollingRestart)
#include "test_rolling_restart.moc"
