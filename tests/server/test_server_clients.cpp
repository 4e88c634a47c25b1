// `maptune-cli serve` as a process, used by real clients: GDAL's WMS driver,
// OWSLib (WMS 1.1.1 and 1.3.0), and nginx in front of the FastCGI transport.

#include "../raw_http.h"

#include <httplib.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

const QString kWorld = QStringLiteral(MAPTUNE_TEST_DATA "/server/world.map");

using maptune::test::freePort;

// `maptune-cli serve --port 0 MAP` until destroyed (SIGTERM, then it must exit 0).
class Served {
public:
    explicit Served(const QStringList& args)
    {
        m_process.setProgram(QStringLiteral(MAPTUNE_CLI));
        m_process.setArguments(QStringList{QStringLiteral("serve")} + args);
        m_process.start();
    }
    ~Served()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            m_process.waitForFinished(10000);
        }
    }
    // The port printed in "Serving <map> at http://127.0.0.1:PORT/...".
    int waitForPort()
    {
        const QRegularExpression re(QStringLiteral("Serving \\S+ at http://127\\.0\\.0\\.1:(\\d+)/"));
        for (int i = 0; i < 300 && m_process.state() != QProcess::NotRunning; ++i) {
            m_process.waitForReadyRead(100);
            m_out += m_process.readAllStandardOutput();
            const auto m = re.match(QString::fromUtf8(m_out));
            if (m.hasMatch()) return m.captured(1).toInt();
        }
        qWarning("serve did not start: %s %s", m_out.constData(), m_process.readAllStandardError().constData());
        return -1;
    }
    QByteArray waitForLine(const QByteArray& needle)
    {
        for (int i = 0; i < 300 && !m_out.contains(needle) && m_process.state() != QProcess::NotRunning; ++i) {
            m_process.waitForReadyRead(100);
            m_out += m_process.readAllStandardOutput();
        }
        return m_out;
    }
    // SIGTERM: the server stops accepting, finishes and exits 0.
    int stop()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(15000)) return -1;
        return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -2;
    }
    QProcess& process() { return m_process; }

private:
    QProcess m_process;
    QByteArray m_out;
};

struct Run {
    int exitCode = -1;
    QByteArray out;
};

Run run(const QString& program, const QStringList& args, int timeoutMs = 60000)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, p.readAll()};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAll()};
}

}  // namespace

class TestServerClients : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void serveAndStop();
    void gdalWmsDriver();
    void owslib_data();
    void owslib();
    void behindNginx();
};

void TestServerClients::serveAndStop()
{
    Served s({QStringLiteral("--port"), QStringLiteral("0"), kWorld});
    const int port = s.waitForPort();
    QVERIFY(port > 0);
    httplib::Client c("127.0.0.1", port);
    auto res = c.Get("/health");
    QVERIFY(res);
    QCOMPARE(res->body, std::string("ok\n"));
    QCOMPARE(s.stop(), 0);

    // A mapfile that does not load is a user error: exit 1 with FILE:LINE:COL.
    QTemporaryDir dir;
    QFile broken(dir.filePath(QStringLiteral("broken.map")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("MAP\n  LAYRE\nEND\n");
    broken.close();
    const Run bad = run(QStringLiteral(MAPTUNE_CLI), {QStringLiteral("serve"), QStringLiteral("--port"), QStringLiteral("0"), broken.fileName()});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.out.contains("broken.map:2:"), bad.out.constData());
}

void TestServerClients::gdalWmsDriver()
{
    if (QStandardPaths::findExecutable(QStringLiteral("gdal_translate")).isEmpty()) QSKIP("gdal-bin is not installed");
    Served s({QStringLiteral("--port"), QStringLiteral("0"), kWorld});
    const int port = s.waitForPort();
    QVERIFY(port > 0);
    const QString url = QStringLiteral("WMS:http://127.0.0.1:%1/world?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap"
                                       "&LAYERS=countries,cities&SRS=EPSG:4326&BBOX=-180,-90,180,90&FORMAT=image/png").arg(port);
    const Run info = run(QStringLiteral("gdalinfo"), {url});
    QVERIFY2(info.exitCode == 0, info.out.constData());
    QVERIFY2(info.out.contains("Driver: WMS/OGC Web Map Service"), info.out.constData());

    // Fetching pixels makes the driver send real GetMap requests.
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("world.png"));
    const Run translate = run(QStringLiteral("gdal_translate"), {QStringLiteral("-q"), QStringLiteral("-of"), QStringLiteral("PNG"),
                                                                  QStringLiteral("-outsize"), QStringLiteral("360"), QStringLiteral("180"), url, out});
    QVERIFY2(translate.exitCode == 0, translate.out.constData());
    const QImage image(out);
    QCOMPARE(image.size(), QSize(360, 180));
    // (-70,30) is inside the first polygon (green fill); (0,-80) is background.
    const QColor land = image.pixelColor(110, 60), sea = image.pixelColor(180, 170);
    QVERIFY2(land.green() > 120 && land.red() < 90, qPrintable(land.name()));
    QCOMPARE(sea, QColor(255, 255, 255));
}

void TestServerClients::owslib_data()
{
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("bbox");
    QTest::newRow("1.1.1") << "1.1.1" << "(-180, -90, 180, 90)";
    // WMS 1.3.0 EPSG:4326 is latitude first.
    QTest::newRow("1.3.0") << "1.3.0" << "(-90, -180, 90, 180)";
}

void TestServerClients::owslib()
{
    QFETCH(QString, version);
    QFETCH(QString, bbox);
    const QString python = QStringLiteral("/usr/bin/python3");
    if (run(python, {QStringLiteral("-c"), QStringLiteral("import owslib")}).exitCode != 0) QSKIP("python3-owslib is not installed");
    Served s({QStringLiteral("--port"), QStringLiteral("0"), kWorld});
    const int port = s.waitForPort();
    QVERIFY(port > 0);
    const QString script = QStringLiteral(
        "from owslib.wms import WebMapService\n"
        "wms = WebMapService('http://127.0.0.1:%1/world', version='%2')\n"
        "assert wms.identification.title == 'Server test world', wms.identification.title\n"
        "assert 'countries' in wms.contents and 'cities' in wms.contents, list(wms.contents)\n"
        "assert wms.contents['countries'].title == 'Countries'\n"
        "assert 'GetMap' in [op.name for op in wms.operations]\n"
        "img = wms.getmap(layers=['countries', 'cities'], styles=['', ''], srs='EPSG:4326', bbox=%3,\n"
        "                 size=(256, 128), format='image/png')\n"
        "data = img.read()\n"
        "assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', data[:200]\n"
        "print('OK', len(data))\n").arg(port).arg(version, bbox);
    const Run r = run(python, {QStringLiteral("-c"), script});
    QVERIFY2(r.exitCode == 0 && r.out.startsWith("OK "), r.out.constData());
}

void TestServerClients::behindNginx()
{
    const QString nginx = QStandardPaths::findExecutable(QStringLiteral("nginx"), {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")});
    if (nginx.isEmpty()) QSKIP("nginx is not installed");
    QTemporaryDir dir;
    // nginx's workers may run as another user: they must reach the socket.
    QFile::setPermissions(dir.path(), QFile::permissions(dir.path()) | QFileDevice::ExeOther | QFileDevice::ExeGroup
                                          | QFileDevice::ReadOther | QFileDevice::ReadGroup);
    const QString sock = dir.filePath(QStringLiteral("maptune.sock"));
    Served fcgi({QStringLiteral("--fastcgi"), sock, kWorld});
    QVERIFY2(fcgi.waitForLine("over FastCGI").contains("Serving world over FastCGI"), "serve --fastcgi did not start");
    QVERIFY(QFile::exists(sock));

    const int port = freePort();
    QFile conf(dir.filePath(QStringLiteral("nginx.conf")));
    QVERIFY(conf.open(QIODevice::WriteOnly));
    conf.write(QStringLiteral("daemon off;\nmaster_process on;\nworker_processes 1;\npid %1/nginx.pid;\nerror_log %1/error.log;\n"
                              "events { worker_connections 64; }\n"
                              "http {\n  access_log %1/access.log;\n  client_body_temp_path %1/body;\n"
                              "  fastcgi_temp_path %1/fastcgi;\n  proxy_temp_path %1/proxy;\n  uwsgi_temp_path %1/uwsgi;\n"
                              "  scgi_temp_path %1/scgi;\n"
                              "  server {\n    listen 127.0.0.1:%2;\n    location / {\n      fastcgi_pass unix:%3;\n"
                              "      include /etc/nginx/fastcgi_params;\n    }\n  }\n}\n")
                   .arg(dir.path())
                   .arg(port)
                   .arg(sock)
                   .toUtf8());
    conf.close();
    QProcess web;
    web.setProcessChannelMode(QProcess::MergedChannels);
    web.start(nginx, {QStringLiteral("-c"), conf.fileName(), QStringLiteral("-p"), dir.path(), QStringLiteral("-e"),
                      dir.filePath(QStringLiteral("error.log"))});
    QVERIFY(web.waitForStarted());
    httplib::Client c("127.0.0.1", port);
    c.set_read_timeout(30, 0);
    auto health = c.Get("/health");
    for (int i = 0; i < 100 && !health; ++i) {
        QTest::qWait(100);
        health = c.Get("/health");
    }
    QVERIFY2(health, web.readAll().constData());
    QCOMPARE(health->status, 200);
    QCOMPARE(health->body, std::string("ok\n"));

    auto caps = c.Get("/world?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities");
    QVERIFY(caps);
    QCOMPARE(caps->status, 200);
    QVERIFY(caps->get_header_value("Content-Type").rfind("text/xml", 0) == 0);
    QVERIFY(caps->body.find("<Title>Server test world</Title>") != std::string::npos);

    auto map = c.Get("/world?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=countries&STYLES=&SRS=EPSG:4326"
                     "&BBOX=-180,-90,180,90&WIDTH=200&HEIGHT=100&FORMAT=image/png");
    QVERIFY(map);
    QCOMPARE(map->status, 200);
    QCOMPARE(map->get_header_value("Content-Type"), std::string("image/png"));
    QVERIFY(map->body.compare(0, 4, "\x89PNG") == 0);
    QVERIFY(map->get_header_value("Server-Timing").find("layer;desc=\"countries\"") != std::string::npos);
    QCOMPARE(QImage::fromData(QByteArray::fromStdString(map->body)).size(), QSize(200, 100));

    auto metrics = c.Get("/metrics");
    QVERIFY(metrics && metrics->body.find("maptune_requests_total{map=\"world\",request=\"GetMap\",status=\"200\"} 1") != std::string::npos);

    web.terminate();
    QVERIFY(web.waitForFinished(10000));
    QCOMPARE(fcgi.stop(), 0);
    QVERIFY2(!QFile::exists(sock), "the socket is removed on exit");
}

QTEST_MAIN(TestServerClients)
#include "test_server_clients.moc"
