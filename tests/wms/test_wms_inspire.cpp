// A multilingual INSPIRE view service (tests/data/wms/inspire.map): the
// response language, its metadata and URLs, the ExtendedCapabilities block,
// %language% in DATA, and the root / group rules of GetLegendGraphic.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "wms/wms_service.h"

#include <QImage>
#include <QTest>
#include <QXmlStreamReader>

using namespace maptune;

namespace {

// Text of every element named `name` (any namespace prefix), in order.
QStringList texts(const QByteArray& xml, const QString& name)
{
    QStringList out;
    QXmlStreamReader r(xml);
    while (!r.atEnd())
        if (r.readNext() == QXmlStreamReader::StartElement && r.qualifiedName() == name) out << r.readElementText(QXmlStreamReader::IncludeChildElements).simplified();
    return out;
}

QString parseError(const QByteArray& xml)
{
    QXmlStreamReader r(xml);
    while (!r.atEnd()) r.readNext();
    return r.hasError() ? r.errorString() : QString();
}

}  // namespace

class TestWmsInspire : public QObject {
    Q_OBJECT
    std::unique_ptr<WmsService> m_service;

    QByteArray ask(const QString& query) const { return m_service->handle(WmsRequest::fromQueryString(query.toUtf8())).body; }
    QByteArray caps(const QString& extra) const { return ask(QStringLiteral("SERVICE=WMS&REQUEST=GetCapabilities&") + extra); }

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        LoadResult loaded = loadMapFile(QStringLiteral(MAPTUNE_TEST_DATA "/wms/inspire.map"));
        QVERIFY2(loaded.ok(), "wms/inspire.map must load");
        m_service = std::make_unique<WmsService>(loaded.map);
    }

    // The first language is the default; LANGUAGE picks another listed one;
    // an unknown one gets the default.
    void languages_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("title");
        QTest::newRow("default") << "VERSION=1.3.0" << "ger" << "Dienst";
        QTest::newRow("eng") << "VERSION=1.3.0&LANGUAGE=eng" << "eng" << "Service";
        QTest::newRow("unknown") << "VERSION=1.3.0&LANGUAGE=fre" << "ger" << "Dienst";
        QTest::newRow("1.1.1 eng") << "VERSION=1.1.1&LANGUAGE=eng" << "eng" << "Service";
    }
    void languages()
    {
        QFETCH(QString, extra);
        QFETCH(QString, language);
        QFETCH(QString, title);
        const QByteArray xml = caps(extra);
        QCOMPARE(parseError(xml), QString());
        QCOMPARE(texts(xml, QStringLiteral("Title")).first(), title);
        QCOMPARE(texts(xml, QStringLiteral("inspire_common:ResponseLanguage")), QStringList{language});
        QCOMPARE(texts(xml, QStringLiteral("inspire_common:DefaultLanguage")), QStringList{QStringLiteral("ger")});
        QCOMPARE(texts(xml, QStringLiteral("inspire_common:SupportedLanguage")), QStringList{QStringLiteral("eng")});
        // Every URL the service writes carries the language.
        QVERIFY(xml.contains(QStringLiteral("http://example.org/inspire?language=%1&amp;").arg(language).toUtf8()));
        QVERIFY(!xml.contains("http://example.org/inspire?service") && !xml.contains("http://example.org/inspire?version"));
        // A value only in German disappears in English.
        QCOMPARE(xml.contains("Nur deutsch"), language == QLatin1String("ger"));
        QCOMPARE(texts(xml, QStringLiteral("inspire_common:URL")), QStringList{QStringLiteral("http://example.org/csw?id=1")});
    }

    void capabilitiesDetails()
    {
        const QByteArray v130 = caps(QStringLiteral("VERSION=1.3.0"));
        QVERIFY(v130.contains("xmlns:inspire_vs=\"http://inspire.ec.europa.eu/schemas/inspire_vs/1.0\""));
        QVERIFY(v130.contains("http://inspire.ec.europa.eu/schemas/inspire_vs/1.0/inspire_vs.xsd"));
        QVERIFY(v130.contains("<Keyword vocabulary=\"ISO\">infoMapAccessService</Keyword>"));
        QVERIFY(!caps(QStringLiteral("VERSION=1.1.1")).contains("vocabulary="));
        QVERIFY(v130.contains("<Identifier authority=\"Authority\">service-1</Identifier>"));
        QVERIFY(v130.contains("<Identifier authority=\"Authority\">points-1</Identifier>"));
        QVERIFY(v130.contains("<AuthorityURL name=\"Authority\">"));
        // wms_bbox_extended: one BoundingBox per wms_srs code, for the root and each layer.
        QVERIFY(v130.count("<BoundingBox CRS=\"EPSG:3857\"") >= 2);
        // The root style of an INSPIRE service; a layer lists only its own class groups.
        const QStringList styles = texts(v130, QStringLiteral("Name"));
        QVERIFY(styles.contains(QStringLiteral("inspire_common:DEFAULT")));
        QVERIFY(styles.contains(QStringLiteral("TN.Parent.Points.Default")));
        QVERIFY2(styles.count(QStringLiteral("ParentStyle")) == 1, qPrintable(styles.join(',')));  // on the parent only
        QVERIFY(styles.count(QStringLiteral("inspire_common:DEFAULT")) == 1);
        QCOMPARE(texts(v130, QStringLiteral("Title")).contains(QStringLiteral("Punkte")), true);
    }

    // %language% in DATA reads the data of the response language.
    void dataPerLanguage()
    {
        const QString map = QStringLiteral("SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&CRS=CRS:84&BBOX=0,0,10,10&WIDTH=100&HEIGHT=100"
                                           "&STYLES=&FORMAT=image/png&LAYERS=TN.Parent.Points");
        const QImage ger = QImage::fromData(ask(map));
        const QImage eng = QImage::fromData(ask(map + QStringLiteral("&LANGUAGE=eng")));
        QVERIFY(!ger.isNull() && !eng.isNull());
        QVERIFY(qRed(ger.pixel(30, 50)) > 150 && qGreen(ger.pixel(30, 50)) < 50);
        QCOMPARE(ger.pixel(70, 50), qRgb(255, 255, 255));
        QVERIFY(qRed(eng.pixel(70, 50)) > 150 && qGreen(eng.pixel(70, 50)) < 50);
        QCOMPARE(eng.pixel(30, 50), qRgb(255, 255, 255));
    }

    // STYLES draws a layer with that class group; the root accepts only wms_style_name.
    void getMapStyles()
    {
        const QString map = QStringLiteral("SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&CRS=CRS:84&BBOX=0,0,10,10&WIDTH=100&HEIGHT=100"
                                           "&FORMAT=image/png&LAYERS=");
        const QImage plain = QImage::fromData(ask(map + QStringLiteral("TN.Parent.Points&STYLES=")));
        const QImage styled = QImage::fromData(ask(map + QStringLiteral("TN.Parent.Points&STYLES=inspire_common:DEFAULT")));
        QVERIFY(qRed(plain.pixel(30, 50)) > 150 && qBlue(plain.pixel(30, 50)) < 50);
        QVERIFY(qBlue(styled.pixel(30, 50)) > 150 && qRed(styled.pixel(30, 50)) < 50);
        QVERIFY(ask(map + QStringLiteral("TN&STYLES=inspire_common:DEFAULT")).startsWith("\x89PNG"));
        QVERIFY(ask(map + QStringLiteral("TN&STYLES=other")).contains("StyleNotDefined"));
        QVERIFY(ask(map + QStringLiteral("TN.Parent.Points&STYLES=nope")).contains("StyleNotDefined"));
    }

    // LAYER may name the root (the map NAME); STYLE applies only when LAYER
    // names one layer.
    void legendGraphic()
    {
        const QString base = QStringLiteral("SERVICE=WMS&VERSION=1.3.0&REQUEST=GetLegendGraphic&SLD_VERSION=1.1.0&FORMAT=image/png&LAYER=");
        const QImage root = QImage::fromData(ask(base + QStringLiteral("TN")));
        QVERIFY(!root.isNull());
        const QImage group = QImage::fromData(ask(base + QStringLiteral("TN.Parent&STYLE=inspire_common:DEFAULT")));
        QCOMPARE(group.size(), root.size());
        const QImage one = QImage::fromData(ask(base + QStringLiteral("TN.Parent.Points&STYLE=inspire_common:DEFAULT")));
        QVERIFY(!one.isNull());
        QVERIFY(one.height() < root.height());
        QVERIFY(ask(base + QStringLiteral("TN.Parent.Points&STYLE=nope")).contains("StyleNotDefined"));
    }
};

QTEST_MAIN(TestWmsInspire)
#include "test_wms_inspire.moc"
