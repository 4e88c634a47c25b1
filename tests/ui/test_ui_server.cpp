// Workbench tests: the embedded WMS server panel.

#include "ui_test_support.h"

#include "main_window.h"
#include "map_canvas.h"
#include "map_document.h"
#include "pool_status_view.h"
#include "server_panel.h"

#include "wms/online_resource.h"

#include "mapfile/map_loader.h"

#include "data/postgis/pg_connection_pool.h"
#include "render/engine.h"

#include <httplib.h>

#include <QFile>
#include <QImage>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextCursor>
#include <QTreeWidget>
#include <QUrl>

using namespace maptune;
using namespace maptune::testing;

class TestUiServer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void serverPanelServesAndStops();
    void servesTheEditorsText();
    void warnsOfAnOnlineResourceElsewhere();
    void anotherMapStartsItsOwnLog();
    void poolStatusPerConnection();
    void poolStatusFollowsConnections();
};

namespace {

struct Fetched {
    int status = 0;
    QByteArray contentType;
    QByteArray body;
    QString error;
};

// A GET through Qt Network, as any desktop WMS client would make it.
Fetched fetch(QNetworkAccessManager& nam, const QUrl& url)
{
    QNetworkReply* reply = nam.get(QNetworkRequest(url));
    QSignalSpy finished(reply, &QNetworkReply::finished);
    if (!reply->isFinished()) finished.wait(15000);
    Fetched f;
    f.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    f.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    f.body = reply->readAll();
    if (reply->error() != QNetworkReply::NoError) f.error = reply->errorString();
    reply->deleteLater();
    return f;
}

QUrl getMapUrl(const QString& base)
{
    return QUrl(base + "?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=red,frame&STYLES=&CRS=EPSG:3857"
                       "&BBOX=0,0,100,100&WIDTH=100&HEIGHT=100&FORMAT=image/png");
}

}  // namespace

void TestUiServer::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    initEngine();
}

void TestUiServer::serverPanelServesAndStops()
{
    QTemporaryDir dir;
    const QByteArray served = servedSquares();
    const QString path = writeFile(dir.filePath("squares.map"), served);
    ServerPanel panel;
    QSignalSpy running(&panel, &ServerPanel::runningChanged);
    panel.setMapPath(path);
    panel.setPort(0);
    const Status started = panel.start();
    QVERIFY2(started, qPrintable(started.message()));
    QCOMPARE(running.count(), 1);
    const int port = panel.port();
    QVERIFY(port > 0);
    QCOMPARE(panel.baseUrl(), QStringLiteral("http://127.0.0.1:%1/squares").arg(port));

    httplib::Client client("127.0.0.1", port);
    client.set_connection_timeout(2);
    auto health = client.Get("/health");
    QVERIFY(health);
    QCOMPARE(health->status, 200);
    QCOMPARE(QByteArray::fromStdString(health->body).trimmed(), QByteArray("ok"));

    // The capabilities URL the panel shows answers, and the request is logged.
    const QUrl caps(panel.capabilitiesUrl());
    auto capabilities = client.Get((caps.path() + "?" + caps.query()).toStdString());
    QVERIFY(capabilities);
    QCOMPARE(capabilities->status, 200);
    QVERIFY2(QByteArray::fromStdString(capabilities->body).contains("<Name>red</Name>"), capabilities->body.c_str());
    QTRY_COMPARE(panel.servedCount(), qint64(1));
    QCOMPARE(panel.log()->topLevelItemCount(), 1);
    QCOMPARE(panel.log()->topLevelItem(0)->text(1), QStringLiteral("GetCapabilities"));
    QCOMPARE(panel.log()->topLevelItem(0)->text(2), QStringLiteral("200"));

    // A save on disk is served without a restart (the registry's watcher).
    QByteArray edited(served);
    edited.replace("NAME \"blue\"", "NAME \"navy\"");
    QVERIFY(QFile::remove(path));
    writeFile(path, edited);
    QTRY_VERIFY_WITH_TIMEOUT(QByteArray::fromStdString(
                                 client.Get((caps.path() + "?" + caps.query()).toStdString())->body)
                                 .contains("<Name>navy</Name>"),
                             5000);

    panel.stop();
    QVERIFY(!panel.isRunning());
    QCOMPARE(panel.port(), -1);
    QCOMPARE(running.count(), 2);
    httplib::Client after("127.0.0.1", port);
    after.set_connection_timeout(1);
    QVERIFY(!after.Get("/health"));
}

void TestUiServer::warnsOfAnOnlineResourceElsewhere()
{
    // A mapfile copied from another server still names that server's port:
    // capabilities would send clients there.
    QTemporaryDir dir;
    QByteArray text = servedSquares();
    text.replace("\"wms_srs\"", "\"wms_onlineresource\" \"http://127.0.0.1:1/cgi-bin/mapserv?\" \"wms_srs\"");
    const QString path = writeFile(dir.filePath("copied.map"), text);
    ServerPanel panel;
    panel.setMapPath(path);
    panel.setPort(0);
    const Status started = panel.start();
    QVERIFY2(started, qPrintable(started.message()));
    QVERIFY2(panel.onlineResourceWarning().contains(QStringLiteral("http://127.0.0.1:1/cgi-bin/mapserv?")),
             qPrintable(panel.onlineResourceWarning()));
    QVERIFY(panel.onlineResourceWarning().contains(panel.baseUrl()));
    QVERIFY(panel.statusText().contains(QStringLiteral("wms_onlineresource")));
    panel.stop();

    // Naming this very server (localhost for 127.0.0.1) is no reason to warn.
    ServerPanel own;
    const QString plain = writeFile(dir.filePath("own.map"), servedSquares());
    own.setMapPath(plain);
    own.setPort(0);
    QVERIFY(own.start());
    QVERIFY(own.onlineResourceWarning().isEmpty());
    MapDefPtr map = parseMapText(servedSquares().replace(
                                     "\"wms_srs\"", QStringLiteral("\"wms_onlineresource\" \"http://localhost:%1/own?\" \"wms_srs\"")
                                                         .arg(own.port()).toUtf8()),
                                 plain)
                        .map;
    QVERIFY(map);
    QVERIFY(!foreignOnlineResource(*map, own.baseUrl()));
    QVERIFY(foreignOnlineResource(*map, QStringLiteral("http://127.0.0.1:%1/own").arg(own.port() + 1)));
}

void TestUiServer::anotherMapStartsItsOwnLog()
{
    QTemporaryDir dir;
    const QString first = writeFile(dir.filePath("first.map"), servedSquares());
    const QString second = writeFile(dir.filePath("second.map"), servedSquares());
    ServerPanel panel;
    panel.setMapPath(first);
    panel.setPort(0);
    QVERIFY(panel.start());
    httplib::Client client("127.0.0.1", panel.port());
    QVERIFY(client.Get("/first?SERVICE=WMS&REQUEST=GetCapabilities"));
    QVERIFY(client.Get("/first?SERVICE=WMS&REQUEST=GetMap"));  // a ServiceException: no LAYERS
    QTRY_COMPARE(panel.servedCount(), qint64(2));
    QCOMPARE(panel.log()->topLevelItemCount(), 2);
    panel.setMapPath(second);
    QVERIFY(panel.isRunning());
    QCOMPARE(panel.servedCount(), qint64(0));
    QCOMPARE(panel.errorCount(), qint64(0));
    QCOMPARE(panel.log()->topLevelItemCount(), 0);
}

void TestUiServer::servesTheEditorsText()
{
    QTemporaryDir dir;
    const QByteArray saved = servedSquares();
    const QString path = writeFile(dir.filePath("squares.map"), saved);
    MainWindow window;
    QVERIFY(window.openFile(path));
    ServerPanel* panel = window.serverPanel();
    panel->setPort(0);
    const Status started = panel->start();
    QVERIFY2(started, qPrintable(started.message()));

    QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    Fetched caps = fetch(nam, QUrl(panel->capabilitiesUrl()));
    QVERIFY2(caps.error.isEmpty(), qPrintable(caps.error));
    QCOMPARE(caps.status, 200);
    QVERIFY(caps.contentType.contains("xml"));
    QVERIFY(caps.body.contains("<Name>blue</Name>"));
    // WMS 1.3.0 in EPSG:3857 is x,y: the red square's middle (25, 75) is pixel (25, 25).
    Fetched map = fetch(nam, getMapUrl(panel->baseUrl()));
    QCOMPARE(map.status, 200);
    QCOMPARE(map.contentType, QByteArray("image/png"));
    QImage image = QImage::fromData(map.body, "PNG");
    QCOMPARE(image.size(), QSize(100, 100));
    QCOMPARE(QColor(image.pixel(25, 25)), QColor(255, 0, 0));
    QTRY_COMPARE(panel->servedCount(), qint64(2));

    // An unsaved edit (blue renamed, red painted green) is served as soon as it parses.
    MapDocument* doc = window.document();
    QString text = doc->text();
    text.replace("NAME \"blue\"", "NAME \"navy\"").replace("COLOR 255 0 0", "COLOR 0 255 0");
    QTextCursor cursor(doc->textDocument());
    cursor.select(QTextCursor::Document);
    cursor.insertText(text);
    const int generation = panel->servedGeneration();
    QVERIFY(generation >= 1);
    QVERIFY(doc->compileNow());
    QVERIFY(doc->isModified());
    QCOMPARE(panel->servedGeneration(), generation + 1);
    caps = fetch(nam, QUrl(panel->capabilitiesUrl()));
    QVERIFY(caps.body.contains("<Name>navy</Name>"));
    QVERIFY(!caps.body.contains("<Name>blue</Name>"));
    image = QImage::fromData(fetch(nam, getMapUrl(panel->baseUrl())).body, "PNG");
    QCOMPARE(QColor(image.pixel(25, 25)), QColor(0, 255, 0));
    QCOMPARE(readFile(path), saved);  // nothing was written to disk

    // A broken edit keeps the last good text serving.
    cursor.movePosition(QTextCursor::Start);
    cursor.insertText("STYEL\n");
    QVERIFY(!doc->compileNow());
    QCOMPARE(panel->servedGeneration(), generation + 1);
    QVERIFY(fetch(nam, QUrl(panel->capabilitiesUrl())).body.contains("<Name>navy</Name>"));

    // An edit that reads a file outside the map's data roots is not served, as a save would not be.
    cursor.select(QTextCursor::Document);
    cursor.insertText(QString(text).replace("  LAYER\n    NAME \"navy\"",
                                            "  LAYER NAME \"outside\" TYPE RASTER STATUS OFF DATA \"/etc/hostname\" END\n"
                                            "  LAYER\n    NAME \"navy\""));
    QVERIFY(doc->text().contains("outside"));
    QVERIFY(doc->compileNow());
    QCOMPARE(panel->servedGeneration(), generation + 1);
    QVERIFY(!fetch(nam, QUrl(panel->capabilitiesUrl())).body.contains("outside"));

    // Another program saves a broken file while the editor's good text is served:
    // the watcher cannot load it, and the status says so only while the saved
    // file is what is served.
    cursor.select(QTextCursor::Document);
    cursor.insertText(text);
    QVERIFY(doc->compileNow());
    QTRY_VERIFY(panel->statusText().contains(QStringLiteral("the editor's text")));
    QVERIFY(QFile::remove(path));
    writeFile(path, QByteArray(saved).replace("END # MAP", "").replace("STATUS ON", "STATUS ON STYEL"));
    QTest::qWait(1500);  // three polls of the registry's watcher
    QVERIFY2(panel->statusText().contains(QStringLiteral("the editor's text")), qPrintable(panel->statusText()));
    QVERIFY2(!panel->statusText().contains(QStringLiteral("does not load")), qPrintable(panel->statusText()));

    panel->stop();
}

void TestUiServer::poolStatusPerConnection()
{
    // Two layers share one connection, a third has its own; nothing has connected yet.
    const LoadResult loaded = parseMapText(R"MAP(MAP
  EXTENT 0 0 10 10
  SIZE 10 10
  LAYER NAME "roads" TYPE LINE CONNECTIONTYPE POSTGIS
    CONNECTION "host=db.invalid dbname=gis user=u password=Secret99"
    DATA "geom from roads" END
  LAYER NAME "rivers" TYPE LINE CONNECTIONTYPE POSTGIS
    CONNECTION "host=db.invalid dbname=gis user=u password=Secret99"
    DATA "geom from rivers" END
  LAYER NAME "parks" TYPE POLYGON CONNECTIONTYPE POSTGIS
    CONNECTION "host=other.invalid dbname=gis user=u"
    DATA "geom from parks" END
  LAYER NAME "frame" TYPE LINE FEATURE POINTS 0 0 10 10 END END END
END
)MAP", QString());
    QVERIFY2(loaded.ok(), qPrintable(loaded.diagnostics.isEmpty() ? QString() : loaded.diagnostics.first().toString()));
    ServerPanel panel;
    panel.setMap(MapDefPtr(loaded.map));
    PoolStatusView* pools = panel.pools();
    QCOMPARE(pools->poolCount(), 2);
    QCOMPARE(pools->topLevelItemCount(), 2);
    QTreeWidgetItem* shared = pools->topLevelItem(0);
    QCOMPARE(shared->text(PoolStatusView::LayersCol), QStringLiteral("roads, rivers"));
    QVERIFY(shared->text(PoolStatusView::ConnectionCol).contains("db.invalid"));
    QVERIFY(!shared->text(PoolStatusView::ConnectionCol).contains("Secret99"));
    QCOMPARE(pools->topLevelItem(1)->text(PoolStatusView::LayersCol), QStringLiteral("parks"));
    for (int c = PoolStatusView::OpenCol; c < PoolStatusView::ColumnCount; ++c)
        QCOMPARE(shared->text(c), QStringLiteral("0"));
    // A map without PostGIS layers has no pools to show.
    panel.setMap(MapDefPtr(parseMapText(kSquares, QString()).map));
    QCOMPARE(pools->topLevelItemCount(), 0);
}

void TestUiServer::poolStatusFollowsConnections()
{
    // Against the test cluster (tests/postgis' fixture "pg"; PGHOST/PGPORT name it).
    const QString conninfo = QStringLiteral("host=%1 port=%2 dbname=maptune_test user=maptune application_name=ui_pool")
                                 .arg(qEnvironmentVariable("PGHOST", "127.0.0.1"),
                                      qEnvironmentVariable("PGPORT", QString::number(MAPTUNE_PG_TEST_PORT)));
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("points.map"), QStringLiteral(R"MAP(MAP
  NAME "points"
  SIZE 100 100
  EXTENT 0 0 100 100
  PROJECTION "init=epsg:3857" END
  WEB METADATA "wms_enable_request" "*" "wms_srs" "EPSG:3857" END END
  LAYER
    NAME "dots"
    TYPE POINT
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION "%1"
    DATA "geom from (select 1 as id, ST_SetSRID(ST_MakePoint(50, 50), 3857) as geom) as t using unique id using srid=3857"
    CLASS STYLE COLOR 255 0 0 SIZE 9 END END
  END
END
)MAP").arg(conninfo).toUtf8());
    MainWindow window;
    QVERIFY(window.openFile(path));
    ServerPanel* panel = window.serverPanel();
    PoolStatusView* pools = panel->pools();
    QCOMPARE(pools->poolCount(), 1);
    panel->setPort(0);
    const Status started = panel->start();
    QVERIFY2(started, qPrintable(started.message()));

    QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    const Fetched map = fetch(nam, QUrl(panel->baseUrl() + "?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=dots"
                                                           "&STYLES=&CRS=EPSG:3857&BBOX=0,0,100,100&WIDTH=100&HEIGHT=100"
                                                           "&FORMAT=image/png"));
    QCOMPARE(map.status, 200);
    QCOMPARE(QColor(QImage::fromData(map.body, "PNG").pixel(50, 50)), QColor(255, 0, 0));  // the database's point

    // After the request the connection waits in the pool; a lease of our own shows as in use.
    QTreeWidgetItem* row = pools->topLevelItem(0);
    const auto cell = [&](int column) { return row->text(column).toInt(); };
    QTRY_VERIFY(cell(PoolStatusView::OpenCol) >= 1);
    QCOMPARE(cell(PoolStatusView::InUseCol), 0);
    QCOMPARE(cell(PoolStatusView::IdleCol), cell(PoolStatusView::OpenCol));
    // The canvas drew from the workbench's one pool, the server shows that pool.
    QVERIFY(window.canvas()->prepared());
    QCOMPARE(&window.canvas()->prepared()->context(), &window.engineContext());
    Result<PgLease> lease = window.engineContext().pgPool().acquire(conninfo);
    QVERIFY2(lease, qPrintable(lease.message()));
    QTRY_COMPARE(cell(PoolStatusView::InUseCol), 1);  // the panel polls twice a second
    lease->release();
    QTRY_COMPARE(cell(PoolStatusView::InUseCol), 0);
    panel->stop();
}

QTEST_MAIN(TestUiServer)
#include "test_ui_server.moc"
