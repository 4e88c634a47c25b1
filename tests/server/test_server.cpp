// The HTTP transport in process on an ephemeral port, driven by httplib's client.

#include "render/engine.h"
#include "server/http_server.h"
#include "server/map_registry.h"
#include "server/service_router.h"

#include <httplib.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QRegularExpression>
#include <QDeadlineTimer>
#include <QSaveFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <thread>

using namespace maptune;

namespace {

const QString kWorld = QStringLiteral(MAPTUNE_TEST_DATA "/server/world.map");
const char* kGetMap = "/world?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=countries,cities&STYLES=&SRS=EPSG:4326"
                      "&BBOX=-180,-90,180,90&WIDTH=256&HEIGHT=128&FORMAT=image/png";

QByteArray fileText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Replaces the file at once (write + rename), as editors save.
void writeText(const QString& path, const QByteArray& text)
{
    QSaveFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
    QVERIFY(f.commit());
}

// A server with its own registry, router and HTTP transport on a free port.
struct Fixture {
    MapRegistry registry;
    std::unique_ptr<ServiceRouter> router;
    std::unique_ptr<HttpServer> http;

    explicit Fixture(const QStringList& maps, ServerOptions options = {})
    {
        for (const QString& m : maps) {
            const Status added = registry.addMapFile(m);
            if (!added) qWarning("%s", qPrintable(added.message()));
        }
        options.port = 0;
        router = std::make_unique<ServiceRouter>(registry, options);
        http = std::make_unique<HttpServer>(*router);
        const Status started = http->start();
        if (!started) qWarning("%s", qPrintable(started.message()));
    }
    httplib::Client client() const
    {
        httplib::Client c("127.0.0.1", http->port());
        c.set_read_timeout(30, 0);
        return c;
    }
};

// One raw HTTP/1.1 exchange on an open socket; returns the response body.
QByteArray exchange(int fd, const QByteArray& target, QByteArray* head)
{
    const QByteArray request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    if (::write(fd, request.constData(), size_t(request.size())) != request.size()) return {};
    QByteArray buffer;
    char chunk[4096];
    qsizetype headerEnd = -1, length = -1;
    while (length < 0 || buffer.size() < headerEnd + 4 + length) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n <= 0) return {};
        buffer.append(chunk, n);
        if (headerEnd < 0 && (headerEnd = buffer.indexOf("\r\n\r\n")) >= 0) {
            const auto m = QRegularExpression(QStringLiteral("Content-Length: *(\\d+)"), QRegularExpression::CaseInsensitiveOption)
                               .match(QString::fromLatin1(buffer.left(headerEnd)));
            length = m.hasMatch() ? m.captured(1).toLongLong() : 0;
        }
    }
    *head = buffer.left(headerEnd);
    return buffer.mid(headerEnd + 4, length);
}

}  // namespace

class TestServer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void registryNames_data();
    void registryNames();
    void routes_data();
    void routes();
    void getMapCarriesServerTiming();
    void profileAnswersLoopbackClients();
    void metricsCountRequests();
    void onlineResourceFollowsHost_data();
    void onlineResourceFollowsHost();
    void keepAlive();
    void uriTooLong();
    void overloadAnswers503();
    void concurrentOverload();
    void timeLimitCancels();
    void gracefulStop();
    void hotReload();
    void hotReloadFollowsIncludes();
    void hotReloadUnderLoad();
    void duplicateAndBrokenMaps();
};

void TestServer::registryNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("valid");
    QTest::newRow("plain") << "world" << true;
    QTest::newRow("dash-dot") << "my-map.v2" << true;
    QTest::newRow("parent") << ".." << false;
    QTest::newRow("hidden") << ".secret" << false;
    QTest::newRow("slash") << "a/b" << false;
    QTest::newRow("traversal") << "../etc/passwd" << false;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("space") << "my map" << false;
    QTest::newRow("nul") << QString(QChar(0)) << false;
}

void TestServer::registryNames()
{
    QFETCH(QString, name);
    QFETCH(bool, valid);
    QCOMPARE(MapRegistry::isValidName(name), valid);
    QCOMPARE(MapRegistry::nameForPath(QStringLiteral("/x/y/Roads.MAP")), QStringLiteral("Roads"));
}

void TestServer::routes_data()
{
    QTest::addColumn<QString>("target");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("contentType");
    QTest::addColumn<QString>("bodyContains");
    QTest::newRow("health") << "/health" << 200 << "text/plain" << "ok";
    QTest::newRow("capabilities 1.3.0") << "/world?SERVICE=WMS&REQUEST=GetCapabilities" << 200 << "text/xml"
                                        << "<Title>Server test world</Title>";
    QTest::newRow("capabilities 1.1.1") << "/world?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetCapabilities" << 200
                                        << "application/vnd.ogc.wms_xml" << "WMT_MS_Capabilities";
    QTest::newRow("single map at /") << "/?SERVICE=WMS&REQUEST=GetCapabilities" << 200 << "text/xml" << "Server test world";
    QTest::newRow("getmap") << kGetMap << 200 << "image/png" << "PNG";
    QTest::newRow("ows exception is 200") << "/world?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=nope" << 200
                                          << "application/vnd.ogc.se_xml" << "ServiceException";
    QTest::newRow("unknown map") << "/nowhere?SERVICE=WMS&REQUEST=GetCapabilities" << 404 << "text/plain" << "Unknown map";
    QTest::newRow("traversal") << "/../etc/passwd" << 404 << "text/plain" << "serves: world";
    QTest::newRow("encoded traversal") << "/%2e%2e%2fetc%2fpasswd?SERVICE=WMS" << 404 << "text/plain" << "Unknown map";
    QTest::newRow("mapfile name") << "/world.map?SERVICE=WMS" << 404 << "text/plain" << "Unknown map";
    QTest::newRow("nested") << "/world/x?SERVICE=WMS" << 404 << "text/plain" << "Unknown map";
}

void TestServer::routes()
{
    QFETCH(QString, target);
    QFETCH(int, status);
    QFETCH(QString, contentType);
    QFETCH(QString, bodyContains);
    Fixture f({kWorld});
    auto res = f.client().Get(target.toStdString());
    QVERIFY2(res, "no response");
    QCOMPARE(res->status, status);
    QVERIFY2(QString::fromStdString(res->get_header_value("Content-Type")).startsWith(contentType),
             res->get_header_value("Content-Type").c_str());
    QVERIFY2(QByteArray::fromStdString(res->body).contains(bodyContains.toUtf8()), res->body.substr(0, 300).c_str());
    // A 404 never echoes the path it was asked for.
    if (status == 404) QVERIFY(!QByteArray::fromStdString(res->body).contains("passwd"));
}

void TestServer::getMapCarriesServerTiming()
{
    Fixture f({kWorld});
    auto res = f.client().Get(kGetMap);
    QVERIFY(res);
    QCOMPARE(res->status, 200);
    QVERIFY(res->body.size() > 8 && res->body.compare(0, 4, "\x89PNG") == 0);
    const QString timing = QString::fromStdString(res->get_header_value("Server-Timing"));
    QVERIFY2(timing.contains(QStringLiteral("layer;desc=\"countries\";dur=")), qPrintable(timing));
    QVERIFY2(timing.contains(QStringLiteral("layer;desc=\"cities\";dur=")), qPrintable(timing));
    QVERIFY(QRegularExpression(QStringLiteral("encode;dur=[0-9.]+")).match(timing).hasMatch());
    QVERIFY(QRegularExpression(QStringLiteral("total;dur=[0-9.]+$")).match(timing).hasMatch());
    // Not only images: capabilities carry a total too.
    auto caps = f.client().Get("/world?SERVICE=WMS&REQUEST=GetCapabilities");
    QVERIFY(caps);
    QVERIFY(QString::fromStdString(caps->get_header_value("Server-Timing")).startsWith(QStringLiteral("total;dur=")));
}

// &MAPTUNE_PROFILE=json: the trace instead of the image, for this machine only
// unless the server allows it (DESIGN.md).
void TestServer::profileAnswersLoopbackClients()
{
    Fixture f({kWorld});
    const std::string target = std::string(kGetMap) + "&MAPTUNE_PROFILE=json";
    auto res = f.client().Get(target);
    QVERIFY(res);
    QCOMPARE(res->status, 200);
    QCOMPARE(QString::fromStdString(res->get_header_value("Content-Type")), QStringLiteral("application/json"));
    QVERIFY(!res->get_header_value("Server-Timing").empty());
    const QJsonObject profile = QJsonDocument::fromJson(QByteArray::fromStdString(res->body)).object();
    QCOMPARE(profile.value(QLatin1String("status")).toInt(), 200);
    QCOMPARE(profile.value(QLatin1String("contentType")).toString(), QStringLiteral("image/png"));
    QVERIFY(profile.value(QLatin1String("bytes")).toInt() > 8);
    const QJsonObject trace = profile.value(QLatin1String("trace")).toObject();
    QVERIFY(trace.value(QLatin1String("totalMs")).toDouble() > 0);
    QVERIFY(trace.value(QLatin1String("encode")).toObject().value(QLatin1String("ms")).toDouble() > 0);
    QStringList layers;
    double lastStart = -1;
    for (const QJsonValue& v : trace.value(QLatin1String("layers")).toArray()) {
        const QJsonObject layer = v.toObject();
        layers << layer.value(QLatin1String("layer")).toString();
        const double start = layer.value(QLatin1String("startMs")).toDouble();
        QVERIFY2(start >= lastStart, "layers draw one after another");
        lastStart = start;
        QStringList phases;
        for (const QJsonValue& p : layer.value(QLatin1String("phases")).toArray())
            phases << p.toObject().value(QLatin1String("phase")).toString();
        QCOMPARE(phases.mid(0, 3), (QStringList{QStringLiteral("open"), QStringLiteral("read"), QStringLiteral("draw")}));
        QVERIFY(layer.value(QLatin1String("features")).toInt() > 0);
    }
    QVERIFY2(layers.contains(QLatin1String("countries")) && layers.contains(QLatin1String("cities")),
             qPrintable(layers.join(',')));

    QCOMPARE(QString::fromStdString(res->get_header_value("Cache-Control")), QStringLiteral("no-store"));
    // A request a proxy forwarded is not loopback, even from 127.0.0.1...
    httplib::Headers viaProxy{{"X-Forwarded-For", "203.0.113.9"}};
    auto proxied = f.client().Get(target, viaProxy);
    QVERIFY(proxied);
    QCOMPARE(QString::fromStdString(proxied->get_header_value("Content-Type")), QStringLiteral("image/png"));

    // Another machine gets the image, as if the parameter were not there...
    const QByteArray query = QByteArray(kGetMap).mid(QByteArray(kGetMap).indexOf('?') + 1) + "&MAPTUNE_PROFILE=json";
    const Response remote = f.router->handle("GET", "/world", query, ServiceRouter::PathMode::Strict, {}, "192.0.2.7");
    QCOMPARE(remote.status, 200);
    QCOMPARE(remote.contentType(), QByteArray("image/png"));
    QVERIFY(remote.body.startsWith("\x89PNG"));
    // ...unless the server runs with --allow-profile.
    ServerOptions allow;
    allow.allowProfile = true;
    Fixture open({kWorld}, allow);
    const Response allowed = open.router->handle("GET", "/world", query, ServiceRouter::PathMode::Strict, {}, "192.0.2.7");
    QCOMPARE(allowed.contentType(), QByteArray("application/json"));
    // Capabilities render nothing: the profile says so with a null trace.
    const Response caps = f.router->handle("GET", "/world", "SERVICE=WMS&REQUEST=GetCapabilities&MAPTUNE_PROFILE=json",
                                           ServiceRouter::PathMode::Strict, {}, "127.0.0.1");
    QVERIFY(QJsonDocument::fromJson(caps.body).object().value(QLatin1String("trace")).isNull());
}

void TestServer::metricsCountRequests()
{
    Fixture f({kWorld});
    auto c = f.client();
    for (int i = 0; i < 3; ++i) QCOMPARE(c.Get(kGetMap)->status, 200);
    QCOMPARE(c.Get("/world?SERVICE=WMS&REQUEST=GetCapabilities")->status, 200);
    auto res = c.Get("/metrics");
    QVERIFY(res);
    QCOMPARE(res->status, 200);
    const QString text = QString::fromStdString(res->body);
    QVERIFY2(text.contains(QStringLiteral("maptune_requests_total{map=\"world\",request=\"GetMap\",status=\"200\"} 3")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("maptune_requests_total{map=\"world\",request=\"GetCapabilities\",status=\"200\"} 1")));
    QVERIFY(text.contains(QStringLiteral("maptune_request_duration_seconds_count{map=\"world\",request=\"GetMap\"} 3")));
    QVERIFY(text.contains(QStringLiteral("maptune_request_duration_seconds_bucket{map=\"world\",request=\"GetMap\",le=\"+Inf\"} 3")));
    QVERIFY(text.contains(QStringLiteral("maptune_layer_render_seconds_count{map=\"world\",layer=\"countries\"} 3")));
    QVERIFY(text.contains(QStringLiteral("maptune_layer_features_total{map=\"world\",layer=\"cities\"} ")));
    QVERIFY(text.contains(QStringLiteral("maptune_pg_pool_connections{state=\"in_use\"} ")));
    QVERIFY(text.contains(QStringLiteral("maptune_pg_pool_waits_total ")));
    QVERIFY(text.contains(QStringLiteral("maptune_map_reload_error{map=\"world\"} 0")));
    // Every sample line is "name{labels} value" or "name value".
    for (const QString& line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1Char('#'))) continue;
        QVERIFY2(QRegularExpression(QStringLiteral("^[a-z_]+(\\{[^}]*\\})? [-+0-9.eInf]+$")).match(line).hasMatch(), qPrintable(line));
    }
}

void TestServer::onlineResourceFollowsHost_data()
{
    QTest::addColumn<QString>("host");
    QTest::addColumn<QString>("expected");
    QTest::newRow("host and port") << "maps.example.org:8081" << "xlink:href=\"http://maps.example.org:8081/world?";
    QTest::newRow("ipv6") << "[::1]:8080" << "xlink:href=\"http://[::1]:8080/world?";
    // Anything odd in Host is not trusted: MapServer's default stands.
    QTest::newRow("markup") << "x\"><evil" << "xlink:href=\"http://localhost/cgi-bin/mapserv?";
}

void TestServer::onlineResourceFollowsHost()
{
    QFETCH(QString, host);
    QFETCH(QString, expected);
    Fixture f({kWorld});
    auto res = f.client().Get("/world?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetCapabilities", {{"Host", host.toStdString()}});
    QVERIFY(res);
    QCOMPARE(res->status, 200);
    QVERIFY2(res->body.find(expected.toStdString()) != std::string::npos, res->body.c_str());
    QVERIFY(res->body.find("evil") == std::string::npos);
}

void TestServer::keepAlive()
{
    Fixture f({kWorld});
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(quint16(f.http->port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    QCOMPARE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    QByteArray head;
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(exchange(fd, "/health", &head), QByteArray("ok\n"));
        QVERIFY2(head.startsWith("HTTP/1.1 200"), head.constData());
    }
    const QByteArray png = exchange(fd, kGetMap, &head);
    QVERIFY(png.startsWith("\x89PNG"));
    QVERIFY(head.contains("Server-Timing: "));
    QVERIFY(exchange(fd, "/world?SERVICE=WMS&REQUEST=GetCapabilities", &head).contains("Server test world"));
    ::close(fd);
}

void TestServer::uriTooLong()
{
    ServerOptions o;
    o.maxUriLength = 1000;
    Fixture f({kWorld}, o);
    auto res = f.client().Get(("/world?SERVICE=WMS&REQUEST=GetCapabilities&X=" + QByteArray(2000, 'a')).toStdString());
    QVERIFY(res);
    QCOMPARE(res->status, 414);
    auto ok = f.client().Get(("/world?SERVICE=WMS&REQUEST=GetCapabilities&X=" + QByteArray(500, 'a')).toStdString());
    QCOMPARE(ok->status, 200);
}

void TestServer::overloadAnswers503()
{
    ServerOptions o;
    o.workers = 1;
    o.queueFactor = 2;
    Fixture f({kWorld}, o);
    QCOMPARE(f.router->gate().maxAdmitted(), 2);
    // Hold both admissions, as two slow renders would.
    auto a = f.router->gate().tryAdmit();
    auto b = f.router->gate().tryAdmit();
    QVERIFY(a && b);
    QVERIFY(!f.router->gate().tryAdmit());
    auto res = f.client().Get(kGetMap);
    QVERIFY(res);
    QCOMPARE(res->status, 503);
    QCOMPARE(res->get_header_value("Retry-After"), std::string("1"));
    // /health and /metrics stay available under load.
    QCOMPARE(f.client().Get("/health")->status, 200);
    QVERIFY(f.client().Get("/metrics")->body.find("maptune_overload_rejections_total 1") != std::string::npos);
    b.reset();
    QCOMPARE(f.client().Get(kGetMap)->status, 200);
}

void TestServer::concurrentOverload()
{
    ServerOptions o;
    o.workers = 1;
    o.queueFactor = 1;
    Fixture f({kWorld}, o);
    const std::string big = "/world?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=countries,cities&STYLES=&SRS=EPSG:4326"
                            "&BBOX=-180,-90,180,90&WIDTH=3000&HEIGHT=3000&FORMAT=image/png";
    std::atomic<int> ok{0}, busy{0}, other{0};
    std::vector<std::thread> clients;
    for (int i = 0; i < 6; ++i)
        clients.emplace_back([&] {
            auto res = f.client().Get(big);
            if (res && res->status == 200) ok++;
            else if (res && res->status == 503 && res->get_header_value("Retry-After") == "1") busy++;
            else other++;
        });
    for (auto& t : clients) t.join();
    QCOMPARE(other.load(), 0);
    QVERIFY2(ok >= 1, qPrintable(QString::number(ok)));
    QVERIFY2(busy >= 1, qPrintable(QString::number(busy)));
}

void TestServer::timeLimitCancels()
{
    ServerOptions o;
    o.timeLimitMs = 1;
    Fixture f({kWorld}, o);
    auto res = f.client().Get("/world?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=countries&STYLES=&SRS=EPSG:4326"
                              "&BBOX=-180,-90,180,90&WIDTH=3000&HEIGHT=3000&FORMAT=image/png");
    QVERIFY(res);
    QVERIFY2(res->body.find("time limit") != std::string::npos, res->body.substr(0, 300).c_str());
    QVERIFY(res->body.find("ServiceException") != std::string::npos);
    QVERIFY(f.client().Get("/metrics")->body.find("maptune_time_limit_exceeded_total 1") != std::string::npos);
}

// An edit to a file the map INCLUDEs is an edit to the map.
void TestServer::hotReloadFollowsIncludes()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("inc.map"));
    const QString include = dir.filePath(QStringLiteral("title.inc"));
    const QByteArray original = fileText(kWorld);
    const QByteArray titleLine = "\"wms_title\" \"Server test world\"";
    QVERIFY(original.contains(titleLine));
    writeText(include, titleLine + "\n");
    writeText(path, QByteArray(original).replace(titleLine, "INCLUDE \"title.inc\""));
    Fixture f({path});
    f.registry.startWatching(50);
    auto capabilities = [&f] { return QByteArray::fromStdString(f.client().Get("/inc?SERVICE=WMS&REQUEST=GetCapabilities")->body); };
    QVERIFY(capabilities().contains("Server test world"));

    writeText(include, "\"wms_title\" \"Title from the include\"\n");
    QTRY_VERIFY_WITH_TIMEOUT(capabilities().contains("Title from the include"), 5000);
    QCOMPARE(f.registry.find(QStringLiteral("inc"))->generation, 2);

    // A broken include keeps the last good version and names the include.
    writeText(include, "\"wms_title\" \"unterminated\n");
    QTRY_VERIFY_WITH_TIMEOUT(!f.registry.status().first().lastError.isEmpty(), 5000);
    QVERIFY2(f.registry.status().first().lastError.contains(QStringLiteral("title.inc:")), qPrintable(f.registry.status().first().lastError));
    QVERIFY(capabilities().contains("Title from the include"));
}

void TestServer::gracefulStop()
{
    Fixture f({kWorld});
    std::optional<httplib::Result> slow;
    std::thread client([&] {
        slow = f.client().Get("/world?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=countries,cities&STYLES=&SRS=EPSG:4326"
                              "&BBOX=-180,-90,180,90&WIDTH=3000&HEIGHT=3000&FORMAT=image/png");
    });
    const auto joinClient = qScopeGuard([&client] { if (client.joinable()) client.join(); });
    // The render takes tens of milliseconds on a fast machine: look every
    // millisecond (QTRY's 50 ms steps could miss it whole).
    const QDeadlineTimer deadline(5000);
    while (f.router->gate().admitted() == 0 && !deadline.hasExpired()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    QCOMPARE(f.router->gate().admitted(), 1);
    f.http->stop();  // returns once the request in flight is answered
    client.join();
    QVERIFY(slow && *slow);
    QCOMPARE((*slow)->status, 200);
    QVERIFY((*slow)->body.compare(0, 4, "\x89PNG") == 0);
    // Nothing is accepted any more.
    httplib::Client late("127.0.0.1", f.http->port());
    late.set_connection_timeout(1, 0);
    QVERIFY(!late.Get("/health"));
}

void TestServer::hotReload()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("live.map"));
    const QByteArray original = fileText(kWorld);
    QVERIFY(original.contains("Server test world"));
    writeText(path, original);
    Fixture f({path});
    f.registry.startWatching(50);
    auto capabilities = [&f] { return QByteArray::fromStdString(f.client().Get("/live?SERVICE=WMS&REQUEST=GetCapabilities")->body); };
    QVERIFY(capabilities().contains("Server test world"));
    ServedMapPtr before = f.registry.find(QStringLiteral("live"));

    writeText(path, QByteArray(original).replace("Server test world", "Edited title"));
    QTRY_VERIFY_WITH_TIMEOUT(capabilities().contains("Edited title"), 5000);
    QCOMPARE(f.registry.find(QStringLiteral("live"))->generation, 2);
    // Whoever held the old version still has it, intact.
    QCOMPARE(before->generation, 1);
    QCOMPARE(before->map->web.metadata.value(QStringLiteral("wms_title")).value_or(QString()), QStringLiteral("Server test world"));

    writeText(path, QByteArray(original).replace("Server test world", "Broken").replace("  NAME \"world\"", "  NAME \"world\"\n  BOGUSKEYWORD 12"));
    QTRY_VERIFY_WITH_TIMEOUT(!f.registry.status().first().lastError.isEmpty(), 5000);
    QVERIFY2(f.registry.status().first().lastError.contains(QStringLiteral("live.map:")), qPrintable(f.registry.status().first().lastError));
    QVERIFY(capabilities().contains("Edited title"));
    const std::string metrics = f.client().Get("/metrics")->body;
    QVERIFY(metrics.find("maptune_map_reload_error{map=\"live\"} 1") != std::string::npos);
    QVERIFY(metrics.find("maptune_map_reloads_total{map=\"live\",result=\"error\"} 1") != std::string::npos);

    writeText(path, QByteArray(original).replace("Server test world", "Fixed again"));
    QTRY_VERIFY_WITH_TIMEOUT(capabilities().contains("Fixed again"), 5000);
    QVERIFY(f.registry.status().first().lastError.isEmpty());
    QCOMPARE(f.registry.find(QStringLiteral("live"))->generation, 3);
}

// Clients keep asking while the mapfile flips between a red and a blue
// version: every answer is a whole image of one version (the PreparedMap of
// a version is built before it is swapped in), never an error, never a mix.
void TestServer::hotReloadUnderLoad()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("flip.map"));
    auto version = [](int i) {
        const QByteArray colour = i % 2 ? "0 0 255" : "255 0 0";
        return "MAP NAME 'flip' SIZE 40 40 EXTENT 0 0 10 10 PROJECTION 'init=epsg:4326' END\n"
               " WEB METADATA 'wms_enable_request' '*' 'wms_srs' 'EPSG:4326' 'wms_title' 'v" + QByteArray::number(i) + "' END END\n"
               "LAYER NAME 'sq' TYPE POLYGON STATUS ON FILTER ([k] = 1)\n"
               " FEATURE POINTS 0 0 10 0 10 10 0 10 0 0 END ITEMS '1' END PROCESSING 'ITEMS=k'\n"
               " CLASS EXPRESSION ([k] > 0) STYLE COLOR " + colour + " END END END END\n";
    };
    writeText(path, version(0));
    Fixture f({path});
    std::atomic<bool> stop{false};
    std::atomic<int> answers{0}, bad{0};
    QStringList problems;
    QMutex problemsMutex;
    std::vector<std::thread> clients;
    for (int c = 0; c < 3; ++c) {
        clients.emplace_back([&] {
            httplib::Client client = f.client();
            while (!stop) {
                auto r = client.Get("/flip?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=sq&STYLES=&SRS=EPSG:4326"
                                    "&BBOX=0,0,10,10&WIDTH=20&HEIGHT=20&FORMAT=image/png");
                QString problem;
                if (!r || r->status != 200) {
                    problem = QStringLiteral("HTTP %1").arg(r ? r->status : -1);
                } else {
                    // Inside the square (its edges are antialiased against the background).
                    const QImage image = QImage::fromData(QByteArray::fromStdString(r->body), "PNG");
                    const QRgb first = image.isNull() ? 0 : image.pixel(5, 5);
                    const bool uniform = !image.isNull() && image.pixel(14, 14) == first && image.pixel(10, 10) == first;
                    if (!uniform || (first != qRgb(255, 0, 0) && first != qRgb(0, 0, 255)))
                        problem = QStringLiteral("not one version's image: pixel %1, %2 bytes")
                                      .arg(first, 8, 16, QLatin1Char('0'))
                                      .arg(r->body.size());
                }
                ++answers;
                if (!problem.isEmpty()) {
                    ++bad;
                    QMutexLocker lock(&problemsMutex);
                    problems << problem;
                }
            }
        });
    }
    for (int i = 1; i <= 20; ++i) {
        writeText(path, version(i));
        // Nanosecond mtimes and sizes tell every edit apart; reload now.
        f.registry.checkForChanges();
        QCOMPARE(f.registry.find(QStringLiteral("flip"))->map->web.metadata.value(QStringLiteral("wms_title")).value_or(QString()),
                 QStringLiteral("v%1").arg(i));
        QThread::msleep(20);
    }
    stop = true;
    for (auto& t : clients) t.join();
    QVERIFY2(bad == 0, qPrintable(problems.join(QLatin1Char('\n'))));
    QVERIFY(answers > 20);
    QCOMPARE(f.registry.find(QStringLiteral("flip"))->generation, 21);
}

void TestServer::duplicateAndBrokenMaps()
{
    QTemporaryDir dir;
    MapRegistry registry;
    QVERIFY(registry.addMapFile(kWorld).ok());
    const Status duplicate = registry.addMapFile(kWorld);
    QVERIFY(!duplicate && duplicate.message().contains(QStringLiteral("already served")));
    const QString broken = dir.filePath(QStringLiteral("broken.map"));
    writeText(broken, "MAP\n  NAME \"x\"\n  LAYRE\nEND\n");
    const Status error = registry.addMapFile(broken);
    QVERIFY(!error && error.message().contains(QStringLiteral("broken.map:3:")));
    QCOMPARE(registry.names(), QStringList{QStringLiteral("world")});
    QVERIFY(registry.single());
    QVERIFY(!registry.addMapFile(dir.filePath(QStringLiteral("missing.map"))).ok());
}

QTEST_MAIN(TestServer)
#include "test_server.moc"
