// WMS GetFeatureInfo: the clicked feature found (RADIUS, raster values,
// layers that cannot be queried or do not exist), values escaped in every
// INFO_FORMAT, XML element names made valid, GeoJSON polygons with holes.

#include "mapfile/map_loader.h"
#include "wms/feature_info_output.h"
#include "wms/wms_service.h"

#include "wms_test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <gdal.h>

using namespace maptune;
using test::parseException;

class TestWmsFeatureInfo : public test::WmsTestCase {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY2(loadMaps(), "inline.map and escaping.map must load"); }

    void featureInfoEscapesValues_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("contentType");
        QTest::newRow("text/plain") << "text/plain" << QByteArray("text/plain; charset=UTF-8");
        QTest::newRow("gml") << "application/vnd.ogc.gml" << QByteArray("application/vnd.ogc.gml; charset=UTF-8");
        QTest::newRow("html") << "text/html" << QByteArray("text/html; charset=UTF-8");
        QTest::newRow("json") << "application/json" << QByteArray("application/json; charset=UTF-8");
    }

    // The attribute values of escaping.map's point: name = Zoë & <Bob>,
    // html = <script>alert("x")</script>&amp (ITEMS splits on ';').
    void featureInfoEscapesValues()
    {
        QFETCH(QString, format);
        QFETCH(QByteArray, contentType);
        const QString name = QStringLiteral("Zoë & <Bob>");
        const QString html = QStringLiteral("<script>alert(\"x\")</script>&amp");
        const Response r = askEscaping(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&SRS=EPSG:4326"
                                                      "&BBOX=0,0,20,10&WIDTH=200&HEIGHT=100&STYLES=&LAYERS=grp%3C%26%3E"
                                                      "&QUERY_LAYERS=grp%3C%26%3E&X=50&Y=50&INFO_FORMAT=") + format);
        QCOMPARE(r.contentType(), contentType);
        if (format == QLatin1String("text/plain")) {
            // Served as text/plain: verbatim, as mapserv's msDumpResult.
            const QString body = QString::fromUtf8(r.body);
            QVERIFY2(body.contains(QStringLiteral("    name = '") + name + QLatin1Char('\'')), r.body.constData());
            QVERIFY(body.contains(QStringLiteral("    html = '") + html + QLatin1Char('\'')));
            QVERIFY(body.contains(QStringLiteral("Layer 'café<&>\"x\"'")));
            return;
        }
        if (format == QLatin1String("application/json")) {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(r.body, &error);
            QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
            QCOMPARE(doc[QLatin1String("type")].toString(), QStringLiteral("FeatureCollection"));
            const QJsonArray features = doc[QLatin1String("features")].toArray();
            QCOMPARE(features.size(), 1);
            const QJsonObject f = features[0].toObject();
            QCOMPARE(f[QLatin1String("properties")][QLatin1String("name")].toString(), name);
            QCOMPARE(f[QLatin1String("properties")][QLatin1String("html")].toString(), html);
            QCOMPARE(f[QLatin1String("layer")].toString(), QStringLiteral("café<&>\"x\""));
            QCOMPARE(f[QLatin1String("geometry")][QLatin1String("type")].toString(), QStringLiteral("Point"));
            QCOMPARE(f[QLatin1String("geometry")][QLatin1String("coordinates")].toArray(), (QJsonArray{5.0, 5.0}));
            return;
        }
        QVERIFY2(!r.body.contains("<script>") && !r.body.contains("<Bob>"), r.body.constData());
        if (format == QLatin1String("text/html")) {
            const QString body = QString::fromUtf8(r.body);
            QVERIFY(body.contains(QStringLiteral("<td>Zoë &amp; &lt;Bob&gt;</td>")));
            QVERIFY(body.contains(QStringLiteral("<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp</td>")));
            QVERIFY(body.contains(QStringLiteral("<caption>Layer &lt;title&gt; &amp; ü</caption>")));
            return;
        }
        // GML: well-formed although the layer name is no XML name; values decode back.
        QXmlStreamReader xml(r.body);
        QHash<QString, QString> values;
        QStringList elements;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            const QString element = xml.name().toString();
            elements << element;
            if (element == QLatin1String("name") || element == QLatin1String("html")) values[element] = xml.readElementText();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(values.value(QStringLiteral("name")), name);
        QCOMPARE(values.value(QStringLiteral("html")), html);
        QVERIFY(elements.contains(QStringLiteral("café____x__layer")));
    }


    void xmlElementNames_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("plain") << "roads" << "roads";
        QTest::newRow("digits and dots inside") << "a1.b-c_d" << "a1.b-c_d";
        QTest::newRow("leading digit") << "1a" << "_a";
        QTest::newRow("markup") << "a<b>&\"c\"" << "a_b___c_";
        QTest::newRow("space and colon") << "x y:z" << "x_y_z";
        QTest::newRow("non-ASCII letters stay") << "café" << "café";
        QTest::newRow("empty") << "" << "_";
    }

    void xmlElementNames()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(xmlElementName(in), out);
    }


    void geoJsonPolygonRings_data()
    {
        QTest::addColumn<QList<int>>("ringOffsets");   // each ring: a square at (o,o) of size 10 - 2*o... see below
        QTest::addColumn<QString>("type");
        QTest::addColumn<int>("rings");                 // rings of the first polygon
        // 0: square 0..10; 2: square 2..8 (inside 0); 20: square 20..30 (disjoint).
        QTest::newRow("outer only") << QList<int>{0} << "Polygon" << 1;
        QTest::newRow("outer with hole") << QList<int>{0, 2} << "Polygon" << 2;
        QTest::newRow("two outers") << QList<int>{0, 20} << "MultiPolygon" << 1;
        QTest::newRow("hole listed first") << QList<int>{2, 0} << "Polygon" << 2;
    }

    void geoJsonPolygonRings()
    {
        QFETCH(QList<int>, ringOffsets);
        QFETCH(QString, type);
        QFETCH(int, rings);
        Feature f;
        f.id = 7;
        f.geometry.type = Geometry::Type::Polygon;
        for (int o : ringOffsets) {
            const double lo = o, hi = o == 2 ? 8 : o + 10;
            f.geometry.partStart.push_back(f.geometry.pointCount());
            for (double v : {lo, lo, hi, lo, hi, hi, lo, hi, lo, lo}) f.geometry.xy.push_back(v);
        }
        LayerDef layer;
        layer.name = QStringLiteral("p");
        const QJsonDocument doc = QJsonDocument::fromJson(featureInfoGeoJson({FeatureInfoLayer{&layer, {}, {f}}}));
        const QJsonObject geometry = doc[QLatin1String("features")][0][QLatin1String("geometry")].toObject();
        QCOMPARE(geometry[QLatin1String("type")].toString(), type);
        QJsonArray first = geometry[QLatin1String("coordinates")].toArray();
        if (type == QLatin1String("MultiPolygon")) {
            QCOMPARE(first.size(), 2);
            first = first[0].toArray();
        }
        QCOMPARE(first.size(), rings);
        QCOMPARE(first[0].toArray()[0].toArray(), (QJsonArray{ringOffsets[0] == 2 ? 0.0 : double(ringOffsets[0]), ringOffsets[0] == 2 ? 0.0 : double(ringOffsets[0])}));
    }


    void featureInfoFindsClickedFeature_data()
    {
        QTest::addColumn<QString>("click");
        QTest::addColumn<QString>("format");
        QTest::addColumn<bool>("found");
        QTest::newRow("on the point") << "X=50&Y=50" << "text/plain" << true;
        QTest::newRow("2 px off") << "X=52&Y=48" << "text/plain" << true;
        QTest::newRow("6 px off") << "X=56&Y=50" << "text/plain" << false;
        QTest::newRow("far") << "X=190&Y=90" << "text/plain" << false;
        QTest::newRow("gml") << "X=50&Y=50" << "application/vnd.ogc.gml" << true;
    }

    void featureInfoFindsClickedFeature()
    {
        QFETCH(QString, click);
        QFETCH(QString, format);
        QFETCH(bool, found);
        const Response r = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&SRS=EPSG:4326&BBOX=0,0,20,10"
                                              "&WIDTH=200&HEIGHT=100&STYLES=&LAYERS=points&QUERY_LAYERS=points&INFO_FORMAT=")
                               + format + QLatin1Char('&') + click);
        QVERIFY2(r.contentType().startsWith(format.toUtf8()), r.body.constData());
        if (format == QLatin1String("text/plain")) {
            QVERIFY(r.body.startsWith("GetFeatureInfo results:"));
            QCOMPARE(r.body.contains("Layer 'points'\n  Feature 0: "), found);
            QCOMPARE(r.body.contains("Search returned no results."), !found);
        } else {
            QXmlStreamReader xml(r.body);
            QStringList names;
            while (!xml.atEnd())
                if (xml.readNext() == QXmlStreamReader::StartElement) names << xml.name().toString();
            QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
            QCOMPARE(names.mid(0, 3), (QStringList{QStringLiteral("msGMLOutput"), QStringLiteral("points_layer"), QStringLiteral("name")}));
            QVERIFY(names.contains(QStringLiteral("points_feature")));
        }
    }


    void featureInfoRadius()
    {
        // RADIUS (a mapserv vendor parameter) overrides every layer's TOLERANCE, in pixels.
        const QString q = QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&SRS=EPSG:4326&BBOX=0,0,20,10"
                                         "&WIDTH=200&HEIGHT=100&STYLES=&LAYERS=points&QUERY_LAYERS=grp&X=90&Y=50");
        QVERIFY(ask(q).body.contains("Search returned no results."));
        QVERIFY(ask(q + QStringLiteral("&RADIUS=45")).body.contains("Layer 'points'"));
    }


    void featureInfoNonQueryableLayerIsNotOffered()
    {
        // "hidden" has no TEMPLATE: mapserv does not count it as a query layer.
        const Response r = ask(QStringLiteral("SERVICE=WMS&VERSION=1.3.0&REQUEST=GetFeatureInfo&CRS=EPSG:4326&BBOX=0,0,10,20"
                                              "&WIDTH=200&HEIGHT=100&STYLES=&LAYERS=points&QUERY_LAYERS=hidden&I=150&J=50"));
        QCOMPARE(parseException(r.body).code, QStringLiteral("LayerNotDefined"));
    }


    void rasterFeatureInfo_data()
    {
        QTest::addColumn<QString>("click");
        QTest::addColumn<QString>("bbox");
        QTest::addColumn<QStringList>("lines");
        // 10x10 pixels of 1 degree from (0,10); band 1 = 10*row + col, band 2 = 200, band 3 = col.
        QTest::newRow("pixel centre") << "X=35&Y=72" << "0,0,10,10"
                                      << QStringList{"x = '3.5'", "y = '2.5'", "value_0 = '73'", "value_1 = '200'",
                                                     "value_2 = '3'", "value_list = '73,200,3'", "red = '73'",
                                                     "green = '200'", "blue = '3'"};
        QTest::newRow("corner pixel") << "X=0&Y=0" << "0,0,10,10"
                                      << QStringList{"x = '0.5'", "y = '9.5'", "value_0 = '0'", "blue = '0'"};
        QTest::newRow("outside the raster") << "X=150&Y=50" << "0,0,20,10" << QStringList{"Search returned no results."};
    }

    void rasterFeatureInfo()
    {
        QFETCH(QString, click);
        QFETCH(QString, bbox);
        QFETCH(QStringList, lines);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        GDALAllRegister();
        GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), qPrintable(dir.filePath(QStringLiteral("r.tif"))),
                                     10, 10, 3, GDT_Byte, nullptr);
        QVERIFY(ds);
        double gt[6] = {0, 1, 0, 10, 0, -1};
        GDALSetGeoTransform(ds, gt);
        std::vector<unsigned char> px(100);
        for (int band = 1; band <= 3; ++band) {
            for (int i = 0; i < 100; ++i) px[i] = band == 1 ? i : band == 2 ? 200 : i % 10;
            QCOMPARE(GDALRasterIO(GDALGetRasterBand(ds, band), GF_Write, 0, 0, 10, 10, px.data(), 10, 10, GDT_Byte, 0, 0), CE_None);
        }
        GDALClose(ds);
        QFile map(dir.filePath(QStringLiteral("r.map")));
        QVERIFY(map.open(QIODevice::WriteOnly));
        map.write("MAP NAME r EXTENT 0 0 10 10 SIZE 100 100 PROJECTION \"init=epsg:4326\" END\n"
                  "WEB METADATA \"ows_enable_request\" \"*\" \"wms_srs\" \"EPSG:4326 EPSG:3857\" END END\n"
                  "LAYER NAME grid TYPE RASTER STATUS ON DATA \"r.tif\" TEMPLATE \"t\"\n"
                  "PROJECTION \"init=epsg:4326\" END METADATA \"wms_include_items\" \"all\" END END END\n");
        map.close();
        LoadResult loaded = loadMapFile(map.fileName());
        QVERIFY(loaded.ok());
        const WmsService service(loaded.map);
        const QString srs = QStringLiteral("EPSG:4326");
        const QStringList size = bbox == QLatin1String("0,0,20,10") ? QStringList{"200", "100"} : QStringList{"100", "100"};
        const Response r = service.handle(WmsRequest::fromQueryString(
            QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&SRS=%1&BBOX=%2&WIDTH=%3&HEIGHT=%4"
                           "&STYLES=&LAYERS=grid&QUERY_LAYERS=grid&INFO_FORMAT=text/plain&%5")
                .arg(srs, bbox, size[0], size[1], click).toUtf8()));
        for (const QString& line : lines)
            QVERIFY2(r.body.contains(line.toUtf8()), qPrintable(QString::fromUtf8(r.body)));
    }


    void featureInfoUnknownQueryLayer()
    {
        const Response r = ask(QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&SRS=EPSG:4326&BBOX=0,0,20,10"
                                              "&WIDTH=200&HEIGHT=100&STYLES=&LAYERS=points&QUERY_LAYERS=nosuch&X=1&Y=1"));
        QCOMPARE(parseException(r.body).code, QStringLiteral("LayerNotDefined"));
    }
};

QTEST_MAIN(TestWmsFeatureInfo)
#include "test_wms_feature_info.moc"
