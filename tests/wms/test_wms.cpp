// WMS service: request parsing, exception codes of malformed requests (MapServer's
// msWMSDispatch / msWMSLoadGetMapParams semantics), GetMap output, escaping,
// GetLegendGraphic. (GetFeatureInfo: test_wms_feature_info.cpp.)

#include "mapfile/map_loader.h"
#include "wms/wms_service.h"

#include "wms_test_support.h"

#include <QFile>
#include <QImage>
#include <QTest>
#include <QUrl>
#include <QXmlStreamReader>

using namespace maptune;

namespace {

using test::ExceptionInfo;
using test::parseException;

const QString kBase = QStringLiteral("SERVICE=WMS&REQUEST=GetMap&WIDTH=200&HEIGHT=100&STYLES=&FORMAT=image/png");

}  // namespace

class TestWms : public test::WmsTestCase {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(loadMaps(), "inline.map and escaping.map must load"); }

    void queryStringDecoding()
    {
        const WmsRequest r = WmsRequest::fromQueryString("a=1+2&B=%3Cx%3E&empty=&=dropped&flag");
        QCOMPARE(r.value(QStringLiteral("A")).value_or(QString()), QStringLiteral("1 2"));
        QCOMPARE(r.value(QStringLiteral("b")).value_or(QString()), QStringLiteral("<x>"));
        QVERIFY(r.value(QStringLiteral("EMPTY")).has_value());
        QVERIFY(r.value(QStringLiteral("flag")).has_value());
        QCOMPARE(r.params.size(), 4);
    }

    void malformedRequests_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("reportVersion");
        QTest::addColumn<QByteArray>("contentType");
        const QByteArray se = "application/vnd.ogc.se_xml; charset=UTF-8";
        const QByteArray tx = "text/xml; charset=UTF-8";
        const QString v111 = QStringLiteral("&VERSION=1.1.1&SRS=EPSG:4326&BBOX=0,0,20,10");
        const QString v130 = QStringLiteral("&VERSION=1.3.0&CRS=EPSG:4326&BBOX=0,0,10,20");
        QTest::newRow("missing SRS") << kBase + "&VERSION=1.1.1&BBOX=0,0,20,10&LAYERS=points"
                                     << "MissingParameterValue" << "1.1.1" << se;
        QTest::newRow("missing CRS 1.3.0") << kBase + "&VERSION=1.3.0&BBOX=0,0,10,20&LAYERS=points"
                                           << "MissingParameterValue" << "1.3.0" << tx;
        QTest::newRow("SRS is not CRS in 1.3.0") << kBase + "&VERSION=1.3.0&SRS=EPSG:4326&BBOX=0,0,10,20&LAYERS=points"
                                                 << "MissingParameterValue" << "1.3.0" << tx;
        QTest::newRow("missing BBOX") << kBase + "&VERSION=1.1.1&SRS=EPSG:4326&LAYERS=points"
                                      << "MissingParameterValue" << "1.1.1" << se;
        QTest::newRow("missing LAYERS") << kBase + v111 << "MissingParameterValue" << "1.1.1" << se;
        QTest::newRow("invalid SRS") << kBase + "&VERSION=1.1.1&SRS=nonsense&BBOX=0,0,20,10&LAYERS=points"
                                     << "InvalidSRS" << "1.1.1" << se;
        QTest::newRow("invalid CRS") << kBase + "&VERSION=1.3.0&CRS=nonsense&BBOX=0,0,10,20&LAYERS=points"
                                     << "InvalidCRS" << "1.3.0" << tx;
        QTest::newRow("unknown layer") << kBase + v111 + "&LAYERS=nope" << "LayerNotDefined" << "1.1.1" << se;
        QTest::newRow("layer disabled for GetMap") << kBase + v111 + "&LAYERS=hidden"
                                                   << "LayerNotDefined" << "1.1.1" << se;
        QTest::newRow("1.1.0 report") << kBase + "&VERSION=1.1.0&SRS=EPSG:4326&BBOX=0,0,20,10&LAYERS=nope"
                                      << "LayerNotDefined" << "1.1.0" << se;
        QTest::newRow("invalid format") << QString(v111 + "&LAYERS=points&SERVICE=WMS&REQUEST=GetMap&WIDTH=2&HEIGHT=1&FORMAT=image/x-nope")
                                        << "InvalidFormat" << "1.1.1" << se;
        QTest::newRow("unknown style") << kBase.chopped(0).replace("STYLES=", "STYLES=blue") + v111 + "&LAYERS=points"
                                       << "StyleNotDefined" << "1.1.1" << se;
        QTest::newRow("layer limit 1.3.0") << kBase + v130 + "&LAYERS=points,points,points" << "" << "1.3.0" << tx;
        QTest::newRow("bad version") << "SERVICE=WMS&VERSION=1&REQUEST=GetMap" << "" << "1.3.0" << tx;
        QTest::newRow("unsupported version") << "SERVICE=WMS&VERSION=1.2.0&REQUEST=GetMap" << "" << "1.3.0" << tx;
        QTest::newRow("missing version") << "SERVICE=WMS&REQUEST=GetMap" << "" << "1.3.0" << tx;
        QTest::newRow("updatesequence equal") << "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetCapabilities&UPDATESEQUENCE=10"
                                              << "CurrentUpdateSequence" << "1.1.1" << se;
        QTest::newRow("updatesequence higher") << "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetCapabilities&UPDATESEQUENCE=11"
                                               << "InvalidUpdateSequence" << "1.1.1" << se;
        QTest::newRow("bad exceptions 1.3.0") << kBase + v130 + "&LAYERS=points&EXCEPTIONS=application/nope"
                                              << "InvalidFormat" << "1.3.0" << tx;
    }

    void malformedRequests()
    {
        QFETCH(QString, query);
        QFETCH(QString, code);
        QFETCH(QString, reportVersion);
        QFETCH(QByteArray, contentType);
        const Response r = ask(query);
        const ExceptionInfo info = parseException(r.body);
        QVERIFY2(info.isReport, r.body.left(300).constData());
        QCOMPARE(info.code, code);
        QCOMPARE(info.version, reportVersion);
        QCOMPARE(r.contentType(), contentType);
        QVERIFY(!info.text.isEmpty());
    }

    void malformedCorpus_data()
    {
        QTest::addColumn<QByteArray>("query");
        QTest::addColumn<QString>("code");
        QFile file(QStringLiteral(MAPTUNE_TEST_DATA "/wms/malformed.txt"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray longValue(100 * 1024, 'A');
        int rows = 0;
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (line.isEmpty() || line.startsWith('#')) continue;
            const QList<QByteArray> cols = line.split('\t');
            QVERIFY2(cols.size() == 2, line.constData());
            QByteArray query = cols[0];
            query.replace("@LONG@", longValue);
            const QString code = cols[1] == "-" ? QString() : QString::fromLatin1(cols[1]);
            QTest::newRow(QByteArray::number(++rows).constData()) << query << code;
        }
        QVERIFY(rows >= 100);
    }

    void malformedCorpus()
    {
        QFETCH(QByteArray, query);
        QFETCH(QString, code);
        const Response r = service().handle(WmsRequest::fromQueryString(query));
        const ExceptionInfo e = parseException(r.body);
        QVERIFY2(e.isReport, r.body.left(300).constData());
        QCOMPARE(e.code, code);
        QVERIFY(!e.text.isEmpty());
        QCOMPARE(r.status, 200);
        // Nothing of the 100 KB value is echoed whole, nor markup unescaped.
        QVERIFY(r.body.size() < 64 * 1024);
    }

    void echoedValuesAreEscaped()
    {
        const Response r = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:4326&BBOX=0,0,20,10"
                                              "&WIDTH=2&HEIGHT=1&STYLES=&LAYERS=points&FORMAT=%3Cb%3E%26%22x"));
        const ExceptionInfo info = parseException(r.body);
        QVERIFY2(info.isReport, r.body.constData());
        QCOMPARE(info.code, QStringLiteral("InvalidFormat"));
        QVERIFY(info.text.contains(QStringLiteral("<b>&\"x")));
        QVERIFY(!r.body.contains("<b>"));
    }

    void capabilitiesEscapeMetadata_data()
    {
        QTest::addColumn<QString>("version");
        QTest::newRow("1.1.1") << "1.1.1";
        QTest::newRow("1.3.0") << "1.3.0";
    }

    // Every metadata-derived text and attribute reads back, after XML decoding,
    // exactly as written in escaping.map; no markup of it survives raw.
    void capabilitiesEscapeMetadata()
    {
        QFETCH(QString, version);
        const Response r = askEscaping(QStringLiteral("SERVICE=WMS&REQUEST=GetCapabilities&VERSION=") + version);
        QMultiHash<QString, QString> texts;   // element name -> decoded text
        QStringList hrefs;
        QXmlStreamReader xml(r.body);
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            const QString name = xml.name().toString();
            if (name == QLatin1String("OnlineResource"))
                hrefs << xml.attributes().value(QLatin1String("http://www.w3.org/1999/xlink"), QLatin1String("href")).toString();
            else if (name == QLatin1String("Title") || name == QLatin1String("Name") || name == QLatin1String("Keyword")
                     || name == QLatin1String("Abstract") || name == QLatin1String("ContactPerson") || name == QLatin1String("Fees")
                     || name == QLatin1String("AccessConstraints"))
                texts.insert(name, xml.readElementText());
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        const QStringList titles = texts.values(QStringLiteral("Title"));
        QVERIFY(titles.contains(QStringLiteral("Title <b>bold</b> & \"double\" 'single' café – 日本")));
        QVERIFY(titles.contains(QStringLiteral("Layer <title> & ü")));
        QVERIFY(titles.contains(QStringLiteral("Group <t> & é")));
        QVERIFY(titles.contains(QStringLiteral("Style <&> title")));
        QVERIFY(titles.contains(QStringLiteral("© <OSM> & co")));
        const QStringList names = texts.values(QStringLiteral("Name"));
        QVERIFY(names.contains(QStringLiteral("café<&>\"x\"")));
        QVERIFY(names.contains(QStringLiteral("grp<&>")));
        QVERIFY(names.contains(QStringLiteral("st<&>")));
        QVERIFY(names.contains(QStringLiteral("esc<&>map")));
        const QStringList keywords = texts.values(QStringLiteral("Keyword"));
        for (const char* k : {"a<b", "c&d", "\"e\"", "ünï", "k&1", "k<2>"}) QVERIFY2(keywords.contains(QString::fromUtf8(k)), k);
        QVERIFY(texts.values(QStringLiteral("Abstract")).contains(QStringLiteral("Abstract ]]> <![CDATA[ x ]]> &amp; <!-- c -->")));
        QVERIFY(texts.values(QStringLiteral("Abstract")).contains(QStringLiteral("<script>alert('x')</script>")));
        QCOMPARE(texts.value(QStringLiteral("ContactPerson")), QStringLiteral("O'Brien <ob@example.org>"));
        QCOMPARE(texts.value(QStringLiteral("Fees")), QStringLiteral("none & free"));
        QCOMPARE(texts.value(QStringLiteral("AccessConstraints")), QStringLiteral("<none>"));
        QVERIFY(hrefs.contains(QStringLiteral("http://localhost/wms?map=a&b=<c>&")));
        QVERIFY(hrefs.contains(QStringLiteral("http://example.org/?a=1&b=\"2\"")));
        QVERIFY(hrefs.contains(QStringLiteral("http://example.org/md?x=<1>&y=2")));
        for (const char* raw : {"<script>", "<b>bold", "<OSM>", "<none>", "<c>", "a&b", "]]> <!["})
            QVERIFY2(!r.body.contains(raw), raw);
    }

    void geographicBoxInRange_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("north");
        // 1.1.1's DTD cannot bound numbers: the extent as MapServer writes it.
        QTest::newRow("1.1.1") << "1.1.1" << "150.000000";
        QTest::newRow("1.3.0") << "1.3.0" << "90.000000";
    }

    // Layer "wide" of escaping.map has EXTENT 0 0 100 150 in EPSG:4326.
    void geographicBoxInRange()
    {
        QFETCH(QString, version);
        QFETCH(QString, north);
        const Response r = askEscaping(QStringLiteral("SERVICE=WMS&REQUEST=GetCapabilities&VERSION=") + version);
        QXmlStreamReader xml(r.body);
        QString layer, found;
        while (!xml.atEnd() && found.isEmpty()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            if (xml.name() == QLatin1String("Name")) layer = xml.readElementText();
            else if (layer == QLatin1String("wide") && xml.name() == QLatin1String("LatLonBoundingBox"))
                found = xml.attributes().value(QLatin1String("maxy")).toString();
            else if (layer == QLatin1String("wide") && xml.name() == QLatin1String("northBoundLatitude"))
                found = xml.readElementText();
        }
        QCOMPARE(found, north);
    }

    void exceptionsEscapeEchoedValues_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("param");     // where the hostile value goes
        QTest::addColumn<QString>("code");
        for (const char* v : {"1.1.1", "1.3.0"}) {
            const QString crs = QString::fromLatin1(v) == QLatin1String("1.3.0") ? QStringLiteral("CRS") : QStringLiteral("SRS");
            QTest::addRow("%s FORMAT", v) << v << "FORMAT" << "InvalidFormat";
            QTest::addRow("%s SRS/CRS", v) << v << crs << (crs == QLatin1String("CRS") ? "InvalidCRS" : "InvalidSRS");
            QTest::addRow("%s STYLES", v) << v << "STYLES" << "StyleNotDefined";
        }
        // Only 1.3.0 checks EXCEPTIONS (1.1.1 mapserv just renders the map).
        QTest::newRow("1.3.0 EXCEPTIONS") << "1.3.0" << "EXCEPTIONS" << "InvalidFormat";
    }

    // A hostile value echoed in a ServiceExceptionReport reads back exactly,
    // and none of its markup is raw in the document.
    void exceptionsEscapeEchoedValues()
    {
        QFETCH(QString, version);
        QFETCH(QString, param);
        QFETCH(QString, code);
        const QString hostile = QStringLiteral("<h a=\"1\">&'é]]>");
        QMap<QString, QString> params{{QStringLiteral("FORMAT"), QStringLiteral("image/png")},
                                      {version == QLatin1String("1.3.0") ? QStringLiteral("CRS") : QStringLiteral("SRS"), QStringLiteral("EPSG:4326")},
                                      {QStringLiteral("STYLES"), QString()}};
        params[param] = param == QLatin1String("SRS") || param == QLatin1String("CRS") ? QStringLiteral("EPSG:") + hostile : hostile;
        QString query = QStringLiteral("SERVICE=WMS&REQUEST=GetMap&LAYERS=grp%3C%26%3E&BBOX=0,0,10,10&WIDTH=10&HEIGHT=10&VERSION=") + version;
        for (auto it = params.cbegin(); it != params.cend(); ++it)
            query += QLatin1Char('&') + it.key() + QLatin1Char('=') + QString::fromLatin1(QUrl::toPercentEncoding(it.value()));
        const Response r = askEscaping(query);
        const ExceptionInfo e = parseException(r.body);
        QVERIFY2(e.isReport, r.body.constData());
        QCOMPARE(e.code, code);
        QVERIFY2(e.text.contains(hostile), qPrintable(e.text));
        QVERIFY(!r.body.contains("<h a") && !r.body.contains("]]>"));
        QCOMPARE(r.status, 200);
    }

    void getMapReturnsImage_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::newRow("1.1.1") << kBase + "&VERSION=1.1.1&SRS=EPSG:4326&BBOX=0,0,20,10&LAYERS=points" << 200 << 100;
        QTest::newRow("1.3.0 lat/lon") << kBase + "&VERSION=1.3.0&CRS=EPSG:4326&BBOX=0,0,10,20&LAYERS=grp" << 200 << 100;
        QTest::newRow("CRS:84") << QString(kBase).replace("WIDTH=200", "WIDTH=64").replace("HEIGHT=100", "HEIGHT=32")
                                       + "&VERSION=1.3.0&CRS=CRS:84&BBOX=0,0,20,10&LAYERS=points" << 64 << 32;
    }

    void getMapReturnsImage()
    {
        QFETCH(QString, query);
        QFETCH(int, width);
        QFETCH(int, height);
        const Response r = ask(query);
        QVERIFY2(r.contentType().startsWith("image/png"), r.body.left(400).constData());
        QImage image;
        QVERIFY(image.loadFromData(r.body, "PNG"));
        QCOMPARE(image.size(), QSize(width, height));
    }

    // The point at (5,5) of a 20x10 degree map is drawn a quarter across and
    // half down; with 1.3.0 EPSG:4326 the BBOX is lat,lon, so swapping it right
    // must still put the red point there.
    void axisOrderPlacesFeature()
    {
        const Response r = ask(kBase + "&VERSION=1.3.0&CRS=EPSG:4326&BBOX=0,0,10,20&LAYERS=points&BGCOLOR=0xFFFFFF");
        QImage image;
        QVERIFY(image.loadFromData(r.body, "PNG"));
        const QColor c = image.pixelColor(50, 50);
        QVERIFY2(c.red() > 200 && c.green() < 80, qPrintable(c.name()));
        QCOMPARE(image.pixelColor(150, 50), QColor(Qt::white));
    }

    // MapServer's capabilities layout: Service then Capability, the root layer
    // named after the map, GROUP layers enclosing their members, every layer
    // listed whatever its enable_request for GetMap.
    void capabilitiesLayout_data()
    {
        QTest::addColumn<QString>("version");
        QTest::addColumn<QString>("root");
        QTest::addColumn<QByteArray>("contentType");
        QTest::newRow("1.1.1") << "1.1.1" << "WMT_MS_Capabilities" << QByteArray("application/vnd.ogc.wms_xml; charset=UTF-8");
        QTest::newRow("1.3.0") << "1.3.0" << "WMS_Capabilities" << QByteArray("text/xml; charset=UTF-8");
    }

    void capabilitiesLayout()
    {
        QFETCH(QString, version);
        QFETCH(QString, root);
        QFETCH(QByteArray, contentType);
        const Response r = ask(QStringLiteral("SERVICE=WMS&REQUEST=GetCapabilities&VERSION=") + version);
        QCOMPARE(r.contentType(), contentType);
        QXmlStreamReader xml(r.body);
        QStringList topLevel, layerNames, stack;
        QString firstTitle, rootName;
        while (!xml.atEnd()) {
            const auto token = xml.readNext();
            if (token == QXmlStreamReader::EndElement) stack.removeLast();
            if (token != QXmlStreamReader::StartElement) continue;
            const QString name = xml.name().toString();
            if (stack.isEmpty()) rootName = name;
            if (stack.size() == 1) topLevel << name;
            if (name == QLatin1String("Title") && firstTitle.isEmpty()) {
                firstTitle = xml.readElementText();
            } else if (name == QLatin1String("Name") && !stack.isEmpty() && stack.last() == QLatin1String("Layer")) {
                layerNames << xml.readElementText();
            } else {
                stack << name;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(rootName, root);
        QCOMPARE(topLevel, (QStringList{QStringLiteral("Service"), QStringLiteral("Capability")}));
        QCOMPARE(firstTitle, QStringLiteral("Inline <test> & co"));
        QCOMPARE(layerNames, (QStringList{QStringLiteral("inline_test"), QStringLiteral("grp"), QStringLiteral("points"),
                                          QStringLiteral("hidden")}));
    }

    // The point (5,5) is at pixel (50,50) of the 200x100 map of 0,0 20,10;
    // the default tolerance of a point layer is 3 pixels.
    void legendGraphicRuleIcon()
    {
        // RULE: the class icon alone, KEYSIZE by default; a POINT layer's marker sits at the centre.
        const Response r = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetLegendGraphic&LAYER=points&FORMAT=image/png&RULE=red"));
        QCOMPARE(r.contentType(), QByteArray("image/png"));
        const QImage icon = QImage::fromData(r.body, "PNG");
        QCOMPARE(icon.size(), QSize(20, 10));
        QCOMPARE(icon.pixelColor(10, 5).rgb(), QColor(255, 0, 0).rgb());
        QCOMPARE(icon.pixelColor(1, 1).rgb(), QColor(255, 255, 255).rgb());
        const QImage sized = QImage::fromData(
            ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetLegendGraphic&LAYER=points&FORMAT=image/png&RULE=red&WIDTH=40&HEIGHT=30")).body, "PNG");
        QCOMPARE(sized.size(), QSize(40, 30));
    }

    void legendGraphicLayout()
    {
        // One named class: 5 px margins, the 20x10 key, 5 px spacing, then the name.
        const QImage legend = QImage::fromData(
            ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetLegendGraphic&LAYER=points&FORMAT=image/png")).body, "PNG");
        QVERIFY(!legend.isNull());
        QCOMPARE(legend.height(), 20);
        QVERIFY(legend.width() > 2 * 5 + 20 + 5);
        QCOMPARE(legend.pixelColor(15, 10).rgb(), QColor(255, 0, 0).rgb());
        bool text = false;  // dark label pixels right of the key
        for (int x = 30; x < legend.width(); ++x)
            for (int y = 0; y < legend.height(); ++y) text = text || qGray(legend.pixel(x, y)) < 128;
        QVERIFY(text);
    }

    // An OUTPUTFORMAT with IMAGEMODE RGBA and no TRANSPARENT is transparent
    // (loadOutputFormat), and GetLegendGraphic keeps the format's own
    // transparency unless TRANSPARENT is asked: the background is clear.
    void legendGraphicOfAnRgbaFormatIsTransparent_data()
    {
        QTest::addColumn<QByteArray>("formatTransparent");
        QTest::addColumn<QString>("requestTransparent");
        QTest::addColumn<int>("alpha");
        QTest::newRow("RGBA alone") << QByteArray() << QString() << 0;
        QTest::newRow("RGBA, TRANSPARENT OFF") << QByteArray("TRANSPARENT OFF") << QString() << 255;
        QTest::newRow("RGBA alone, TRANSPARENT=FALSE asked") << QByteArray() << QStringLiteral("&TRANSPARENT=FALSE") << 255;
    }
    void legendGraphicOfAnRgbaFormatIsTransparent()
    {
        QFETCH(QByteArray, formatTransparent);
        QFETCH(QString, requestTransparent);
        QFETCH(int, alpha);
        LoadResult loaded = parseMapText("MAP NAME t EXTENT 0 0 10 10 SIZE 10 10 IMAGETYPE rgba\n"
                                         " OUTPUTFORMAT NAME rgba DRIVER AGG/PNG MIMETYPE \"image/png\" IMAGEMODE RGBA "
                                             + formatTransparent + " END\n"
                                         " WEB METADATA \"wms_enable_request\" \"*\" END END\n"
                                         " LAYER NAME l TYPE POLYGON STATUS ON CLASS NAME \"c\" STYLE COLOR 255 0 0 END END END\n"
                                         "END\n",
                                         QStringLiteral("/tmp/rgba_legend.map"));
        QVERIFY(loaded.ok());
        const WmsService service(loaded.map);
        const Response r = service.handle(WmsRequest::fromQueryString(
            ("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetLegendGraphic&LAYER=l&FORMAT=image/png" + requestTransparent).toUtf8()));
        const QImage legend = QImage::fromData(r.body, "PNG").convertToFormat(QImage::Format_ARGB32);
        QVERIFY2(!legend.isNull(), r.body.constData());
        QCOMPARE(qAlpha(legend.pixel(1, 1)), alpha);
        QCOMPARE(legend.pixelColor(15, 10).rgb(), QColor(255, 0, 0).rgb());
    }

    void legendGraphicErrors_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<QString>("code");
        QTest::newRow("no LAYER") << "FORMAT=image/png" << "LayerNotDefined";
        QTest::newRow("unknown LAYER") << "LAYER=nope&FORMAT=image/png" << "LayerNotDefined";
        QTest::newRow("no FORMAT") << "LAYER=points" << "InvalidFormat";
        QTest::newRow("unknown FORMAT") << "LAYER=points&FORMAT=image/x-nope" << "InvalidFormat";
        QTest::newRow("unknown RULE") << "LAYER=points&FORMAT=image/png&RULE=nope" << "";
        QTest::newRow("no named class") << "LAYER=hidden&FORMAT=image/png" << "";
    }

    void legendGraphicErrors()
    {
        QFETCH(QString, query);
        QFETCH(QString, code);
        const ExceptionInfo e = parseException(ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetLegendGraphic&") + query).body);
        QVERIFY(e.isReport);
        QCOMPARE(e.code, code);
    }

};

// A QGuiApplication: legend text is laid out with Qt's font engine.
QTEST_MAIN(TestWms)
#include "test_wms.moc"
