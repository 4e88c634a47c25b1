// Where vector features come from, drawn as a user's mapfile asks:
// CONNECTIONTYPE FLATGEOBUF through SHAPEPATH, and an OGR CONNECTION that is
// an inline VRT whose relative SrcDataSource is found from the mapfile's
// folder whatever the working directory.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/map_renderer.h"

#include <gdal.h>
#include <ogr_api.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace maptune;

namespace {

// A square polygon layer "sq" (name = "one") in `path` through the OGR driver `driver`.
bool writeSquare(const QString& path, const char* driver)
{
    GDALDriverH d = GDALGetDriverByName(driver);
    if (!d) return false;
    GDALDatasetH ds = GDALCreate(d, path.toUtf8().constData(), 0, 0, 0, GDT_Unknown, nullptr);
    if (!ds) return false;
    OGRLayerH layer = GDALDatasetCreateLayer(ds, "sq", nullptr, wkbPolygon, nullptr);
    OGRFieldDefnH field = OGR_Fld_Create("name", OFTString);
    OGR_L_CreateField(layer, field, TRUE);
    OGR_Fld_Destroy(field);
    OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(layer));
    OGR_F_SetFieldString(f, 0, "one");
    OGRGeometryH g = nullptr;
    char wkt[] = "POLYGON ((20 20,80 20,80 80,20 80,20 20))";
    char* p = wkt;
    OGR_G_CreateFromWkt(&p, nullptr, &g);
    OGR_F_SetGeometryDirectly(f, g);
    const bool ok = OGR_L_CreateFeature(layer, f) == OGRERR_NONE;
    OGR_F_Destroy(f);
    GDALClose(ds);
    return ok;
}

// A map (100x100 px over 0 0 100 100, SHAPEPATH 'data') holding `layers`, written as `name` in `dir`; its path, empty when it cannot be written.
QString writeMap(const QTemporaryDir& dir, const QString& name, const QByteArray& layers)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(QByteArray("MAP NAME 'src' SIZE 100 100 EXTENT 0 0 100 100 IMAGECOLOR 255 255 255 SHAPEPATH 'data'\n") + layers + "\nEND\n");
    return path;
}

RenderResult renderFile(const QString& path)
{
    const LoadResult loaded = loadMapFile(path);
    if (!loaded.ok()) {
        RenderResult r;
        r.error = loaded.diagnostics.isEmpty() ? QStringLiteral("load failed") : loaded.diagnostics.first().toString();
        return r;
    }
    return MapRenderer(loaded.map).render({});
}

}  // namespace

class TestDataSources : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void flatGeobufThroughShapePath()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("data")));
        QVERIFY(writeSquare(dir.filePath(QStringLiteral("data/sq.fgb")), "FlatGeobuf"));
        const QString map = writeMap(dir, QStringLiteral("fgb.map"),
                                     "LAYER NAME 'fgb' TYPE POLYGON STATUS ON CONNECTIONTYPE FLATGEOBUF DATA 'sq.fgb' "
                                     "CLASSITEM 'name' CLASS EXPRESSION 'one' STYLE COLOR 255 0 0 END END END");
        QVERIFY(!map.isEmpty());
        const RenderResult r = renderFile(map);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
        QCOMPARE(QColor(r.image.pixel(50, 50)), QColor(255, 0, 0));
        QCOMPARE(QColor(r.image.pixel(5, 5)), QColor(255, 255, 255));
    }

    void inlineVrtFromTheMapsFolder()
    {
        QTemporaryDir dir, elsewhere;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("data")));
        QVERIFY(writeSquare(dir.filePath(QStringLiteral("data/sq.geojson")), "GeoJSON"));
        const QString map = writeMap(dir, QStringLiteral("vrt.map"),
                                     "LAYER NAME 'v' TYPE POLYGON STATUS ON CONNECTIONTYPE OGR DATA 'poly' "
                                     "CONNECTION '<OGRVRTDataSource><OGRVRTLayer name=\"poly\"><SrcDataSource relativeToVRT=\"0\">"
                                     "data/sq.geojson</SrcDataSource><SrcLayer>sq</SrcLayer></OGRVRTLayer></OGRVRTDataSource>' "
                                     "CLASS STYLE COLOR 0 0 255 END END END");
        QVERIFY(!map.isEmpty());
        const QString cwd = QDir::currentPath();
        QDir::setCurrent(elsewhere.path());
        const RenderResult r = renderFile(map);
        QDir::setCurrent(cwd);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
        QCOMPARE(QColor(r.image.pixel(50, 50)), QColor(0, 0, 255));
    }
};

QTEST_GUILESS_MAIN(TestDataSources)
#include "test_data_sources.moc"
