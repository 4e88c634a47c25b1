// mapserv URLs in and out of the workbench: the canvas's view written as a
// mode=map URL draws the very pixels the canvas drew, and a pasted URL
// comes back as a query the open map answers, its map= dropped.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/map_renderer.h"
#include "wms/mapserv/mapserv_url.h"
#include "wms/wms_service.h"

#include <QImage>
#include <QTest>

using namespace maptune;

namespace {

const char* const kMap = R"MAP(MAP
  NAME "squares"
  SIZE 100 100
  EXTENT 0 0 100 100
  IMAGECOLOR 255 255 255
  LAYER NAME "red" TYPE POLYGON STATUS ON
    FEATURE WKT "POLYGON((10 60, 40 60, 40 90, 10 90, 10 60))" END
    CLASS STYLE COLOR 255 0 0 END END
  END
  LAYER NAME "blue" TYPE POLYGON STATUS OFF
    FEATURE WKT "POLYGON((60 10, 90 10, 90 40, 60 40, 60 10))" END
    CLASS STYLE COLOR 0 0 255 END END
  END
END
)MAP";

}  // namespace

class TestMapservUrl : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void writesModeMap()
    {
        MapservView v{Rect{0, 0, 200, 100}, 200, 100, {"red", "blue"}};
        QCOMPARE(mapservUrl(QStringLiteral("http://localhost/cgi-bin/mapserv"), QStringLiteral("/srv/maps/my map.map"), v),
                 QStringLiteral("http://localhost/cgi-bin/mapserv?map=/srv/maps/my+map.map&mode=map&mapext=0.5+0.5+199.5+99.5"
                                "&mapsize=200+100&layers=red+blue"));
        v.layers.clear();
        QCOMPARE(mapservUrl(QStringLiteral("http://127.0.0.1:8080/squares"), {}, v),
                 QStringLiteral("http://127.0.0.1:8080/squares?mode=map&mapext=0.5+0.5+199.5+99.5&mapsize=200+100"));
        QVERIFY(mapservUrl(QStringLiteral("http://h/mapserv?map=a.map"), {}, v).startsWith("http://h/mapserv?map=a.map&mode=map&"));
        v.layers = {QStringLiteral("a&b")};
        QVERIFY(mapservUrl(QStringLiteral("http://h/m"), {}, v).endsWith("&layers=a%26b"));
    }

    void readsPastedUrls_data()
    {
        QTest::addColumn<QString>("pasted");
        QTest::addColumn<QString>("query");  // empty: an error
        QTest::newRow("mapserv") << "http://h/cgi-bin/mapserv?map=/etc/passwd&mode=map&layers=red" << "mode=map&layers=red";
        QTest::newRow("MAP upper case") << "http://h/m?MAP=x.map&SERVICE=WMS&REQUEST=GetCapabilities"
                                        << "SERVICE=WMS&REQUEST=GetCapabilities";
        QTest::newRow("bare query") << "  mode=legend&map=x " << "mode=legend";
        QTest::newRow("fragment") << "http://h/m?mode=map#top" << "mode=map";
        QTest::newRow("mapserv URL of maptune") << "http://127.0.0.1:8080/squares?mode=tile&tile=1+2+3" << "mode=tile&tile=1+2+3";
        QTest::newRow("only map") << "http://h/m?map=x.map" << "";
        QTest::newRow("no query") << "http://h/mapserv" << "";
        QTest::newRow("empty") << "   " << "";
    }
    void readsPastedUrls()
    {
        QFETCH(QString, pasted);
        QFETCH(QString, query);
        const Result<QByteArray> r = replayQuery(pasted);
        if (query.isEmpty()) {
            QVERIFY(!r);
            QVERIFY(!r.message().isEmpty());
        } else {
            QVERIFY2(r, qPrintable(r.message()));
            QCOMPARE(QString::fromUtf8(*r), query);
        }
    }

    // The URL of a view, answered by the map, is the image of that view.
    void urlDrawsTheView()
    {
        const LoadResult loaded = parseMapText(kMap, QStringLiteral("squares.map"));
        QVERIFY(loaded.ok());
        RenderRequest view;
        view.bbox = Rect{-20, 0, 140, 80};
        view.width = 160;
        view.height = 80;
        view.layers = {QStringLiteral("blue")};
        view.layersGiven = true;
        view.format = QStringLiteral("png");
        const RenderResult drawn = MapRenderer(loaded.map).render(view);
        QVERIFY2(drawn.ok(), qPrintable(drawn.error));

        const QString url = mapservUrl(QStringLiteral("http://h/mapserv"), QStringLiteral("squares.map"),
                                       {*view.bbox, view.width, view.height, view.layers});
        const Result<QByteArray> query = replayQuery(url);
        QVERIFY(query);
        const Response r = WmsService(loaded.map).handle(WmsRequest::fromQueryString(*query));
        QVERIFY2(r.contentType().startsWith("image/png"), r.body.left(300).constData());
        const QImage answer = QImage::fromData(r.body).convertToFormat(QImage::Format_RGB32);
        const QImage canvas = drawn.image.convertToFormat(QImage::Format_RGB32);
        QCOMPARE(answer.size(), canvas.size());
        QCOMPARE(answer, canvas);
        QCOMPARE(QColor(answer.pixel(95, 55)), QColor(0, 0, 255));  // blue switched on
        QCOMPARE(QColor(answer.pixel(45, 10)), QColor(255, 255, 255));  // red switched off
    }
};

QTEST_GUILESS_MAIN(TestMapservUrl)
#include "test_mapserv_url.moc"
