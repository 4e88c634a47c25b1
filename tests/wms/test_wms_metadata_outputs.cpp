// Smaller WMS answers MapServer gives: GetSchemaExtension, GetFeatureInfo
// through an OUTPUTFORMAT with an OGR driver, several MetadataURL/DataURL.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "wms/wms_service.h"

#include <cpl_vsi.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QXmlStreamReader>

using namespace maptune;

class TestWmsMetadataOutputs : public QObject {
    Q_OBJECT
    std::unique_ptr<WmsService> m_service;

    Response ask(const QString& query) const { return m_service->handle(WmsRequest::fromQueryString(query.toUtf8())); }

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        LoadResult loaded = loadMapFile(QStringLiteral(MAPTUNE_TEST_DATA "/wms/outputs.map"));
        QVERIFY2(loaded.ok(), "wms/outputs.map must load");
        m_service = std::make_unique<WmsService>(loaded.map);
    }

    void schemaExtension()
    {
        const Response r = ask(QStringLiteral("SERVICE=WMS&VERSION=1.3.0&REQUEST=GetSchemaExtension"));
        QCOMPARE(r.contentType(), QByteArray("text/xml; charset=UTF-8"));
        QVERIFY2(r.body.contains("<element name=\"GetStyles\" type=\"wms:OperationType\" substitutionGroup=\"wms:_ExtendedOperation\"/>"), r.body.constData());
        QVERIFY(r.body.contains("schemaLocation=\"http://example.org/schemas/wms/1.3.0/capabilities_1_3_0.xsd\""));
    }

    // INFO_FORMAT naming the OGR format (by NAME or MIMETYPE); an empty
    // answer is still a FeatureCollection.
    void featureInfoThroughOgr_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<int>("i");
        QTest::addColumn<int>("features");
        QTest::newRow("by name, a hit") << "geojson" << 25 << 1;
        QTest::newRow("by mime type, a hit") << "application/json;%20subtype=geojson" << 25 << 1;
        QTest::newRow("empty") << "geojson" << 90 << 0;
    }
    void featureInfoThroughOgr()
    {
        QFETCH(QString, format);
        QFETCH(int, i);
        QFETCH(int, features);
        const Response r = ask(QStringLiteral("SERVICE=WMS&VERSION=1.3.0&REQUEST=GetFeatureInfo&CRS=EPSG:3857&BBOX=0,0,100,100&WIDTH=100"
                                              "&HEIGHT=100&LAYERS=areas&QUERY_LAYERS=areas&STYLES=&I=%1&J=75&INFO_FORMAT=%2").arg(i).arg(format));
        const QJsonDocument doc = QJsonDocument::fromJson(r.body);
        QVERIFY2(doc.isObject(), r.body.left(300).constData());
        QCOMPARE(doc.object().value(QLatin1String("type")).toString(), QStringLiteral("FeatureCollection"));
        const QJsonArray list = doc.object().value(QLatin1String("features")).toArray();
        QCOMPARE(list.size(), features);
        if (features) QCOMPARE(list[0].toObject().value(QLatin1String("properties")).toObject().value(QLatin1String("name")).toString(), QStringLiteral("first"));
    }

    // FORMAT=kml: a Folder per layer, a Placemark per feature, WGS 84
    // coordinates, the class's style, indented as MapServer (libxml2) does;
    // kmz: the same bytes as mapserver.kml in a zip.
    void kmlAndKmz()
    {
        const QString map = QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:3857&BBOX=0,0,100,100&WIDTH=100"
                                           "&HEIGHT=100&LAYERS=areas&STYLES=&FORMAT=");
        const Response kml = ask(map + QStringLiteral("kml"));
        QCOMPARE(kml.contentType(), QByteArray("application/vnd.google-earth.kml+xml"));
        QXmlStreamReader xml(kml.body);
        QStringList names, coordinates, styles;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            if (xml.name() == QLatin1String("name")) names << xml.readElementText();
            else if (xml.name() == QLatin1String("coordinates")) coordinates << xml.readElementText().simplified();
            else if (xml.name() == QLatin1String("styleUrl")) styles << xml.readElementText();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(names, (QStringList{QStringLiteral("outputs"), QStringLiteral("areas"), QStringLiteral("areas.0")}));
        QCOMPARE(coordinates.size(), 1);
        // EPSG:3857 (10, 10) is about 0.0000898 degrees east and north.
        QVERIFY2(coordinates[0].startsWith(QLatin1String("0.00008983,0.00008983")), qPrintable(coordinates[0]));
        QVERIFY(styles.contains(QStringLiteral("#style_polygon_ff030201_ff030201_w1.0")));
        const Response kmz = ask(map + QStringLiteral("application/vnd.google-earth.kmz"));
        QCOMPARE(kmz.contentType(), QByteArray("application/vnd.google-earth.kmz"));
        QVERIFY(kmz.body.startsWith("PK\x03\x04"));
        VSIFCloseL(VSIFileFromMemBuffer("/vsimem/test.kmz", reinterpret_cast<GByte*>(const_cast<char*>(kmz.body.constData())),
                                        vsi_l_offset(kmz.body.size()), FALSE));
        VSILFILE* member = VSIFOpenL("/vsizip//vsimem/test.kmz/mapserver.kml", "rb");
        QVERIFY(member);
        QByteArray unzipped(kml.body.size() + 16, '\0');
        unzipped.resize(qsizetype(VSIFReadL(unzipped.data(), 1, size_t(unzipped.size()), member)));
        VSIFCloseL(member);
        VSIUnlink("/vsimem/test.kmz");
        QCOMPARE(unzipped, kml.body);
        QVERIFY2(kml.body.contains("\n  <Document>\n    <Style id=\"LayerFolder_check\">"), kml.body.left(200).constData());
        QVERIFY(kml.body.contains("</Style>\n    <Folder>\n      <name>areas</name>"));
        QVERIFY(kml.body.endsWith("    </Folder>\n  </Document>\n</kml>\n"));
    }

    // image/vnd.jpeg-png: a map with transparent pixels comes as PNG, and
    // says so in its Content-Type; covered by an opaque layer, as JPEG.
    void jpegPngAnswersWithTheFormatItWrote()
    {
        const QString map = QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:3857&STYLES=&WIDTH=20&HEIGHT=20"
                                           "&FORMAT=image/vnd.jpeg-png&TRANSPARENT=TRUE&LAYERS=areas&BBOX=");
        const Response edge = ask(map + QStringLiteral("0,0,100,100"));
        QCOMPARE(edge.contentType(), QByteArray("image/png; mode=24bit"));
        QVERIFY(edge.body.startsWith("\x89PNG"));
        const Response inside = ask(map + QStringLiteral("15,15,35,35"));  // all within the area's square
        QCOMPARE(inside.contentType(), QByteArray("image/jpeg"));
        QVERIFY(inside.body.startsWith("\xFF\xD8"));
    }

    // A point outside the requested box is left out, as mapserv leaves it.
    void kmlPointsOffTheMap()
    {
        const Response kml = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:3857&BBOX=0,0,100,100&WIDTH=100"
                                                "&HEIGHT=100&LAYERS=towns&STYLES=&FORMAT=kml"));
        QVERIFY2(kml.body.contains("<name>Inside</name>"), kml.body.constData());
        QVERIFY(!kml.body.contains("Outside"));
        QCOMPARE(kml.body.count("<Placemark>"), 1);
    }

    void metadataAndDataUrlLists()
    {
        const QByteArray caps = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetCapabilities")).body;
        QCOMPARE(caps.count("http://example.org/a.xml"), 1);
        QCOMPARE(caps.count("http://example.org/a.html"), 1);
        QVERIFY(caps.indexOf("http://example.org/a.xml") < caps.indexOf("http://example.org/a.html"));
        QVERIFY(caps.contains("<Format>application/zip</Format>"));
        // FeatureListURL after the DataURL, as the DTD orders them.
        const qsizetype list = caps.indexOf("<FeatureListURL>");
        QVERIFY(list > caps.indexOf("http://example.org/a.zip") && caps.indexOf("http://example.org/features.json") > list);
        QVERIFY(!caps.contains("request=GetMetadata&amp;layer=areas"));  // no generated MetadataURL beside the listed ones
    }

    void rootAttributionAndResolution()
    {
        const QByteArray caps = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetCapabilities")).body;
        // The root layer's Attribution comes before its first child layer.
        const qsizetype attribution = caps.indexOf("<Attribution>");
        QVERIFY2(attribution > 0 && attribution < caps.indexOf("<Name>areas</Name>"), caps.constData());
        QVERIFY(caps.contains("<LogoURL width=\"60\" height=\"20\">"));
        QVERIFY(caps.contains("xlink:href=\"http://example.org/logo.png\""));
        QVERIFY(caps.contains("resx=\"0.5\" resy=\"0.25\""));
    }

    void legendGraphicSldVersion()
    {
        const QString base = QStringLiteral("SERVICE=WMS&VERSION=1.3.0&REQUEST=GetLegendGraphic&LAYER=areas&FORMAT=image/png");
        QVERIFY(ask(base).body.contains("code=\"MissingParameterValue\""));
        QVERIFY(ask(base + "&SLD_VERSION=1.0.0").body.contains("code=\"InvalidParameterValue\""));
        QCOMPARE(ask(base + "&SLD_VERSION=1.1.0").contentType(), QByteArray("image/png"));
        // WMS 1.1.1 has no SLD_VERSION of its own: none needed.
        QCOMPARE(ask(QString(base).replace("1.3.0", "1.1.1")).contentType(), QByteArray("image/png"));
    }

    void version100Layout()
    {
        const QByteArray caps = ask(QStringLiteral("SERVICE=WMS&VERSION=1.0.0&REQUEST=GetCapabilities")).body;
        QVERIFY2(caps.contains("<WMT_MS_Capabilities version=\"1.0.0\">"), caps.left(400).constData());
        QVERIFY(caps.contains("wms/1.0.0/capabilities_1_0_0.dtd"));
        QVERIFY(caps.contains("<Name>GetMap</Name>"));
        QVERIFY(caps.contains("<PNG/>") && caps.contains("<WMS_XML/>") && caps.contains("<GML.1/>"));
        QVERIFY(caps.contains("onlineResource=\""));
        QVERIFY(!caps.contains("<GetMap>"));
    }

    // text/html through the layer's HEADER/TEMPLATE/FOOTER files, values escaped.
    void featureInfoHtmlTemplates()
    {
        const Response r = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=places&QUERY_LAYERS=places"
                                              "&STYLES=&SRS=EPSG:3857&BBOX=0,0,100,100&WIDTH=100&HEIGHT=100&X=75&Y=25"
                                              "&INFO_FORMAT=text/html"));
        QCOMPARE(r.contentType(), QByteArray("text/html"));
        const QString body = QString::fromUtf8(r.body);
        QVERIFY2(body.startsWith(QLatin1String("<ul class=\"places\">")) && body.contains(QLatin1String("</ul>\n<p>")), qPrintable(body));
        QVERIFY2(body.contains(QLatin1String("<li>&lt;b&gt;harbour&lt;/b&gt; at 75.5")), qPrintable(body));
        // mapserv's names for the WMS parameters (msTranslateWMS2Mapserv), the
        // map between the corner pixels' centres and its scale, as mapserv 8 answers.
        const Response named = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=places,areas&QUERY_LAYERS=places"
                                                  "&STYLES=&SRS=EPSG:3857&BBOX=0,0,100,100&WIDTH=100&HEIGHT=100&X=75&Y=25"
                                                  "&INFO_FORMAT=text/html"));
        QVERIFY2(named.body.contains("<p>75,25 places places 0 0 100 100 0.500000 99.500000 2834.647200 0.000000</p>"), named.body.constData());
        // A layer whose TEMPLATE is no file keeps the built-in table.
        const Response table = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=areas&QUERY_LAYERS=areas"
                                                  "&STYLES=&SRS=EPSG:3857&BBOX=0,0,100,100&WIDTH=100&HEIGHT=100&X=25&Y=75"
                                                  "&INFO_FORMAT=text/html"));
        QVERIFY2(table.body.contains("<table"), table.body.constData());
    }
};

QTEST_MAIN(TestWmsMetadataOutputs)
#include "test_wms_metadata_outputs.moc"
