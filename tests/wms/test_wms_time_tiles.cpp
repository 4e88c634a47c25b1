// WMS TIME reaching a raster TILEINDEX: the time filter chooses the tiles
// (MapServer applies a raster layer's FILTER to its index), for a raster
// layer and for a CONTOUR layer whose TILEINDEX names another layer.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "wms/wms_service.h"

#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace maptune;

namespace {

// A 10 x 10 tile over 0..10 x 0..10 whose cells are `value` (a ramp when
// `ramp`, so that contours cross it).
bool writeTile(const QString& path, float value, bool ramp)
{
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), path.toUtf8().constData(), 10, 10, 1, GDT_Float32, nullptr);
    if (!ds) return false;
    double gt[6] = {0, 1, 0, 10, 0, -1};
    GDALSetGeoTransform(ds, gt);
    std::vector<float> v(100);
    for (int y = 0; y < 10; ++y)
        for (int x = 0; x < 10; ++x) v[size_t(y * 10 + x)] = ramp ? value * float(x) : value;
    const bool ok = GDALRasterIO(GDALGetRasterBand(ds, 1), GF_Write, 0, 0, 10, 10, v.data(), 10, 10, GDT_Float32, 0, 0) == CE_None;
    GDALClose(ds);
    return ok;
}

// A shapefile index: one square footprint per tile, with its location and TIME.
bool writeIndex(const QString& path, const QList<std::pair<QString, QString>>& tiles)
{
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("ESRI Shapefile"), path.toUtf8().constData(), 0, 0, 0, GDT_Unknown, nullptr);
    if (!ds) return false;
    OGRLayerH layer = GDALDatasetCreateLayer(ds, "index", nullptr, wkbPolygon, nullptr);
    for (const char* name : {"location", "TIME"}) {
        OGRFieldDefnH f = OGR_Fld_Create(name, OFTString);
        OGR_L_CreateField(layer, f, TRUE);
        OGR_Fld_Destroy(f);
    }
    bool written = true;
    for (const auto& [location, time] : tiles) {
        OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(layer));
        OGR_F_SetFieldString(f, 0, location.toUtf8().constData());
        OGR_F_SetFieldString(f, 1, time.toUtf8().constData());
        OGRGeometryH g = nullptr;
        char wkt[] = "POLYGON((0 0,10 0,10 10,0 10,0 0))";
        char* p = wkt;
        OGR_G_CreateFromWkt(&p, nullptr, &g);
        OGR_F_SetGeometryDirectly(f, g);
        written &= OGR_L_CreateFeature(layer, f) == OGRERR_NONE;
        OGR_F_Destroy(f);
    }
    GDALClose(ds);
    return written;
}

const QByteArray kMap = R"(MAP
  NAME "tiles"
  SIZE 10 10
  EXTENT 0 0 10 10
  UNITS DD
  PROJECTION "init=epsg:4326" END
  IMAGECOLOR 255 255 255
  WEB METADATA "wms_srs" "EPSG:4326" "wms_enable_request" "*" "wms_title" "tiles" END END
  LAYER
    NAME "grey"
    TYPE RASTER
    STATUS ON
    TILEINDEX "index.shp"
    TILEITEM "location"
    PROCESSING "SCALE=0,255"
    METADATA "wms_title" "grey" "wms_timeitem" "TIME" "wms_timeextent" "2004-01-01/2004-03-01" END
  END
  LAYER
    NAME "index"
    TYPE POLYGON
    STATUS OFF
    DATA "ramps.shp"
  END
  LAYER
    NAME "contours"
    TYPE LINE
    STATUS ON
    CONNECTIONTYPE CONTOUR
    TILEINDEX "index"
    TILEITEM "location"
    PROCESSING "CONTOUR_INTERVAL=10"
    METADATA "wms_title" "contours" "wms_timeitem" "TIME" "wms_timeextent" "2004-01-01/2004-03-01" END
    CLASS STYLE COLOR 0 0 0 END END
  END
END
)";

}  // namespace

class TestWmsTimeTiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<WmsService> m_service;

    QImage getMap(const QString& layer, const QString& time) const
    {
        QString q = QStringLiteral("SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&SRS=EPSG:4326&BBOX=0,0,10,10&WIDTH=10&HEIGHT=10"
                                   "&STYLES=&FORMAT=image/png&LAYERS=") + layer;
        if (!time.isEmpty()) q += QStringLiteral("&TIME=") + time;
        const Response r = m_service->handle(WmsRequest::fromQueryString(q.toUtf8()));
        return QImage::fromData(r.body);
    }

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        QVERIFY(m_dir.isValid());
        QVERIFY(writeTile(m_dir.filePath("january.tif"), 50, false));
        QVERIFY(writeTile(m_dir.filePath("february.tif"), 200, false));
        QVERIFY(writeTile(m_dir.filePath("ramp_a.tif"), 1, true));    // 0..9: no contour at 10
        QVERIFY(writeTile(m_dir.filePath("ramp_b.tif"), 5, true));    // 0..45: contours 10..40
        QVERIFY(writeIndex(m_dir.filePath("index.shp"), {{"january.tif", "2004-01-01"}, {"february.tif", "2004-02-01"}}));
        QVERIFY(writeIndex(m_dir.filePath("ramps.shp"), {{"ramp_a.tif", "2004-01-01"}, {"ramp_b.tif", "2004-02-01"}}));
        const QString path = m_dir.filePath("tiles.map");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kMap);
        f.close();
        LoadResult loaded = loadMapFile(path);
        QVERIFY2(loaded.ok(), "tiles.map must load");
        m_service = std::make_unique<WmsService>(loaded.map);
    }

    void timeChoosesTheRasterTile()
    {
        QCOMPARE(qGray(getMap("grey", "2004-01-01").pixel(5, 5)), 50);
        QCOMPARE(qGray(getMap("grey", "2004-02-01").pixel(5, 5)), 200);
        // A time no tile has: nothing drawn (the white background).
        QCOMPARE(qGray(getMap("grey", "2004-02-15").pixel(5, 5)), 255);
    }

    void timeChoosesTheContourTiles()
    {
        const auto inked = [](const QImage& image) {
            int n = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) n += qGray(image.pixel(x, y)) < 200;
            return n;
        };
        QCOMPARE(inked(getMap("contours", "2004-01-01")), 0);
        QVERIFY(inked(getMap("contours", "2004-02-01")) > 5);
    }
};

QTEST_MAIN(TestWmsTimeTiles)
#include "test_wms_time_tiles.moc"
