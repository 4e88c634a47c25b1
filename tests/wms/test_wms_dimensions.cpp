// WMS TIME and dimensions on tests/data/wms/dimensions.map: which points a
// GetMap draws (and a GetFeatureInfo finds) for TIME, ELEVATION and DIM_
// values; MapServer's exceptions; the capabilities elements.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "wms/wms_service.h"
#include "dimensions_map_support.h"

#include <QImage>
#include <QRegularExpression>
#include <QTest>
#include <QXmlStreamReader>

using namespace maptune;

namespace {

const QString kGetMap = QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:4326&BBOX=0,0,100,100"
                                       "&STYLES=&FORMAT=image/png&WIDTH=100&HEIGHT=100&LAYERS=");

using test::drawnPoints;
using test::serviceExceptionText;

}  // namespace

class TestWmsDimensions : public QObject {
    Q_OBJECT
    std::unique_ptr<WmsService> m_service;

    Response ask(const QString& query) const { return m_service->handle(WmsRequest::fromQueryString(query.toUtf8())); }

private Q_SLOTS:
    void initTestCase()
    {
        m_service = test::dimensionsService();
        QVERIFY2(m_service, "wms/dimensions.map must load");
    }

    void getMap_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no TIME: no filter") << "events" << "abcd";
        QTest::newRow("one time") << "events&TIME=2004-01-01%2014:10:00" << "a";
        QTest::newRow("ISO T and Z read the same") << "events&time=2004-01-01T14:50:00Z" << "b";
        QTest::newRow("a list") << "events&TIME=2004-01-01%2015:10:00,2004-01-01%2014:10:00" << "ac";
        QTest::newRow("a range") << "events&TIME=2004-01-01%2014:00:00/2004-01-01%2015:00:00" << "ab";
        QTest::newRow("ranges") << "events&TIME=2004-01-01%2014:00:00/2004-01-01%2014:20:00,2004-01-01%2015:00:00/2004-01-03" << "acd";
        QTest::newRow("a day matches only that exact time") << "events&TIME=2004-01-02" << "d";
        QTest::newRow("an hour compares all fields without wms_timeformat") << "events&TIME=2004-01-01T14" << "";
        QTest::newRow("trailing text after a time is ignored, not run") << "events&TIME=2004-01-02%60%20OR%201" << "d";
        QTest::newRow("elevation value") << "events&ELEVATION=200" << "bd";
        QTest::newRow("elevation list and range") << "events&ELEVATION=100,250/300" << "ac";
        QTest::newRow("string dimension") << "events&DIM_KIND=red" << "ac";
        QTest::newRow("empty dimension: its default") << "events&DIM_KIND=" << "bd";
        QTest::newRow("dimensions and time together") << "events&DIM_KIND=red&ELEVATION=300&TIME=2004-01-01/2004-01-31" << "c";
        QTest::newRow("a default applies without TIME, AND-ed to FILTER") << "defaulted" << "b";
        QTest::newRow("a TIME outside the extent falls back to the default") << "defaulted&TIME=1999-01-01" << "b";
        QTest::newRow("TIME replaces the default") << "defaulted&TIME=2004-01-01%2014:10:00" << "a";
    }
    void getMap()
    {
        QFETCH(QString, extra);
        QFETCH(QString, expected);
        const Response r = ask(kGetMap + extra);
        QCOMPARE(r.contentType(), QByteArray("image/png"));
        QCOMPARE(drawnPoints(QImage::fromData(r.body)), expected);
    }

    // wms_timeformat: a value at hour resolution means the whole hour, for
    // the data too (MapServer reads both with the pattern the request matched).
    void timeFormatWidens()
    {
        LoadResult loaded = loadMapFile(QStringLiteral(MAPTUNE_TEST_DATA "/wms/dimensions.map"));
        QVERIFY(loaded.ok());
        MapDef map = *loaded.map;
        map.web.metadata.set(QStringLiteral("wms_timeformat"), QStringLiteral("YYYY-MM-DD HH, YYYY-MM-DD"));
        const WmsService service(std::make_shared<const MapDef>(map));
        const auto draw = [&](const QString& time) {
            return drawnPoints(QImage::fromData(service.handle(WmsRequest::fromQueryString((kGetMap + "events&TIME=" + time).toUtf8())).body));
        };
        QCOMPARE(draw(QStringLiteral("2004-01-01%2014")), QStringLiteral("ab"));
        QCOMPARE(draw(QStringLiteral("2004-01-01%2014:10:00")), QStringLiteral("ab"));
        // The last value's format sets the resolution for the whole request:
        // at day resolution every point of 2004-01-01 is in.
        QCOMPARE(draw(QStringLiteral("2004-01-01%2015/2004-01-02")), QStringLiteral("abcd"));
        QCOMPARE(draw(QStringLiteral("2004-01-01%2015/2004-01-01%2016")), QStringLiteral("c"));
        // A value no listed format matches is refused.
        QCOMPARE(serviceExceptionText(service.handle(WmsRequest::fromQueryString((kGetMap + "events&TIME=2004-01").toUtf8())).body).section(':', 0, 0),
                 QStringLiteral("InvalidDimensionValue"));
    }

    void exceptions_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("expected");
        QTest::newRow("outside the extent, no default")
            << "events&TIME=2005-01-01"
            << "InvalidDimensionValue: msWMSApplyTime: WMS server error. Time value(s) 2005-01-01 given is invalid or outside "
               "the time extent defined (2004-01-01/2004-02-01).";
        QTest::newRow("one item of a list outside")
            << "events&TIME=2004-01-02,2005-01-01"
            << "InvalidDimensionValue: msWMSApplyTime: WMS server error. Time value(s) 2004-01-02,2005-01-01 given is invalid or "
               "outside the time extent defined (2004-01-01/2004-02-01).";
        QTest::newRow("a quote") << "events&TIME=2004-01-02'"
                                 << "InvalidDimensionValue: msWMSApplyTime: WMS server error. Time value(s) 2004-01-02' given is "
                                    "invalid or outside the time extent defined (2004-01-01/2004-02-01).";
        QTest::newRow("not a time") << "events&TIME=yesterday"
                                    << "InvalidDimensionValue: msWMSApplyTime: WMS server error. Time value(s) yesterday given is "
                                       "invalid or outside the time extent defined (2004-01-01/2004-02-01).";
        QTest::newRow("a reversed range") << "events&TIME=2004-01-20/2004-01-10"
                                          << "InvalidDimensionValue: msWMSApplyTime: WMS server error. Time value(s) "
                                             "2004-01-20/2004-01-10 given is invalid or outside the time extent defined "
                                             "(2004-01-01/2004-02-01).";
        QString many = QStringLiteral("2004-01-02");
        for (int i = 0; i < 100; ++i) many += QStringLiteral(",2004-01-02");
        QTest::newRow("more than 100 values")
            << "events&TIME=" + many
            << "InvalidDimensionValue: msWMSApplyTime: WMS server error. Time value(s) " + many
                   + " given is invalid or outside the time extent defined (2004-01-01/2004-02-01).";
        QTest::newRow("empty TIME, no default")
            << "events&TIME=" << "MissingDimensionValue: msWMSApplyTime: WMS server error. No Time value was given, and no default time value defined.";
        QTest::newRow("elevation outside the range")
            << "events&ELEVATION=50" << "InvalidDimensionValue: msWMSApplyDimension: WMS server error. Dimension elevation with a "
                                        "value of 50 is invalid or outside the extents defined";
        QTest::newRow("a range sticking out")
            << "events&ELEVATION=250/400" << "InvalidDimensionValue: msWMSApplyDimension: WMS server error. Dimension elevation "
                                             "with a value of 250/400 is invalid or outside the extents defined";
        QTest::newRow("a string not in the list")
            << "events&DIM_KIND=blue%22)%20OR%20(1=1" << "InvalidDimensionValue: msWMSApplyDimension: WMS server error. Dimension "
                                                         "kind with a value of blue\") OR (1=1 is invalid or outside the extents defined";
    }
    void exceptions()
    {
        QFETCH(QString, extra);
        QFETCH(QString, expected);
        QCOMPARE(serviceExceptionText(ask(kGetMap + extra).body), expected);
    }

    void featureInfoFollowsTime()
    {
        const QString info = QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&SRS=EPSG:4326&BBOX=0,0,100,100&STYLES="
                                            "&WIDTH=100&HEIGHT=100&LAYERS=events&QUERY_LAYERS=events&X=30&Y=50&INFO_FORMAT=text/plain");
        QVERIFY(QString::fromUtf8(ask(info).body).contains(QLatin1String("name = 'b'")));
        QVERIFY(!QString::fromUtf8(ask(info + "&TIME=2004-01-01%2014:10:00").body).contains(QLatin1String("name = 'b'")));
        QVERIFY(QString::fromUtf8(ask(info + "&TIME=2004-01-01%2014:50:00").body).contains(QLatin1String("name = 'b'")));
    }

    // 1.3.0: Dimension with the extent; 1.1.1: the Dimensions, then the Extents.
    void capabilities()
    {
        const QString caps130 = QString::fromUtf8(ask(QStringLiteral("SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities")).body);
        QVERIFY2(caps130.contains(QLatin1String("<Dimension name=\"time\" units=\"ISO8601\" nearestValue=\"0\">2004-01-01/2004-02-01</Dimension>")),
                 qPrintable(caps130));
        QVERIFY(caps130.contains(QLatin1String("<Dimension name=\"kind\" units=\"names\" default=\"green\" multipleValues=\"1\" "
                                               "nearestValue=\"0\">red, green</Dimension>")));
        QVERIFY(caps130.contains(QLatin1String("<MinScaleDenominator>1000</MinScaleDenominator>")));
        const QString caps111 = QString::fromUtf8(ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetCapabilities")).body);
        static const QRegularExpression order(QStringLiteral("<Dimension name=\"time\"[^>]*/>\\s*<Dimension name=\"elevation\"[^>]*/>\\s*"
                                                             "<Dimension name=\"kind\"[^>]*/>\\s*<Extent name=\"time\""));
        QVERIFY2(order.match(caps111).hasMatch(), qPrintable(caps111));
        QVERIFY(caps111.contains(QLatin1String("<Extent name=\"elevation\" nearestValue=\"0\">100/300</Extent>")));
        QVERIFY(caps111.contains(QLatin1String("<Extent name=\"time\" default=\"2004-01-01 14:50:00\" nearestValue=\"0\">")));
        QVERIFY(caps111.contains(QLatin1String("<ScaleHint")));
    }
};

QTEST_MAIN(TestWmsDimensions)
#include "test_wms_dimensions.moc"
