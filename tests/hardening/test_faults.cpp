// Faults while serving: a corrupt or truncated raster, a shapefile with a
// broken .shx, data files that vanish or shrink after the map was loaded, and
// PostgreSQL stopping in the middle of a request. In every case the faulty
// layer reports an error naming it, the other layers render, the WMS answer is
// still an image, and the server stays healthy for the next request.

#include "hardening_support.h"

#include "render/engine.h"

#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <libpq-fe.h>

#include <QElapsedTimer>
#include <QImage>
#include <QTemporaryDir>
#include <QThread>

#include <thread>

using namespace maptune;
using namespace maptune::hardening;

namespace {

constexpr int kPgPort = MAPTUNE_PG_FAULTS_PORT;

// A 3-band GeoTIFF over EXTENT 0 0 20 10 with its IFD first (so that cutting
// the file loses pixel data, not the header): COPY_SRC_OVERVIEWS puts it there.
bool writeGeoTiff(const QString& path)
{
    GDALDatasetH mem = GDALCreate(GDALGetDriverByName("MEM"), "", 400, 200, 3, GDT_Byte, nullptr);
    if (!mem) return false;
    double gt[6] = {0, 0.05, 0, 10, 0, -0.05};
    GDALSetGeoTransform(mem, gt);
    GDALSetProjection(mem, "EPSG:4326");
    std::vector<unsigned char> row(400);
    for (int b = 1; b <= 3; ++b)
        for (int y = 0; y < 200; ++y) {
            for (int x = 0; x < 400; ++x) row[size_t(x)] = static_cast<unsigned char>((x * b + y) & 0xff);
            if (GDALRasterIO(GDALGetRasterBand(mem, b), GF_Write, 0, y, 400, 1, row.data(), 400, 1, GDT_Byte, 0, 0) != CE_None)
                return false;
        }
    const char* options[] = {"COPY_SRC_OVERVIEWS=YES", "TILED=YES", "BLOCKXSIZE=64", "BLOCKYSIZE=64", nullptr};
    GDALDatasetH tif = GDALCreateCopy(GDALGetDriverByName("GTiff"), path.toUtf8().constData(), mem, FALSE,
                                      const_cast<char**>(options), nullptr, nullptr);
    GDALClose(mem);
    if (!tif) return false;
    GDALClose(tif);
    return true;
}

// Twenty points along the map's diagonal, as a shapefile (shp, shx, dbf).
bool writeShapefile(const QString& path)
{
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("ESRI Shapefile"), path.toUtf8().constData(), 0, 0, 0, GDT_Unknown, nullptr);
    if (!ds) return false;
    OGRLayerH layer = GDALDatasetCreateLayer(ds, "points", nullptr, wkbPoint, nullptr);
    OGRFieldDefnH field = OGR_Fld_Create("name", OFTString);
    OGR_L_CreateField(layer, field, TRUE);
    OGR_Fld_Destroy(field);
    bool ok = true;
    for (int i = 0; i < 20 && ok; ++i) {
        OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(layer));
        OGR_F_SetFieldString(f, 0, QByteArray::number(i).constData());
        OGRGeometryH g = OGR_G_CreateGeometry(wkbPoint);
        OGR_G_SetPoint_2D(g, 0, 0.5 + i, 0.25 + i / 2.0);
        OGR_F_SetGeometryDirectly(f, g);
        const OGRErr created = OGR_L_CreateFeature(layer, f);
        OGR_F_Destroy(f);
        ok = created == OGRERR_NONE;
    }
    GDALClose(ds);
    return ok && QFile::exists(path);
}

bool truncateTo(const QString& path, double fraction)
{
    QFile f(path);
    return f.resize(qint64(double(f.size()) * fraction));
}

// Overwrites the file's bytes from `from` on (a fraction of its size) with 0xff.
bool scribble(const QString& path, double from)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadWrite)) return false;
    const qint64 start = qint64(double(f.size()) * from);
    f.seek(start);
    return f.write(QByteArray(int(f.size() - start), '\xff')) > 0;
}

// The healthy layer: a red box over the left half, drawn last (on top).
const QByteArray kWitness = R"(
  LAYER
    NAME "witness"
    TYPE POLYGON
    STATUS ON
    FEATURE POINTS 1 1 9 1 9 9 1 9 1 1 END END
    CLASS STYLE COLOR 255 0 0 END END
  END
)";

QByteArray mapText(const QByteArray& victim)
{
    return R"(MAP
  NAME "faults"
  SIZE 200 100
  EXTENT 0 0 20 10
  UNITS DD
  IMAGECOLOR 255 255 255
  PROJECTION "init=epsg:4326" END
  WEB METADATA "wms_srs" "EPSG:4326" "wms_enable_request" "*" END END
  LAYER
    NAME "victim"
    STATUS ON
)" + victim + R"(
  END
)" + kWitness + "END\n";
}

const QByteArray kGetMap = "SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=victim,witness&STYLES=&SRS=EPSG:4326"
                           "&BBOX=0,0,20,10&WIDTH=200&HEIGHT=100&FORMAT=image/png";

// faults.map with the victim layer, over data/image.tif and data/points.shp.
bool writeFaultsMap(const QTemporaryDir& dir, const QByteArray& victim)
{
    return QDir().mkpath(dir.filePath(QStringLiteral("data"))) && writeGeoTiff(dir.filePath(QStringLiteral("data/image.tif"))) &&
           writeShapefile(dir.filePath(QStringLiteral("data/points.shp"))) &&
           writeFile(dir.filePath(QStringLiteral("faults.map")), mapText(victim));
}

const LayerTrace* layerTrace(const Response& r, const QString& name)
{
    if (!r.trace) return nullptr;
    for (const LayerTrace& l : r.trace->layers)
        if (l.layer == name) return &l;
    return nullptr;
}

// The answer is an image with the witness drawn and the victim's error in the trace.
void verifyDegraded(const Response& r, const QString& errorPart)
{
    QVERIFY2(r.contentType().startsWith("image/png"), r.body.left(400).constData());
    const QImage image = QImage::fromData(r.body);
    QVERIFY(!image.isNull());
    QCOMPARE(image.pixelColor(50, 50), QColor(255, 0, 0));  // the witness box
    const LayerTrace* victim = layerTrace(r, QStringLiteral("victim"));
    QVERIFY2(victim, "no trace of the victim layer");
    QVERIFY2(victim->error.contains(QLatin1String("layer 'victim'")), qPrintable(victim->error));
    if (!errorPart.isEmpty()) QVERIFY2(victim->error.contains(errorPart, Qt::CaseInsensitive), qPrintable(victim->error));
    const LayerTrace* witness = layerTrace(r, QStringLiteral("witness"));
    QVERIFY(witness && witness->error.isEmpty() && witness->features == 1);
}

}  // namespace

class TestFaults : public QObject {
    Q_OBJECT
    QTemporaryDir m_pgHome;
    bool m_pgStarted = false;

private Q_SLOTS:
    void initTestCase() { initEngine(); }
    void cleanupTestCase();
    void brokenFiles_data();
    void brokenFiles();
    void fileShrinksAfterFirstRead_data();
    void fileShrinksAfterFirstRead();
    void postgresStopsMidRequest();
};

void TestFaults::cleanupTestCase()
{
    if (m_pgStarted) clusterScript(QStringLiteral("stop"), QStringLiteral(MAPTUNE_PG_FAULTS_DIR), kPgPort);
}

void TestFaults::brokenFiles_data()
{
    QTest::addColumn<QByteArray>("layer");
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("errorPart");
    const QByteArray raster = "TYPE RASTER DATA \"data/image.tif\"";
    const QByteArray shape = "TYPE POINT DATA \"data/points.shp\" CLASS STYLE SYMBOL 0 SIZE 5 COLOR 0 0 255 END END";
    QTest::newRow("raster cut in half") << raster << "tif:truncate:0.5" << "";
    QTest::newRow("raster header only") << raster << "tif:truncate:0.02" << "";
    QTest::newRow("raster empty") << raster << "tif:truncate:0" << "";
    QTest::newRow("raster tile index scribbled") << raster << "tif:scribble:0.001" << "";
    QTest::newRow("raster vanished") << raster << "tif:delete" << "";
    QTest::newRow("shx scribbled") << shape << "shx:scribble:0.4" << "";
    QTest::newRow("shx header only") << shape << "shx:truncate:0.5" << "";
    QTest::newRow("shx missing") << shape << "shx:delete" << "";
    QTest::newRow("shp cut in half") << shape << "shp:truncate:0.5" << "";
    QTest::newRow("shapefile vanished") << shape << "shp:delete" << "";
}

// The map loads while the data is intact; the damage happens before the request.
void TestFaults::brokenFiles()
{
    QFETCH(QByteArray, layer);
    QFETCH(QString, damage);
    QFETCH(QString, errorPart);
    QTemporaryDir dir;
    QVERIFY(writeFaultsMap(dir, layer));
    Server server({dir.filePath(QStringLiteral("faults.map"))});
    QVERIFY2(server.errors.isEmpty(), qPrintable(server.errors.join('\n')));

    const QStringList d = damage.split(QLatin1Char(':'));
    const QString file = dir.filePath(QStringLiteral("data/") + (d[0] == QLatin1String("tif") ? QStringLiteral("image.tif")
                                                                                               : QStringLiteral("points.") + d[0]));
    if (d[1] == QLatin1String("truncate")) QVERIFY(truncateTo(file, d[2].toDouble()));
    else if (d[1] == QLatin1String("scribble")) QVERIFY(scribble(file, d[2].toDouble()));
    else QVERIFY(QFile::remove(file));

    const Response r = server.router->handle("GET", "/faults", kGetMap);
    verifyDegraded(r, errorPart);
    // Healthy afterwards, and a request without the victim is clean.
    QCOMPARE(rawGet(server.http->port(), "/health").status, 200);
    const Response clean = server.router->handle("GET", "/faults", QByteArray(kGetMap).replace("LAYERS=victim,witness", "LAYERS=witness"));
    QVERIFY(clean.contentType().startsWith("image/png"));
    QVERIFY(clean.trace && clean.trace->layers.size() == 1 && clean.trace->layers[0].error.isEmpty());
}

void TestFaults::fileShrinksAfterFirstRead_data()
{
    QTest::addColumn<QByteArray>("layer");
    QTest::addColumn<QString>("file");
    QTest::newRow("raster") << QByteArray("TYPE RASTER DATA \"data/image.tif\"") << "image.tif";
    QTest::newRow("shapefile") << QByteArray("TYPE POINT DATA \"data/points.shp\" CLASS STYLE SYMBOL 0 SIZE 5 COLOR 0 0 255 END END")
                               << "points.shp";
}

// A file truncated in place after the server read from it (cached handles now
// point at a shorter file): an error for that layer, never a crash.
void TestFaults::fileShrinksAfterFirstRead()
{
    QFETCH(QByteArray, layer);
    QFETCH(QString, file);
    QTemporaryDir dir;
    QVERIFY(writeFaultsMap(dir, layer));
    ServerOptions options;
    options.workers = 1;  // the same worker thread, so a per-thread cache is hit
    Server server({dir.filePath(QStringLiteral("faults.map"))}, options);
    QVERIFY(server.errors.isEmpty());
    // A corner only: the rest of the raster is not in GDAL's block cache yet.
    const Response first = server.router->handle("GET", "/faults", QByteArray(kGetMap).replace("BBOX=0,0,20,10", "BBOX=0,0,2,1"));
    QVERIFY(first.trace);
    for (const LayerTrace& l : first.trace->layers) QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
    QVERIFY(truncateTo(dir.filePath(QStringLiteral("data/") + file), 0.3));
    for (int i = 0; i < 3; ++i) {
        const Response r = server.router->handle("GET", "/faults", kGetMap);
        QVERIFY2(r.contentType().startsWith("image/png"), r.body.left(300).constData());
        QCOMPARE(rawGet(server.http->port(), "/health").status, 200);
    }
    verifyDegraded(server.router->handle("GET", "/faults", kGetMap), {});
}

// PostgreSQL stops (fast shutdown: backends terminated) while a layer's query
// runs: that layer errors, the rest draws; once PostgreSQL is back, the pool
// replaces the dead connections and the next request is clean.
void TestFaults::postgresStopsMidRequest()
{
    const QString pgDir = QStringLiteral(MAPTUNE_PG_FAULTS_DIR);
    QCOMPARE(clusterScript(QStringLiteral("start"), pgDir, kPgPort), 0);
    m_pgStarted = true;
    {
        PGconn* admin = PQconnectdb(pgConnInfo(kPgPort, QStringLiteral("setup")).toUtf8().constData());
        QCOMPARE(PQstatus(admin), CONNECTION_OK);
        PGresult* r = PQexec(admin, "SET client_min_messages = warning; DROP TABLE IF EXISTS froads; "
                                    "CREATE TABLE froads (gid integer PRIMARY KEY, geom geometry(LineString,4326)); "
                                    "INSERT INTO froads VALUES (1, 'SRID=4326;LINESTRING(11 1, 19 9)')");
        QCOMPARE(PQresultStatus(r), PGRES_COMMAND_OK);
        PQclear(r);
        PQfinish(admin);
    }
    const QByteArray conn = pgConnInfo(kPgPort, QStringLiteral("faults")).toUtf8();
    QTemporaryDir dir;
    QByteArray text = mapText("TYPE LINE CONNECTIONTYPE POSTGIS CONNECTION \"" + conn + "\" "
                              "DATA \"geom from (select f.gid, f.geom from froads f, pg_sleep(%sleep%)) as t using unique gid using srid=4326\" "
                              "CLASS STYLE COLOR 0 0 255 WIDTH 3 END END");
    QVERIFY(writeFile(dir.filePath(QStringLiteral("slow.map")), QByteArray(text).replace("%sleep%", "3")));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("quick.map")), QByteArray(text).replace("%sleep%", "0")));
    Server server({dir.filePath(QStringLiteral("slow.map")), dir.filePath(QStringLiteral("quick.map"))});
    QVERIFY2(server.errors.isEmpty(), qPrintable(server.errors.join('\n')));
    const Response warm = server.router->handle("GET", "/quick", kGetMap);
    QVERIFY(layerTrace(warm, QStringLiteral("victim")) && layerTrace(warm, QStringLiteral("victim"))->error.isEmpty());

    Response during;
    std::thread request([&] { during = server.router->handle("GET", "/slow", kGetMap); });
    QThread::msleep(1000);
    QCOMPARE(clusterScript(QStringLiteral("stop"), pgDir, kPgPort), 0);
    request.join();
    verifyDegraded(during, QStringLiteral("PostgreSQL"));
    QVERIFY(!during.trace->layers[0].db.isEmpty());
    QCOMPARE(rawGet(server.http->port(), "/health").status, 200);

    // While it is down: quick, degraded answers.
    QElapsedTimer timer;
    timer.start();
    verifyDegraded(server.router->handle("GET", "/quick", kGetMap), QStringLiteral("PostgreSQL"));
    QVERIFY(timer.elapsed() < 10000);

    QCOMPARE(clusterScript(QStringLiteral("start"), pgDir, kPgPort), 0);
    const Response after = server.router->handle("GET", "/quick", kGetMap);
    const LayerTrace* victim = layerTrace(after, QStringLiteral("victim"));
    QVERIFY(victim);
    QVERIFY2(victim->error.isEmpty(), qPrintable(victim->error));
    QCOMPARE(victim->features, qint64(1));
}

QTEST_MAIN(TestFaults)
#include "test_faults.moc"
