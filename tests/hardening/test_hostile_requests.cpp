// Hostile requests against the HTTP server on loopback: no request parameter
// reaches the file system (maps are looked up by name; a mapfile reads only
// inside its data roots, checked at load), limits hold, and everything echoed
// into capabilities, feature info and exception reports comes out escaped.
// SQL injection through WMS parameters: test_hostile_sql.

#include "hardening_support.h"

#include "mapfile/data_roots.h"
#include "mapfile/map_loader.h"
#include "render/engine.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QUrl>
#include <QXmlStreamReader>

#include <cstdlib>

using namespace maptune;
using namespace maptune::hardening;

namespace {

const QByteArray kCanary = "CANARY-7f3a secret contents";

// Attribute values no output may carry raw.
const QString kScript = QStringLiteral("<script>alert('x')</script>");
const QString kQuotes = QStringLiteral("\"dq\" 'sq' & <b>");
const QString kCdata = QStringLiteral("a]]>b<![CDATA[c");
const QString kControl = QStringLiteral("bell\x07tab\tesc\x1b" "del\x7fnul-free");

QByteArray geoJsonPoints()
{
    QJsonArray features;
    const QList<std::pair<QString, QString>> rows{{kScript, kQuotes}, {kCdata, kControl}};
    double x = 5;
    for (const auto& [name, note] : rows) {
        QJsonObject f{{"type", "Feature"},
                      {"properties", QJsonObject{{"name", name}, {"note", note}}},
                      {"geometry", QJsonObject{{"type", "Point"}, {"coordinates", QJsonArray{x, 5.0}}}}};
        features.append(f);
        x += 10;
    }
    return QJsonDocument(QJsonObject{{"type", "FeatureCollection"}, {"features", features}}).toJson();
}

// A map reading data/points.geojson, with hostile metadata.
QByteArray mapText(const QByteArray& layerExtra = {}, const QByteArray& mapExtra = {})
{
    return R"(MAP
  NAME "hostile"
  SIZE 200 100
  MAXSIZE 1024
  EXTENT 0 0 20 10
  UNITS DD
  PROJECTION "init=epsg:4326" END
)" + mapExtra + R"(
  WEB
    METADATA
      "wms_title" 'Title <script>x</script> ]]> & "c" ctl)" "\x01\x1b" R"('
      "wms_abstract" "<![CDATA[ ]]> </Abstract><Injected/>"
      "wms_srs" "EPSG:4326 EPSG:3857"
      "wms_enable_request" "*"
      "wms_feature_info_mime_type" "text/html"
    END
  END
  LAYER
    NAME "points"
    TYPE POINT
    STATUS ON
    DATA "data/points.geojson"
    TEMPLATE "query"
    PROCESSING "ITEMS=name,note"
    METADATA
      "wms_title" "Points <i>&</i>"
      "wms_include_items" "all"
      "gml_include_items" "all"
    END
)" + layerExtra + R"(
    CLASS
      STYLE SYMBOL "circle" SIZE 9 COLOR 200 0 0 END
    END
  END
  SYMBOL NAME "circle" TYPE ELLIPSE FILLED TRUE POINTS 1 1 END END
END
)";
}

// The XML reader's verdict (QXmlStreamReader rejects raw or referenced control characters).
QString xmlProblem(const QByteArray& body)
{
    QXmlStreamReader xml(body);
    while (!xml.atEnd()) xml.readNext();
    return xml.hasError() ? xml.errorString() + QStringLiteral(" at line %1").arg(xml.lineNumber()) : QString();
}

QStringList xmlTexts(const QByteArray& body, const QString& element)
{
    QStringList out;
    QXmlStreamReader xml(body);
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == element) out << xml.readElementText();
    return out;
}

// What XML can carry of a string: the characters XML 1.0 forbids dropped.
QString xmlSafe(QString s)
{
    s.removeIf([](QChar c) { return c.unicode() < 0x20 && c != u'\t' && c != u'\n' && c != u'\r'; });
    return s;
}

}  // namespace

class TestHostileRequests : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_mapPath;
    std::unique_ptr<Server> m_server;
    std::unique_ptr<Server> m_substServer;

    HttpReply get(const QByteArray& target, const QByteArray& headers = {}) const
    {
        return rawGet(m_server->http->port(), target, headers);
    }

private Q_SLOTS:
    void initTestCase();
    void pathsNeverNameFiles_data();
    void pathsNeverNameFiles();
    void fastCgiPathsNeverNameFiles_data();
    void fastCgiPathsNeverNameFiles();
    void parametersCannotRedirectData_data();
    void parametersCannotRedirectData();
    void substitutionStaysInside_data();
    void substitutionStaysInside();
    void dataRootsAtLoad_data();
    void dataRootsAtLoad();
    void reloadOutsideRootsKeepsServing();
    void maxSizeHolds_data();
    void maxSizeHolds();
    void queueWaitPastDeadlineIs503();
    void featureInfoEscapes_data();
    void featureInfoEscapes();
    void exceptionsEscape_data();
    void exceptionsEscape();
    void capabilitiesEscape_data();
    void capabilitiesEscape();
};

void TestHostileRequests::initTestCase()
{
    initEngine();
    QVERIFY(m_dir.isValid());
    m_mapPath = m_dir.filePath(QStringLiteral("maps/hostile.map"));
    QVERIFY(writeFile(m_mapPath, mapText()));
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("maps/data/points.geojson")), geoJsonPoints()));
    // Files a request must never reach: next to the map, above it, elsewhere.
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("maps/secret.map")), "MAP NAME '" + kCanary + "' END\n"));
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("maps/secret.txt")), kCanary));
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("outside/points.geojson")), geoJsonPoints().replace("alert", "CANARY")));
    // A map whose author let runtime substitution name its data file with a
    // pattern that accepts anything: the data roots still hold.
    QVERIFY(writeFile(m_dir.filePath(QStringLiteral("maps/subst.map")), QByteArray(mapText(R"(
    VALIDATION "src" "." "default_src" "points.geojson" "title" "." "bomb" "^(a+)+$" END
)")).replace("NAME \"hostile\"", "NAME \"subst\"")
                       .replace("DATA \"data/points.geojson\"", "DATA \"data/%src%\"")
                       .replace("\"wms_title\" \"Points <i>&</i>\"", "\"wms_title\" \"Points %title% %bomb%\"")));
    m_server = std::make_unique<Server>(QStringList{m_mapPath});
    QVERIFY2(m_server->errors.isEmpty(), qPrintable(m_server->errors.join('\n')));
    m_substServer = std::make_unique<Server>(QStringList{m_dir.filePath(QStringLiteral("maps/subst.map"))});
    QVERIFY2(m_substServer->errors.isEmpty(), qPrintable(m_substServer->errors.join('\n')));
}

void TestHostileRequests::pathsNeverNameFiles_data()
{
    QTest::addColumn<QByteArray>("target");
    QTest::addColumn<int>("status");  // 404 unknown map, 400 unparseable, 200 the single map
    const QByteArray caps = "?SERVICE=WMS&REQUEST=GetCapabilities";
    QTest::newRow("sibling mapfile by name") << "/secret" + caps << 404;
    QTest::newRow("sibling with extension") << "/secret.map" + caps << 404;
    QTest::newRow("text file") << "/secret.txt" + caps << 404;
    QTest::newRow("absolute path") << "//etc/passwd" + caps << 404;
    QTest::newRow("encoded absolute") << "/%2Fetc%2Fpasswd" + caps << 404;
    QTest::newRow("dot dot") << "/../maps/secret" + caps << 404;
    QTest::newRow("encoded dot dot") << "/%2e%2e/secret" + caps << 404;
    QTest::newRow("double-encoded") << "/%252e%252e%252fsecret" + caps << 404;
    QTest::newRow("overlong utf-8 dots") << "/%c0%ae%c0%ae%c0%afsecret" + caps << 404;
    QTest::newRow("backslashes") << "/..%5C..%5Csecret" + caps << 404;
    QTest::newRow("raw backslash") << "/..\\secret" + caps << 404;
    QTest::newRow("nul after name") << "/hostile%00.map" + caps << 404;
    QTest::newRow("nul before traversal") << "/hostile%00/../secret" + caps << 404;
    QTest::newRow("very long name") << "/" + QByteArray(5000, 'a') + caps << 404;
    QTest::newRow("long traversal") << QByteArray("/..").repeated(1500) + "/etc/passwd" << 404;
    QTest::newRow("hidden file") << "/.secret" + caps << 404;
    QTest::newRow("served map, nested") << "/hostile/../secret" + caps << 404;
    // A map= parameter is no way to name a file: the single map answers.
    QTest::newRow("map= absolute") << "/?MAP=" + m_dir.filePath(QStringLiteral("maps/secret.map")).toUtf8() + "&SERVICE=WMS&REQUEST=GetCapabilities" << 200;
    QTest::newRow("map= relative") << QByteArray("/hostile?map=secret.map&SERVICE=WMS&REQUEST=GetCapabilities") << 200;
    QTest::newRow("map= traversal") << QByteArray("/hostile?map=../../../../etc/passwd&SERVICE=WMS&REQUEST=GetCapabilities") << 200;
}

// The answer never carries the files' contents nor the path asked for.
void TestHostileRequests::pathsNeverNameFiles()
{
    QFETCH(QByteArray, target);
    QFETCH(int, status);
    const HttpReply r = get(target);
    if (status == 404 && r.status == 400) {
        // httplib refuses some raw forms before routing: just as good.
    } else {
        QCOMPARE(r.status, status);
    }
    QVERIFY(!r.body.contains(kCanary));
    QVERIFY(!r.body.contains("root:"));
    QVERIFY(!r.body.contains("secret"));
    QVERIFY(!r.body.contains(m_dir.path().toUtf8()));
    if (status == 200) QVERIFY2(r.body.contains("WMS_Capabilities"), r.body.left(200).constData());
    // Still serving.
    QCOMPARE(get("/health").status, 200);
}

void TestHostileRequests::fastCgiPathsNeverNameFiles_data()
{
    QTest::addColumn<QByteArray>("path");
    QTest::newRow("script name") << QByteArray("/cgi-bin/mapserv");
    QTest::newRow("traversal last segment") << QByteArray("/cgi-bin/mapserv/../../maps/secret");
    QTest::newRow("encoded") << QByteArray("/cgi-bin/%2e%2e%2fsecret.map");
    QTest::newRow("absolute in path info") << QByteArray("/cgi-bin/mapserv//etc/passwd");
}

// FastCGI names the map by the last path segment; anything else is the single map.
void TestHostileRequests::fastCgiPathsNeverNameFiles()
{
    QFETCH(QByteArray, path);
    const Response r = m_server->router->handle("GET", path, "SERVICE=WMS&REQUEST=GetCapabilities&map=secret.map",
                                                 ServiceRouter::PathMode::LastSegment);
    QCOMPARE(r.status, 200);
    QVERIFY(r.body.contains("WMS_Capabilities"));
    QVERIFY(!r.body.contains(kCanary));
}

void TestHostileRequests::parametersCannotRedirectData_data()
{
    QTest::addColumn<QByteArray>("extra");
    const QByteArray outside = QUrl::toPercentEncoding(m_dir.filePath(QStringLiteral("outside/points.geojson")));
    QTest::newRow("map=") << "&map=" + outside;
    QTest::newRow("mapserv runtime layer data") << "&map.layer[points]=DATA+%22" + outside + "%22";
    QTest::newRow("mapserv 6 style") << "&map_points_data=" + outside;
    QTest::newRow("DATA=") << "&DATA=" + outside;
    QTest::newRow("runtime substitution key") << "&points=" + outside;
    QTest::newRow("SHAPEPATH") << QByteArray("&SHAPEPATH=..%2F..%2Foutside&map.shapepath=..%2Foutside");
    QTest::newRow("SLD url") << "&SLD=file%3A%2F%2F" + outside;
    QTest::newRow("SLD_BODY") << "&SLD_BODY=%3CStyledLayerDescriptor%3E%3CNamedLayer%3E%3CName%3E" + outside + "%3C%2FName%3E";
    QTest::newRow("TEMPLATE") << "&TEMPLATE=" + outside + "&mode=browse";
    QTest::newRow("CQL_FILTER") << QByteArray("&CQL_FILTER=name%3D%27x%27&EXP_FILTER=name");
}

// Vendor and MapServer-CGI parameters are ignored: the image is the plain one.
void TestHostileRequests::parametersCannotRedirectData()
{
    QFETCH(QByteArray, extra);
    const QByteArray base = "/hostile?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=points&STYLES=&SRS=EPSG:4326"
                            "&BBOX=0,0,20,10&WIDTH=200&HEIGHT=100&FORMAT=image/png";
    const HttpReply plain = get(base);
    QCOMPARE(plain.status, 200);
    const QImage expected = QImage::fromData(plain.body);
    QVERIFY(!expected.isNull());
    const HttpReply hostile = get(base + extra);
    QCOMPARE(hostile.status, 200);
    QVERIFY(!hostile.body.contains("CANARY"));
    if (extra.contains("mode=browse")) {
        // An explicit MODE is mapserv's, not the WMS's (msCGIDispatchRequest):
        // browse pages come from the mapfile's WEB TEMPLATE, never a parameter.
        QVERIFY2(hostile.body.contains("requires a TEMPLATE in the WEB section"), hostile.body.left(300).constData());
    } else {
        const QImage actual = QImage::fromData(hostile.body);
        QVERIFY2(!actual.isNull(), hostile.body.left(300).constData());
        QCOMPARE(actual, expected);
    }
    const HttpReply info = get("/hostile?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=points&QUERY_LAYERS=points"
                               "&STYLES=&SRS=EPSG:4326&BBOX=0,0,20,10&WIDTH=200&HEIGHT=100&X=50&Y=50"
                               "&INFO_FORMAT=application/json&FEATURE_COUNT=10" + extra);
    QCOMPARE(info.status, 200);
    QVERIFY(!info.body.contains("CANARY"));
    if (extra.contains("mode=browse")) QVERIFY(info.body.contains("requires a TEMPLATE in the WEB section"));
    else QVERIFY2(info.body.contains("alert"), info.body.left(300).constData());
}

void TestHostileRequests::substitutionStaysInside_data()
{
    QTest::addColumn<QByteArray>("extra");
    QTest::addColumn<bool>("refused");  // the value must not be applied: the image is the plain one
    const QByteArray outside = QUrl::toPercentEncoding(m_dir.filePath(QStringLiteral("outside/points.geojson")));
    QTest::newRow("accepted value") << QByteArray("&src=points.geojson") << false;
    QTest::newRow("dot dot") << QByteArray("&src=..%2F..%2Foutside%2Fpoints.geojson") << true;
    // "data/" + an absolute path is a (missing) file inside data/.
    QTest::newRow("absolute") << "&src=" + outside << false;
    QTest::newRow("NUL then traversal") << QByteArray("&src=points.geojson%00%2F..%2F..%2F..%2Foutside%2Fpoints.geojson") << true;
    QTest::newRow("repeated, last traverses") << QByteArray("&src=points.geojson&src=..%2F..%2Foutside%2Fpoints.geojson") << true;
    QTest::newRow("case of the key") << QByteArray("&SRC=..%2F..%2Foutside%2Fpoints.geojson") << true;
    QTest::newRow("token in the value") << QByteArray("&src=%25src%25&title=..%2F..%2Foutside") << false;
    QTest::newRow("virtual file") << QByteArray("&src=%2Fvsicurl%2Fhttp%3A%2F%2F127.0.0.1%3A9%2Fa.geojson") << true;
    // Inside the roots, so applied: the mapfile does not open as data, and its text never shows.
    QTest::newRow("mapfile as data") << QByteArray("&src=..%2Fsecret.map") << false;
    QTest::newRow("regex bomb") << "&bomb=" + QByteArray(40, 'a') + "!" << true;
    QTest::newRow("format string") << QByteArray("&src=%25s%25n%25x&title=%25n") << false;
}

// Whatever a substitution value says, no answer carries a file outside the
// map's roots (nor the mapfile's own text); values that would leave the data
// roots are refused, not applied, and the image is the plain one.
void TestHostileRequests::substitutionStaysInside()
{
    QFETCH(QByteArray, extra);
    QFETCH(bool, refused);
    const auto ask = [this](const QByteArray& target) { return rawGet(m_substServer->http->port(), target); };
    const QByteArray base = "/subst?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=points&STYLES=&SRS=EPSG:4326"
                            "&BBOX=0,0,20,10&WIDTH=200&HEIGHT=100&FORMAT=image/png";
    const HttpReply plain = ask(base);
    QCOMPARE(plain.status, 200);
    const QImage expected = QImage::fromData(plain.body);
    QVERIFY2(!expected.isNull(), plain.body.left(300).constData());
    const HttpReply hostile = ask(base + extra);
    QCOMPARE(hostile.status, 200);
    QVERIFY(!hostile.body.contains("CANARY"));
    if (refused) QCOMPARE(QImage::fromData(hostile.body), expected);
    // Query answers and mapserv pages, too.
    const HttpReply info = ask("/subst?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=points&QUERY_LAYERS=points"
                               "&STYLES=&SRS=EPSG:4326&BBOX=0,0,20,10&WIDTH=200&HEIGHT=100&X=50&Y=50"
                               "&INFO_FORMAT=application/json&FEATURE_COUNT=10" + extra);
    QCOMPARE(info.status, 200);
    QVERIFY(!info.body.contains("CANARY"));
    if (refused) QVERIFY2(info.body.contains("alert"), info.body.left(300).constData());
    const HttpReply page = ask("/subst?mode=map&layers=points" + extra);
    QCOMPARE(page.status, 200);
    QVERIFY(!page.body.contains("CANARY"));
    // A title value is escaped like any other metadata.
    const HttpReply caps = ask("/subst?SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities&title=%3Cscript%3E%5D%5D%3E" + extra);
    QCOMPARE(xmlProblem(caps.body), QString());
    QVERIFY(!caps.body.contains("<script>"));
    if (!extra.contains("title=") && !refused) QVERIFY2(xmlTexts(caps.body, QStringLiteral("Title")).contains(QStringLiteral("Points <script>]]> %bomb%")),
                                            caps.body.constData());
}

void TestHostileRequests::dataRootsAtLoad_data()
{
    QTest::addColumn<QByteArray>("layer");    // replaces DATA "data/points.geojson"
    QTest::addColumn<QByteArray>("map");      // extra MAP-level lines
    QTest::addColumn<QString>("env");         // MAPTUNE_ALLOWED_ROOTS
    QTest::addColumn<QString>("refusal");     // part of the error; empty: the map loads
    const QByteArray outside = m_dir.filePath(QStringLiteral("outside")).toUtf8();
    const QByteArray none;
    QTest::newRow("inside") << QByteArray("DATA \"data/points.geojson\"") << none << "" << "";
    QTest::newRow("absolute inside") << "DATA \"" + m_dir.filePath(QStringLiteral("maps/data/points.geojson")).toUtf8() + "\"" << none << "" << "";
    QTest::newRow("SHAPEPATH root") << QByteArray("DATA \"points.geojson\"") << QByteArray("SHAPEPATH \"../outside\"") << "" << "";
    QTest::newRow("CONFIG root") << QByteArray("DATA \"../outside/points.geojson\"")
                                 << QByteArray("CONFIG \"MAPTUNE_ALLOWED_ROOTS\" \"/nonexistent;../outside\"") << "" << "";
    QTest::newRow("environment root") << QByteArray("DATA \"../outside/points.geojson\"") << none << QString::fromUtf8(outside) << "";
    QTest::newRow("vsicurl prefix allowed") << QByteArray("TYPE RASTER DATA \"/vsicurl/http://127.0.0.1:9/tiles/a.tif\"")
                                            << QByteArray("CONFIG \"MAPTUNE_ALLOWED_ROOTS\" \"/vsicurl/http://127.0.0.1:9/tiles/\"") << "" << "";
    QTest::newRow("dot dot") << QByteArray("DATA \"../outside/points.geojson\"") << none << "" << "resolves to";
    QTest::newRow("absolute outside") << "DATA \"" + outside + "/points.geojson\"" << none << "" << "outside the directories";
    QTest::newRow("etc passwd") << QByteArray("DATA \"/etc/passwd\"") << none << "" << "'/etc/passwd'";
    QTest::newRow("escaping SHAPEPATH") << QByteArray("DATA \"../../outside/points.geojson\"") << QByteArray("SHAPEPATH \"data\"") << "" << "resolves to";
    QTest::newRow("symlinked file") << QByteArray("DATA \"data/link.geojson\"") << none << "" << "outside";
    QTest::newRow("symlinked dir") << QByteArray("DATA \"data/linkdir/points.geojson\"") << none << "" << "outside";
    QTest::newRow("vsicurl") << QByteArray("TYPE RASTER DATA \"/vsicurl/http://127.0.0.1:9/a.tif\"") << none << "" << "virtual file";
    QTest::newRow("vsizip") << "DATA \"/vsizip/" + outside + "/a.zip/points.geojson\"" << none << "" << "virtual file";
    QTest::newRow("url") << QByteArray("TYPE RASTER DATA \"http://127.0.0.1:9/a.tif\"") << none << "" << "URL";
    QTest::newRow("driver prefix") << "TYPE RASTER DATA 'NETCDF:\"" + outside + "/x.nc\":v'" << none << "" << "driver-prefixed";
    QTest::newRow("inline GDAL XML") << QByteArray("TYPE RASTER DATA \"<GDAL_WMS><Service name='WMS'/></GDAL_WMS>\"") << none << "" << "virtual file";
    QTest::newRow("prefix does not widen") << QByteArray("TYPE RASTER DATA \"/vsicurl/http://127.0.0.1:9/other/a.tif\"")
                                           << QByteArray("CONFIG \"MAPTUNE_ALLOWED_ROOTS\" \"/vsicurl/http://127.0.0.1:9/tiles/\"") << "" << "virtual file";
    QTest::newRow("OGR connection") << "CONNECTIONTYPE OGR CONNECTION \"" + outside + "/points.geojson\"" << none << "" << "OGR data source";
    QTest::newRow("TILEINDEX") << QByteArray("TYPE RASTER TILEINDEX \"../outside/index.shp\"") << none << "" << "TILEINDEX";
    QTest::newRow("FLATGEOBUF outside") << "CONNECTIONTYPE FLATGEOBUF DATA \"" + outside + "/x.fgb\"" << none << "" << "outside the directories";
    const QByteArray vrt = "CONNECTIONTYPE OGR DATA \"p\" CONNECTION '<OGRVRTDataSource><OGRVRTLayer name=\"p\"><SrcDataSource>%1"
                           "</SrcDataSource></OGRVRTLayer></OGRVRTDataSource>'";
    QTest::newRow("inline VRT inside") << QByteArray(vrt).replace("%1", "data/points.geojson") << none << "" << "";
    QTest::newRow("inline VRT outside") << QByteArray(vrt).replace("%1", outside + "/points.geojson") << none << "" << "SrcDataSource of the inline VRT";
    QTest::newRow("inline VRT dot dot") << QByteArray(vrt).replace("%1", "../outside/points.geojson") << none << "" << "resolves to";
    QTest::newRow("inline VRT virtual") << QByteArray(vrt).replace("%1", "/vsicurl/http://127.0.0.1:9/p.geojson") << none << "" << "virtual file";
    QTest::newRow("UVRASTER outside") << "CONNECTIONTYPE UVRASTER DATA \"" + outside + "/wind.tif\"" << none << "" << "outside the directories";
    QTest::newRow("CONTOUR dot dot") << QByteArray("CONNECTIONTYPE CONTOUR DATA \"../outside/dem.tif\"") << none << "" << "resolves to";
    QTest::newRow("SCALETOKEN value") << QByteArray("DATA \"%src%\" SCALETOKEN NAME \"%src%\" VALUES \"0\" \"data/points.geojson\" "
                                                   "\"100000\" \"../outside/points.geojson\" END END")
                                      << none << "" << "SCALETOKEN";
    QTest::newRow("PROCESSING LUT") << QByteArray("PROCESSING \"LUT=../outside/curve.crv\"") << none << "" << "LUT";
    QTest::newRow("KEYIMAGE") << QByteArray("CLASS KEYIMAGE \"/etc/passwd\" END") << none << "" << "KEYIMAGE";
    QTest::newRow("symbol IMAGE") << QByteArray("") << QByteArray("SYMBOL NAME \"pix\" TYPE PIXMAP IMAGE \"../outside/p.png\" END") << "" << "SYMBOL 'pix'";
    QTest::newRow("FONTSET") << QByteArray("") << QByteArray("FONTSET \"../outside/fonts.txt\"") << "" << "FONTSET";
}

// A served map that reads outside its roots is refused at load, naming
// file:line:col and the layer; maps are not opened on behalf of a request.
void TestHostileRequests::dataRootsAtLoad()
{
    QFETCH(QByteArray, layer);
    QFETCH(QByteArray, map);
    QFETCH(QString, env);
    QFETCH(QString, refusal);
    QTemporaryDir dir;
    const QString outside = dir.filePath(QStringLiteral("outside"));
    QVERIFY(writeFile(outside + QStringLiteral("/points.geojson"), geoJsonPoints()));
    QVERIFY(writeFile(outside + QStringLiteral("/fonts.txt"), "sans /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\n"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("maps/data/points.geojson")), geoJsonPoints()));
    QVERIFY(QFile::link(outside + QStringLiteral("/points.geojson"), dir.filePath(QStringLiteral("maps/data/link.geojson"))));
    QVERIFY(QFile::link(outside, dir.filePath(QStringLiteral("maps/data/linkdir"))));
    QByteArray text = mapText({}, map);
    text.replace("DATA \"data/points.geojson\"", layer);
    text.replace(m_dir.filePath(QStringLiteral("outside")).toUtf8(), outside.toUtf8());
    text.replace(m_dir.filePath(QStringLiteral("maps")).toUtf8(), dir.filePath(QStringLiteral("maps")).toUtf8());
    const QString path = dir.filePath(QStringLiteral("maps/roots.map"));
    QVERIFY(writeFile(path, text));

    if (env.isEmpty()) qunsetenv("MAPTUNE_ALLOWED_ROOTS");
    else qputenv("MAPTUNE_ALLOWED_ROOTS", env.replace(m_dir.filePath(QStringLiteral("outside")), outside).toUtf8());
    MapRegistry registry;
    const Status added = registry.addMapFile(path);
    const std::optional<QString> error = added ? std::nullopt : std::optional<QString>(added.message());
    qunsetenv("MAPTUNE_ALLOWED_ROOTS");

    // The map itself is fine for the one-shot tools: only serving confines it.
    const LoadResult loaded = loadMapFile(path);
    QVERIFY2(loaded.ok(), loaded.diagnostics.isEmpty() ? "" : qPrintable(loaded.diagnostics.first().toString()));
    if (refusal.isEmpty()) {
        QVERIFY2(!error, qPrintable(error.value_or(QString())));
        QVERIFY(registry.find(QStringLiteral("roots")));
        return;
    }
    QVERIFY2(error, "the map was served");
    QVERIFY(!registry.find(QStringLiteral("roots")));
    QVERIFY2(error->contains(refusal), qPrintable(*error));
    QVERIFY2(QRegularExpression(QStringLiteral("roots\\.map:\\d+:\\d+: error: ")).match(*error).hasMatch(), qPrintable(*error));
    if (!map.startsWith("SYMBOL") && !map.startsWith("FONTSET")) QVERIFY2(error->contains(QStringLiteral("LAYER 'points'")), qPrintable(*error));
    QVERIFY2(error->contains(QStringLiteral("MAPTUNE_ALLOWED_ROOTS")), qPrintable(*error));  // says how to allow it
}

// An edit that points a served map outside its roots is not swapped in.
void TestHostileRequests::reloadOutsideRootsKeepsServing()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("maps/reload.map"));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("maps/data/points.geojson")), geoJsonPoints()));
    QVERIFY(writeFile(path, mapText()));
    Server server({path});
    QVERIFY(server.errors.isEmpty());
    QByteArray edited = mapText();
    edited.replace("data/points.geojson", "/etc/passwd");
    edited.append("\n# grown so the size differs\n");
    QVERIFY(writeFile(path, edited));
    server.registry.checkForChanges();
    const MapStatus status = server.registry.status().value(0);
    QCOMPARE(status.reloadFailures, 1);
    QCOMPARE(status.generation, 1);
    QVERIFY2(status.lastError.contains(QStringLiteral("/etc/passwd")), qPrintable(status.lastError));
    const HttpReply r = rawGet(server.http->port(), "/reload?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=points"
                                                    "&QUERY_LAYERS=points&STYLES=&SRS=EPSG:4326&BBOX=0,0,20,10&WIDTH=200"
                                                    "&HEIGHT=100&X=50&Y=50&INFO_FORMAT=application/json");
    QCOMPARE(r.status, 200);
    QVERIFY(r.body.contains("alert"));
    QVERIFY(!r.body.contains("root:"));
}

void TestHostileRequests::maxSizeHolds_data()
{
    QTest::addColumn<QByteArray>("size");
    QTest::addColumn<bool>("image");
    QTest::newRow("at MAXSIZE") << QByteArray("WIDTH=1024&HEIGHT=1024") << true;
    QTest::newRow("width over") << QByteArray("WIDTH=1025&HEIGHT=10") << false;
    QTest::newRow("height over") << QByteArray("WIDTH=10&HEIGHT=1025") << false;
    QTest::newRow("huge") << QByteArray("WIDTH=2000000000&HEIGHT=2000000000") << false;
    QTest::newRow("int overflow") << QByteArray("WIDTH=4294967297&HEIGHT=1") << false;
    QTest::newRow("negative") << QByteArray("WIDTH=-5&HEIGHT=10") << false;
    QTest::newRow("exponent") << QByteArray("WIDTH=1e9&HEIGHT=10") << false;
    QTest::newRow("zero") << QByteArray("WIDTH=0&HEIGHT=0") << false;
}

// The map's MAXSIZE (1024 here) bounds every GetMap and GetLegendGraphic size over HTTP.
void TestHostileRequests::maxSizeHolds()
{
    QFETCH(QByteArray, size);
    QFETCH(bool, image);
    const HttpReply r = get("/hostile?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=points&STYLES=&SRS=EPSG:4326"
                            "&BBOX=0,0,20,10&FORMAT=image/png&" + size);
    QCOMPARE(r.status, 200);
    if (image) {
        QCOMPARE(QImage::fromData(r.body).size(), QSize(1024, 1024));
    } else {
        QVERIFY2(r.body.contains("ServiceException"), r.body.left(200).constData());
        QVERIFY(r.body.size() < 4096);
    }
    const HttpReply info = get("/hostile?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=points&QUERY_LAYERS=points"
                               "&STYLES=&SRS=EPSG:4326&BBOX=0,0,20,10&X=1&Y=1&INFO_FORMAT=text/plain&" + size);
    QCOMPARE(info.status, 200);
    if (!image) QVERIFY2(info.body.contains("ServiceException"), info.body.left(200).constData());
    const HttpReply legend = get("/hostile?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetLegendGraphic&LAYER=points&FORMAT=image/png&" + size);
    QCOMPARE(legend.status, 200);
    const QImage icon = QImage::fromData(legend.body);
    if (!icon.isNull()) QVERIFY2(icon.width() <= 1024 && icon.height() <= 1024, qPrintable(QString::number(icon.width())));
    QCOMPARE(get("/health").status, 200);
}

// A request admitted to the queue but not given a worker before its time
// limit is answered 503 with Retry-After, and the worker is not lost.
void TestHostileRequests::queueWaitPastDeadlineIs503()
{
    ServerOptions options;
    options.workers = 1;
    options.queueFactor = 4;
    options.timeLimitMs = 300;
    Server server({m_mapPath}, options);
    auto held = server.router->gate().tryAdmit();  // a render holding the only worker
    QVERIFY(held);
    QVERIFY(held->waitForWorker(std::chrono::steady_clock::now() + std::chrono::seconds(1)));
    const HttpReply r = rawGet(server.http->port(), "/hostile?SERVICE=WMS&REQUEST=GetCapabilities");
    QCOMPARE(r.status, 503);
    QCOMPARE(r.header("Retry-After"), QByteArray("1"));
    held.reset();
    QCOMPARE(rawGet(server.http->port(), "/hostile?SERVICE=WMS&REQUEST=GetCapabilities").status, 200);
}

void TestHostileRequests::featureInfoEscapes_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("html") << "text/html";
    QTest::newRow("gml") << "application/vnd.ogc.gml";
    QTest::newRow("json") << "application/json";
    QTest::newRow("geojson") << "application/geo+json";
}

// Attribute values with markup, quotes, "]]>" and control characters read back
// from a parsed document (XML drops what it cannot carry; JSON keeps all).
void TestHostileRequests::featureInfoEscapes()
{
    QFETCH(QString, format);
    const HttpReply r = get("/hostile?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=points&QUERY_LAYERS=points"
                            "&STYLES=&SRS=EPSG:4326&BBOX=0,0,20,10&WIDTH=200&HEIGHT=100&X=50&Y=50&RADIUS=200"
                            "&FEATURE_COUNT=10&INFO_FORMAT=" + QUrl::toPercentEncoding(format));
    QCOMPARE(r.status, 200);
    // JSON strings may hold markup; served as JSON they are data, not a page.
    if (format.contains(QLatin1String("json"))) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(r.body, &error);
        if (doc.isNull()) QSKIP("this INFO_FORMAT is not offered as JSON");
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QStringList values;
        for (const QJsonValue& f : doc[QLatin1String("features")].toArray())
            for (const QJsonValue& v : f[QLatin1String("properties")].toObject()) values << v.toString();
        for (const QString& expected : {kScript, kQuotes, kCdata, kControl}) QVERIFY2(values.contains(expected), qPrintable(expected));
        return;
    }
    if (r.body.contains("ServiceException") || r.header("Content-Type").startsWith("text/plain"))
        QSKIP("this INFO_FORMAT is not offered (answered as an exception or as text/plain)");
    QVERIFY2(!r.body.contains("<script>") && !r.body.contains("<b>"), r.body.constData());
    if (format == QLatin1String("text/html")) {
        // Text content only: no control characters but tab and newlines, and entities for markup.
        for (char c = 1; c < 0x20; ++c)
            if (c != '\t' && c != '\n' && c != '\r') QVERIFY2(!r.body.contains(c), qPrintable(QString::number(c)));
        QVERIFY(r.body.contains("&lt;script&gt;"));
        QVERIFY(r.body.contains("&quot;dq&quot;") || r.body.contains("&#34;dq&#34;"));
        QVERIFY(!r.body.contains("]]>"));
        return;
    }
    QVERIFY2(xmlProblem(r.body).isEmpty(), qPrintable(xmlProblem(r.body)));
    QStringList values = xmlTexts(r.body, QStringLiteral("name")) + xmlTexts(r.body, QStringLiteral("note"));
    for (const QString& expected : {kScript, kQuotes, kCdata, kControl})
        QVERIFY2(values.contains(xmlSafe(expected)), qPrintable(values.join(QLatin1String(" | "))));
}

void TestHostileRequests::exceptionsEscape_data()
{
    QTest::addColumn<QByteArray>("query");  // @ is replaced by the hostile value
    const QByteArray map = "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:4326&BBOX=0,0,20,10&WIDTH=20&HEIGHT=10&STYLES=&FORMAT=image/png";
    const QByteArray info = "SERVICE=WMS&VERSION=1.3.0&REQUEST=GetFeatureInfo&CRS=EPSG:4326&BBOX=0,0,10,20&WIDTH=20&HEIGHT=10"
                            "&STYLES=&LAYERS=points&I=1&J=1&INFO_FORMAT=text/plain";
    QTest::newRow("LAYERS") << map + "&LAYERS=@";
    QTest::newRow("STYLES") << QByteArray(map).replace("STYLES=", "STYLES=@") + "&LAYERS=points";
    QTest::newRow("SRS") << QByteArray(map).replace("EPSG:4326", "EPSG:@") + "&LAYERS=points";
    QTest::newRow("FORMAT") << QByteArray(map).replace("image/png", "@") + "&LAYERS=points";
    QTest::newRow("BBOX") << QByteArray(map).replace("0,0,20,10", "0,0,@,1") + "&LAYERS=points";
    QTest::newRow("REQUEST") << QByteArray("SERVICE=WMS&VERSION=1.1.1&REQUEST=@");
    QTest::newRow("VERSION") << QByteArray("SERVICE=WMS&VERSION=@&REQUEST=GetMap");
    QTest::newRow("SERVICE") << QByteArray("SERVICE=@&REQUEST=GetCapabilities");
    QTest::newRow("QUERY_LAYERS") << info + "&QUERY_LAYERS=@";
    QTest::newRow("INFO_FORMAT") << QByteArray(info).replace("text/plain", "@") + "&QUERY_LAYERS=points";
    QTest::newRow("I") << QByteArray(info).replace("I=1", "I=@") + "&QUERY_LAYERS=points";
    QTest::newRow("EXCEPTIONS 1.3.0") << QByteArray("SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&CRS=EPSG:4326&BBOX=0,0,10,20"
                                                    "&WIDTH=20&HEIGHT=10&STYLES=&FORMAT=image/png&LAYERS=points&EXCEPTIONS=@");
    QTest::newRow("legend LAYER") << QByteArray("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetLegendGraphic&FORMAT=image/png&LAYER=@");
    QTest::newRow("legend FORMAT") << QByteArray("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetLegendGraphic&LAYER=points&FORMAT=@");
    QTest::newRow("legend RULE") << QByteArray("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetLegendGraphic&LAYER=points&FORMAT=image/png&RULE=@");
}

// Every exception report is well-formed XML whatever it echoes.
void TestHostileRequests::exceptionsEscape()
{
    QFETCH(QByteArray, query);
    const QByteArray hostile = QUrl::toPercentEncoding(QStringLiteral("<x a=\"1\">&amp;'") + kControl + QStringLiteral("]]><![CDATA[</ServiceException>\x01\x0b"));
    const HttpReply r = get("/hostile?" + QByteArray(query).replace("@", hostile));
    QCOMPARE(r.status, 200);
    if (r.header("Content-Type").startsWith("image/")) return;  // e.g. a legend that ignores RULE
    if (r.header("Content-Type").startsWith("text/plain")) {
        // Feature info that took the value for no point or format: nothing of it is echoed.
        QVERIFY2(!r.body.contains("<x a") && !r.body.contains("]]>"), r.body.constData());
        return;
    }
    QVERIFY2(r.body.contains("ServiceException"), r.body.left(300).constData());
    QVERIFY2(xmlProblem(r.body).isEmpty(), qPrintable(xmlProblem(r.body) + QLatin1Char('\n') + QString::fromUtf8(r.body)));
    QVERIFY(!r.body.contains("<x a"));
    QVERIFY(!r.body.contains("]]>"));
    QCOMPARE(xmlTexts(r.body, QStringLiteral("ServiceException")).size(), 1);  // no injected element
}

void TestHostileRequests::capabilitiesEscape_data()
{
    QTest::addColumn<QByteArray>("version");
    QTest::addColumn<QByteArray>("host");
    QTest::newRow("1.1.1") << QByteArray("1.1.1") << QByteArray("127.0.0.1");
    QTest::newRow("1.3.0") << QByteArray("1.3.0") << QByteArray("127.0.0.1");
    QTest::newRow("1.3.0 hostile Host") << QByteArray("1.3.0") << QByteArray("x\"><script>alert(1)</script>");
    QTest::newRow("1.1.1 hostile Host") << QByteArray("1.1.1") << QByteArray("a.org/?<x>&y='1'");
    QTest::newRow("hostile UPDATESEQUENCE") << QByteArray("1.3.0&UPDATESEQUENCE=%3Cx%3E%01") << QByteArray("127.0.0.1");
}

// Capabilities carry the map's hostile metadata (control characters included)
// and the client's Host header only as well-formed, escaped XML.
void TestHostileRequests::capabilitiesEscape()
{
    QFETCH(QByteArray, version);
    QFETCH(QByteArray, host);
    const HttpReply r = rawGet(m_server->http->port(), "/hostile?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=" + version, {}, host);
    QCOMPARE(r.status, 200);
    QVERIFY2(xmlProblem(r.body).isEmpty(), qPrintable(xmlProblem(r.body)));
    QVERIFY(!r.body.contains("<script>"));
    QVERIFY(!r.body.contains("<Injected/>"));
    const QStringList titles = xmlTexts(r.body, QStringLiteral("Title"));
    QVERIFY2(titles.contains(QStringLiteral("Title <script>x</script> ]]> & \"c\" ctl")), qPrintable(titles.join(QLatin1String(" | "))));
    QVERIFY(titles.contains(QStringLiteral("Points <i>&</i>")));
    QVERIFY(xmlTexts(r.body, QStringLiteral("Abstract")).contains(QStringLiteral("<![CDATA[ ]]> </Abstract><Injected/>")));
}

QTEST_MAIN(TestHostileRequests)
#include "test_hostile_requests.moc"
