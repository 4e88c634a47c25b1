// GetMap's FILTER parameter (OGC Filter Encoding) on tests/data/wms/dimensions.map:
// which of the points a..d each filter leaves, its refusals as
// InvalidParameterValue, and the translation's quoting (parseOgcFilter).

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "wms/ogc_filter.h"
#include "wms/wms_service.h"
#include "dimensions_map_support.h"

#include <QImage>
#include <QTest>
#include <QUrl>
#include <QXmlStreamReader>

using namespace maptune;

namespace {

const QString kGetMap = QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:4326&BBOX=0,0,100,100"
                                       "&STYLES=&FORMAT=image/png&WIDTH=100&HEIGHT=100&LAYERS=events");

using test::drawnPoints;
using test::serviceExceptionText;

QString equal(const char* property, const char* literal)
{
    return QStringLiteral("<PropertyIsEqualTo><PropertyName>%1</PropertyName><Literal>%2</Literal></PropertyIsEqualTo>")
        .arg(QLatin1String(property), QString::fromUtf8(literal));
}

QString wms130()
{
    return QString(kGetMap).replace(QLatin1String("VERSION=1.1.1"), QLatin1String("VERSION=1.3.0")).replace(QLatin1String("SRS="), QLatin1String("CRS="));
}

QString filter(const QString& body) { return QStringLiteral("<Filter>%1</Filter>").arg(body); }

}  // namespace

class TestWmsFilter : public QObject {
    Q_OBJECT
    std::unique_ptr<WmsService> m_service;

    Response ask(const QString& query) const { return m_service->handle(WmsRequest::fromQueryString(query.toUtf8())); }
    Response withFilter(const QString& value, const QString& base = kGetMap) const
    {
        return ask(base + QStringLiteral("&FILTER=") + QString::fromLatin1(QUrl::toPercentEncoding(value)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_service = test::dimensionsService();
        QVERIFY2(m_service, "wms/dimensions.map must load");
    }

    void filtersSelectFeatures_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        const QString elevAbove150 = QStringLiteral("<PropertyIsGreaterThan><PropertyName>elev</PropertyName><Literal>150</Literal></PropertyIsGreaterThan>");
        const QString bbox = QStringLiteral("<BBOX><PropertyName>Geometry</PropertyName><gml:Box><gml:coordinates>20,40 60,60</gml:coordinates></gml:Box></BBOX>");
        const QString near = QStringLiteral("<gml:Point><gml:coordinates>10,50</gml:coordinates></gml:Point><Distance units='dd'>25</Distance>");
        QTest::newRow("equal, one element") << filter(equal("name", "b")) << "b";
        QTest::newRow("equal, in parentheses") << QLatin1Char('(') + filter(equal("name", "b")) + QLatin1Char(')') << "b";
        QTest::newRow("empty parentheses: no filter") << "()" << "abcd";
        QTest::newRow("greater than a number") << filter(elevAbove150) << "bcd";
        QTest::newRow("like with a wildcard") << filter(QStringLiteral(
            "<PropertyIsLike wildCard='*' singleChar='.' escape='!'><PropertyName>kind</PropertyName><Literal>r*</Literal></PropertyIsLike>")) << "ac";
        QTest::newRow("like escapes regex characters") << filter(QStringLiteral(
            "<PropertyIsLike wildCard='*' singleChar='#' escape='!'><PropertyName>kind</PropertyName><Literal>.*</Literal></PropertyIsLike>")) << "";
        QTest::newRow("between") << filter(QStringLiteral(
            "<PropertyIsBetween><PropertyName>elev</PropertyName><LowerBoundary><Literal>150</Literal></LowerBoundary>"
            "<UpperBoundary><Literal>250</Literal></UpperBoundary></PropertyIsBetween>")) << "bd";
        QTest::newRow("or") << filter(QStringLiteral("<Or>%1%2</Or>").arg(equal("name", "a"), equal("name", "d"))) << "ad";
        QTest::newRow("not") << filter(QStringLiteral("<Not>%1</Not>").arg(equal("kind", "red"))) << "bd";
        QTest::newRow("case-insensitive equal") << filter(QStringLiteral(
            "<PropertyIsEqualTo matchCase='false'><PropertyName>kind</PropertyName><Literal>RED</Literal></PropertyIsEqualTo>")) << "ac";
        QTest::newRow("a quote in the literal is text") << filter(equal("name", "a\" OR \"1\" = \"1")) << "";
        QTest::newRow("a backslash in the literal is text") << filter(equal("name", "a\\")) << "";
        QTest::newRow("bbox") << filter(bbox) << "bc";
        QTest::newRow("bbox and a comparison") << filter(QStringLiteral("<And>%1%2</And>").arg(bbox, equal("kind", "red"))) << "c";
        QTest::newRow("dwithin") << filter(QStringLiteral("<DWithin><PropertyName>Geometry</PropertyName>%1</DWithin>").arg(near)) << "ab";
        QTest::newRow("beyond") << filter(QStringLiteral("<Beyond><PropertyName>Geometry</PropertyName>%1</Beyond>").arg(near)) << "cd";
        QTest::newRow("intersects a polygon (gml 3)") << filter(QStringLiteral(
            "<Intersects><PropertyName>Geometry</PropertyName><gml:Polygon><gml:exterior><gml:LinearRing>"
            "<gml:posList>40 40 80 40 80 60 40 60 40 40</gml:posList></gml:LinearRing></gml:exterior></gml:Polygon></Intersects>")) << "cd";
    }
    void filtersSelectFeatures()
    {
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const Response r = withFilter(value);
        QVERIFY2(r.contentType().startsWith("image/png"), r.body.left(400).constData());
        QCOMPARE(drawnPoints(QImage::fromData(r.body)), expected);
    }

    void wms130ReadsLatitudeFirst()
    {
        // EPSG:4326 under 1.3.0: the point "50,10" is latitude 50, longitude 10 (point a).
        const QString base = wms130();
        const Response r = withFilter(filter(QStringLiteral("<DWithin><PropertyName>Geometry</PropertyName><gml:Point><gml:coordinates>50,10"
                                                            "</gml:coordinates></gml:Point><Distance units='dd'>5</Distance></DWithin>")),
                                      base);
        QCOMPARE(drawnPoints(QImage::fromData(r.body)), QStringLiteral("a"));
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("two filters for one layer") << "(" + filter(equal("name", "a")) + ")()" << "Wrong number of filter elements";
        QTest::newRow("spatial inside Or") << filter(QStringLiteral(
            "<Or><BBOX><PropertyName>g</PropertyName><gml:Box><gml:coordinates>0,0 1,1</gml:coordinates></gml:Box></BBOX>%1</Or>")
                                                         .arg(equal("name", "a"))) << "BBOX inside Or or Not is not supported";
        QTest::newRow("a DOCTYPE") << "<!DOCTYPE x [<!ENTITY a \"b\">]>" + filter(equal("name", "&a;")) << "DOCTYPE";
        QTest::newRow("a property that is not a name") << filter(equal("name] = 1 OR [name", "a")) << "invalid PropertyName";
        QTest::newRow("a literal that binds an attribute") << filter(equal("name", "[kind]")) << "unsupported Literal";
        QTest::newRow("unknown operator") << filter(QStringLiteral("<PropertyIsSimilar/>")) << "unsupported filter element";
        QTest::newRow("not XML") << "<Filter><PropertyIsEqualTo>" << "Invalid or Unsupported FILTER";
        QTest::newRow("unknown distance units") << filter(QStringLiteral(
            "<DWithin><PropertyName>g</PropertyName><gml:Point><gml:coordinates>1,1</gml:coordinates></gml:Point>"
            "<Distance units='parsec'>1</Distance></DWithin>")) << "unknown Distance units";
    }
    void refusals()
    {
        QFETCH(QString, value);
        QFETCH(QString, message);
        // 1.3.0: InvalidParameterValue is one of its exception codes (1.1.1 has none for this).
        const QString e = serviceExceptionText(withFilter(value, wms130()).body);
        QVERIFY2(e.startsWith(QLatin1String("InvalidParameterValue: msWMSApplyFilter")) && e.contains(message), qPrintable(e));
    }

    void translationQuotesLiterals()
    {
        const OgcFilter f = parseOgcFilter(filter(equal("NAME", "O\"Brien \\ x")), QStringLiteral("EPSG:4326"), false);
        QVERIFY2(f.error.isEmpty(), qPrintable(f.error));
        QCOMPARE(f.expression, QStringLiteral("(\"[NAME]\" = \"O\\\"Brien \\\\ x\")"));
        const OgcFilter n = parseOgcFilter(filter(equal("ns:POP", "12")), QStringLiteral("EPSG:4326"), false);
        QCOMPARE(n.expression, QStringLiteral("([POP] = 12)"));
        QVERIFY(n.spatial.isEmpty());
    }
};

QTEST_MAIN(TestWmsFilter)
#include "test_wms_filter.moc"
