// The prepared map: built once per MapDef, shared by every request. These
// tests pin what preparing promises -- expressions compiled once, SCALETOKENs
// substituted for every layer kind (raster DATA and TILEINDEX too), one rule
// for PROJECTION files relative to the mapfile whatever the working
// directory, one point query for GetFeatureInfo and Identify -- and that
// requests never change the map they share.

#include "expr/expression.h"
#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/identify_query.h"
#include "render/map_renderer.h"
#include "render/prepared_map.h"
#include "wms/wms_service.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <gdal.h>
#include <ogr_api.h>

#include <atomic>

using namespace maptune;

namespace {

// A one-colour 10x10 GeoTIFF covering 0..10 x 0..10 (no CRS).
bool writeSolidTiff(const QString& path, int r, int g, int b)
{
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), path.toUtf8().constData(), 10, 10, 3, GDT_Byte, nullptr);
    if (!ds) return false;
    double gt[6] = {0, 1, 0, 10, 0, -1};
    GDALSetGeoTransform(ds, gt);
    const int values[3] = {r, g, b};
    bool ok = true;
    for (int band = 0; band < 3; ++band)
        ok = ok && GDALFillRaster(GDALGetRasterBand(ds, band + 1), values[band], 0) == CE_None;
    GDALClose(ds);
    return ok;
}

bool writeText(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

QRgb centre(const RenderResult& r)
{
    return r.image.pixel(r.image.width() / 2, r.image.height() / 2);
}

// A map scale for a 100-pixel view of `width` map units (metres).
RenderRequest atWidth(double width)
{
    RenderRequest req;
    req.bbox = Rect{5 - width / 2, 5 - width / 2, 5 + width / 2, 5 + width / 2};
    req.width = req.height = 100;
    req.encode = false;
    return req;
}

// The map's one raster layer shows `fine` at about 1:357 (10 m over 100 px
// at 0.28 mm a pixel) and `coarse` at about 1:35,700 (1000 m).
void checkScaleSwitch(const QString& mapfile, const QColor& fine, const QColor& coarse)
{
    const LoadResult loaded = loadMapFile(mapfile);
    QVERIFY(loaded.ok());
    const MapRenderer renderer(PreparedMap::prepare(loaded.map));
    for (const auto& [width, colour] : {std::pair{10.0, fine}, std::pair{1000.0, coarse}}) {
        const RenderResult r = renderer.render(atWidth(width));
        QVERIFY2(r.trace.layers.value(0).error.isEmpty(), qPrintable(r.trace.layers.value(0).error));
        QCOMPARE(QColor(centre(r)), colour);
    }
}

const QByteArray kClassified = "MAP SIZE 40 40 EXTENT 0 0 10 10\n"
                               "LAYER NAME 'pts' TYPE POINT STATUS ON FILTER ([v] > 0)\n"
                               " FEATURE POINTS 5 5 END ITEMS '3' END\n"
                               " CLASS EXPRESSION ([v] < 2) STYLE COLOR 255 0 0 SIZE 8 END END\n"
                               " CLASS EXPRESSION ([v] >= 2) TEXT ('v=' + tostring([v], '%g')) STYLE COLOR 0 0 255 SIZE 8 END END\n"
                               " PROCESSING 'ITEMS=v'\n"
                               "END END\n";

}  // namespace

class TestPreparedMap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { initEngine(); }
    void expressionsCompiledOncePerLoad();
    void rasterDataScaleTokens();
    void rasterTileIndexScaleTokens();
    void projectionFileRelativeToMapfile();
    void identifyAndFeatureInfoAgree();
    void requestsShareOneMapUntouched();
};

void TestPreparedMap::expressionsCompiledOncePerLoad()
{
    LoadResult loaded = parseMapText(kClassified, QString());
    QVERIFY(loaded.ok());
    const qint64 before = Expression::compileCount();
    const PreparedMapPtr prepared = PreparedMap::prepare(loaded.map);
    const qint64 compiled = Expression::compileCount() - before;
    QVERIFY(compiled >= 4);  // FILTER, two EXPRESSIONs, one TEXT
    const MapRenderer renderer(prepared);
    for (int i = 0; i < 5; ++i) {
        const RenderResult r = renderer.render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.trace.layers.value(0).features, qint64(1));
        QCOMPARE(QColor(centre(r)), QColor(0, 0, 255));  // the second class: v = 3
    }
    QCOMPARE(Expression::compileCount() - before, compiled);  // nothing compiled per render
}

// SCALETOKEN in a raster layer's DATA: the file switches at 1:5000.
void TestPreparedMap::rasterDataScaleTokens()
{
    QTemporaryDir dir;
    QVERIFY(writeSolidTiff(dir.filePath("fine.tif"), 255, 0, 0));
    QVERIFY(writeSolidTiff(dir.filePath("coarse.tif"), 0, 0, 255));
    QVERIFY(writeText(dir.filePath("m.map"), "MAP SIZE 100 100 EXTENT 0 0 10 10 UNITS METERS\n"
                                             "LAYER NAME 'r' TYPE RASTER STATUS ON DATA '%res%.tif'\n"
                                             " SCALETOKEN NAME '%res%' VALUES '0' 'fine' '5000' 'coarse' END END\n"
                                             "END END\n"));
    checkScaleSwitch(dir.filePath("m.map"), QColor(255, 0, 0), QColor(0, 0, 255));
}

// SCALETOKEN in TILEINDEX: each index names its own tile.
void TestPreparedMap::rasterTileIndexScaleTokens()
{
    QTemporaryDir dir;
    QVERIFY(writeSolidTiff(dir.filePath("red.tif"), 255, 0, 0));
    QVERIFY(writeSolidTiff(dir.filePath("green.tif"), 0, 255, 0));
    for (const auto& [index, tile] : {std::pair{"fine", "red.tif"}, std::pair{"coarse", "green.tif"}}) {
        const QString shp = dir.filePath(QString::fromLatin1(index) + ".shp");
        GDALDatasetH ds = GDALCreate(GDALGetDriverByName("ESRI Shapefile"), shp.toUtf8().constData(), 0, 0, 0,
                                     GDT_Unknown, nullptr);
        QVERIFY(ds);
        OGRLayerH layer = GDALDatasetCreateLayer(ds, "tiles", nullptr, wkbPolygon, nullptr);
        OGRFieldDefnH field = OGR_Fld_Create("location", OFTString);
        OGR_L_CreateField(layer, field, TRUE);
        OGR_Fld_Destroy(field);
        OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(layer));
        OGR_F_SetFieldString(f, 0, tile);
        OGRGeometryH g = nullptr;
        char wkt[] = "POLYGON((0 0,10 0,10 10,0 10,0 0))";
        char* p = wkt;
        OGR_G_CreateFromWkt(&p, nullptr, &g);
        OGR_F_SetGeometryDirectly(f, g);
        QCOMPARE(OGR_L_CreateFeature(layer, f), OGRERR_NONE);
        OGR_F_Destroy(f);
        GDALClose(ds);
    }
    QVERIFY(writeText(dir.filePath("m.map"), "MAP SIZE 100 100 EXTENT 0 0 10 10 UNITS METERS\n"
                                             "LAYER NAME 'r' TYPE RASTER STATUS ON TILEINDEX '%idx%.shp' TILEITEM 'location'\n"
                                             " SCALETOKEN NAME '%idx%' VALUES '0' 'fine' '5000' 'coarse' END END\n"
                                             "END END\n"));
    checkScaleSwitch(dir.filePath("m.map"), QColor(255, 0, 0), QColor(0, 255, 0));
}

// PROJECTION "init=file:code" reads the file next to the mapfile, for
// drawing and for queries alike, whatever the working directory.
void TestPreparedMap::projectionFileRelativeToMapfile()
{
    QTemporaryDir dir;
    // Code 1: metres shifted 1000 east of the map's own plane (a false easting).
    QVERIFY(writeText(dir.filePath("proj/shifted"), "<1> +proj=tmerc +lat_0=0 +lon_0=0 +k=1 +x_0=1000 +y_0=0 +ellps=WGS84 +units=m <>\n"));
    QVERIFY(writeText(dir.filePath("m.map"),
                      "MAP SIZE 100 100 EXTENT -10 -10 10 10 UNITS METERS\n"
                      " PROJECTION '+proj=tmerc +lat_0=0 +lon_0=0 +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m' END\n"
                      "LAYER NAME 'pt' TYPE POINT STATUS ON TEMPLATE 'x'\n"
                      " PROJECTION 'init=proj/shifted:1' END\n"
                      " FEATURE POINTS 1000 0 END ITEMS 'here' END\n"
                      " CLASS STYLE COLOR 255 0 0 SIZE 10 END END\n"
                      " PROCESSING 'ITEMS=name'\n"
                      "END END\n"));
    const QString cwd = QDir::currentPath();
    QVERIFY(QDir::setCurrent(QDir::tempPath()));  // anywhere but the mapfile's folder
    const LoadResult loaded = loadMapFile(dir.filePath("m.map"));
    QVERIFY(loaded.ok());
    const PreparedMapPtr prepared = PreparedMap::prepare(loaded.map);
    const RenderResult r = MapRenderer(prepared).render({});
    QDir::setCurrent(cwd);
    QVERIFY2(r.ok() && r.trace.layers.value(0).error.isEmpty(), qPrintable(r.error + r.trace.layers.value(0).error));
    // x = 1000 in the shifted plane is the map's origin: the image centre.
    QCOMPARE(QColor(centre(r)), QColor(255, 0, 0));

    // The point query GetFeatureInfo and Identify make, at the map's origin.
    PointQuery q;
    q.cellSize = 0.2;
    q.maxFeatures = 10;
    const PointQueryResult hit = prepared->layer(0).queryPoint(q);
    QVERIFY2(hit.error.isEmpty(), qPrintable(hit.error));
    QCOMPARE(hit.features.size(), 1);
    QCOMPARE(hit.features[0].values.value(0), QStringLiteral("here"));

}

// Identify (the workbench) and GetFeatureInfo ask the same prepared query.
void TestPreparedMap::identifyAndFeatureInfoAgree()
{
    const QByteArray text = "MAP NAME 'm' SIZE 100 100 EXTENT 0 0 100 100\n"
                            " WEB METADATA 'wms_enable_request' '*' 'wms_srs' 'EPSG:3857' END END\n"
                            " PROJECTION 'init=epsg:3857' END\n"
                            "LAYER NAME 'road' TYPE LINE STATUS ON TEMPLATE 'x' TOLERANCE 6 TOLERANCEUNITS PIXELS\n"
                            " FEATURE POINTS 0 50 100 50 END ITEMS 'main' END\n"
                            " FEATURE POINTS 50 0 50 100 END ITEMS 'cross' END\n"
                            " PROCESSING 'ITEMS=name' CLASS STYLE COLOR 0 0 0 END END\n"
                            " METADATA 'wms_include_items' 'all' END\n"
                            "END END\n";
    const LoadResult loaded = parseMapText(text, QString());
    QVERIFY(loaded.ok());
    const PreparedMapPtr prepared = PreparedMap::prepare(loaded.map);
    // 5 px from the first road, 15 from the second: TOLERANCE 6 px finds one.
    const QList<IdentifyLayerResult> identified = IdentifyQuery(prepared, {"road"}, QPointF(35, 55), 1.0).run();
    QCOMPARE(identified.size(), 1);
    QCOMPARE(identified[0].features.size(), 1);
    QCOMPARE(identified[0].features[0].values.value(0), QStringLiteral("main"));

    const WmsService service(prepared);
    const Response r = service.handle(WmsRequest::fromQueryString(
        "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetFeatureInfo&LAYERS=road&QUERY_LAYERS=road&STYLES=&SRS=EPSG:3857"
        "&BBOX=0,0,100,100&WIDTH=100&HEIGHT=100&X=35&Y=44&INFO_FORMAT=text/plain&FEATURE_COUNT=10"));
    const QString body = QString::fromUtf8(r.body);
    QVERIFY2(body.contains("main") && !body.contains("cross"), qPrintable(body));
}

// Many threads render one prepared map at once, each with its own layer
// order: every image matches a lone render, and the shared map is unchanged.
void TestPreparedMap::requestsShareOneMapUntouched()
{
    const QByteArray text = "MAP SIZE 20 20 EXTENT 0 0 10 10\n"
                            "LAYER NAME 'a' TYPE POLYGON STATUS OFF FEATURE POINTS 0 0 10 0 10 10 0 10 0 0 END END\n"
                            " CLASS STYLE COLOR 255 0 0 END END END\n"
                            "LAYER NAME 'b' TYPE POLYGON STATUS OFF FEATURE POINTS 0 0 10 0 10 10 0 10 0 0 END END\n"
                            " CLASS STYLE COLOR 0 0 255 END END END\n"
                            "END\n";
    const LoadResult loaded = parseMapText(text, QString());
    QVERIFY(loaded.ok());
    const MapDef copy = *loaded.map;
    const MapRenderer renderer(PreparedMap::prepare(loaded.map));
    std::atomic<int> wrong{0};
    QList<QThread*> threads;
    for (int t = 0; t < 4; ++t) {
        threads << QThread::create([&, t] {
            for (int i = 0; i < 50; ++i) {
                RenderRequest req;
                req.encode = false;
                req.layerOrder = (t + i) % 2 ? QList<int>{0, 1} : QList<int>{1, 0};
                const QColor want = (t + i) % 2 ? QColor(0, 0, 255) : QColor(255, 0, 0);  // the last drawn wins
                if (QColor(centre(renderer.render(req))) != want) ++wrong;
            }
        });
        threads.last()->start();
    }
    for (QThread* t : threads) {
        t->wait();
        delete t;
    }
    QCOMPARE(wrong.load(), 0);
    QVERIFY(*loaded.map == copy);  // no request switched a layer on in the shared map
}

QTEST_MAIN(TestPreparedMap)
#include "test_prepared_map.moc"
