#include "test_fixtures.h"

#include "render/engine.h"

#include <QDir>
#include <QFile>

#include <cpl_string.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <vector>

namespace maptune::testdata {

namespace {

// Pseudo-Mercator around Tokyo: 1 m pixels.
constexpr double kMinX = 15554000, kMaxY = 4257000;

void setSrs(GDALDatasetH ds)
{
    OGRSpatialReferenceH srs = OSRNewSpatialReference(nullptr);
    OSRImportFromEPSG(srs, 3857);
    GDALSetSpatialRef(ds, srs);
    OSRDestroySpatialReference(srs);
}

// Adds a feature with geometry g (owned) and the fields set by setFields.
template <typename SetFields>
bool addFeature(OGRLayerH layer, OGRGeometryH g, SetFields setFields)
{
    OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(layer));
    setFields(f);
    OGR_F_SetGeometryDirectly(f, g);
    const OGRErr err = OGR_L_CreateFeature(layer, f);
    OGR_F_Destroy(f);
    return err == OGRERR_NONE;
}

void addField(OGRLayerH layer, const char* name, OGRFieldType type)
{
    OGRFieldDefnH fd = OGR_Fld_Create(name, type);
    [[maybe_unused]] const OGRErr err = OGR_L_CreateField(layer, fd, TRUE);
    OGR_Fld_Destroy(fd);
}

}  // namespace

bool writeRaster(const QString& path, const RasterLayout& l)
{
    initEngine();
    // Written as a plain GeoTIFF in memory first, then copied in the wanted layout.
    GDALDriverH mem = GDALGetDriverByName("MEM");
    GDALDatasetH src = GDALCreate(mem, "", l.width, l.height, l.bands, GDT_Byte, nullptr);
    double gt[6] = {kMinX, 1, 0, kMaxY, 0, -1};
    GDALSetGeoTransform(src, gt);
    setSrs(src);
    std::vector<unsigned char> row(size_t(l.width));
    for (int b = 1; b <= l.bands; ++b) {
        GDALRasterBandH band = GDALGetRasterBand(src, b);
        for (int y = 0; y < l.height; ++y) {
            for (int x = 0; x < l.width; ++x) row[size_t(x)] = (unsigned char)((x * b + y * (4 - b) + (x ^ y) / 8) & 0xff);
            if (GDALRasterIO(band, GF_Write, 0, y, l.width, 1, row.data(), l.width, 1, GDT_Byte, 0, 0) != CE_None) return false;
        }
    }
    char** co = nullptr;
    if (l.driver == QLatin1String("GTiff")) {
        co = CSLSetNameValue(co, "TILED", l.tiled ? "YES" : "NO");
        co = CSLSetNameValue(co, "COMPRESS", l.compress.toUtf8().constData());
    }
    GDALDatasetH out = GDALCreateCopy(GDALGetDriverByName(l.driver.toUtf8().constData()), QFile::encodeName(path).constData(),
                                      src, FALSE, co, nullptr, nullptr);
    CSLDestroy(co);
    GDALClose(src);
    if (!out) return false;
    if (l.overviews) {
        int levels[] = {2, 4, 8};
        const CPLErr err = GDALBuildOverviews(out, "AVERAGE", 3, levels, 0, nullptr, nullptr, nullptr);
        if (err != CE_None) {
            GDALClose(out);
            return false;
        }
    }
    GDALClose(out);
    return true;
}

bool writeRoads(const QString& path, int count)
{
    initEngine();
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("ESRI Shapefile"), QFile::encodeName(path).constData(), 0, 0, 0,
                                 GDT_Unknown, nullptr);
    if (!ds) return false;
    OGRSpatialReferenceH srs = OSRNewSpatialReference(nullptr);
    OSRImportFromEPSG(srs, 3857);
    OGRLayerH layer = GDALDatasetCreateLayer(ds, "roads", srs, wkbLineString, nullptr);
    OSRDestroySpatialReference(srs);
    addField(layer, "NAME", OFTString);
    addField(layer, "KIND", OFTInteger);
    bool ok = true;
    for (int i = 0; i < count && ok; ++i) {
        OGRGeometryH g = OGR_G_CreateGeometry(wkbLineString);
        const double y = kMaxY - 50 - i * 55;
        OGR_G_AddPoint_2D(g, kMinX + 20, y);
        OGR_G_AddPoint_2D(g, kMinX + 800, y - 30);
        OGR_G_AddPoint_2D(g, kMinX + 1580, y + 10);
        ok = addFeature(layer, g, [i](OGRFeatureH f) {
            OGR_F_SetFieldString(f, 0, QStringLiteral("road %1").arg(i).toUtf8().constData());
            OGR_F_SetFieldInteger(f, 1, i % 3);
        });
    }
    GDALClose(ds);
    return ok;
}

bool writeTileIndex(const QString& path, const QStringList& locations)
{
    initEngine();
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("ESRI Shapefile"), QFile::encodeName(path).constData(), 0, 0, 0,
                                 GDT_Unknown, nullptr);
    if (!ds) return false;
    OGRLayerH layer = GDALDatasetCreateLayer(ds, "tiles", nullptr, wkbPolygon, nullptr);
    addField(layer, "location", OFTString);
    bool ok = true;
    for (const QString& loc : locations) {
        OGRGeometryH g = nullptr;
        QByteArray wkt = "POLYGON((0 0,1 0,1 1,0 1,0 0))";
        char* p = wkt.data();
        OGR_G_CreateFromWkt(&p, nullptr, &g);
        ok = ok && addFeature(layer, g, [&](OGRFeatureH f) { OGR_F_SetFieldString(f, 0, loc.toUtf8().constData()); });
    }
    GDALClose(ds);
    return ok;
}

QString writeDemoMap(const QString& dir, const RasterLayout& ortho)
{
    QDir(dir).mkpath(QStringLiteral("data"));
    if (!writeRaster(QDir(dir).filePath(QStringLiteral("data/ortho.tif")), ortho)) return {};
    if (!writeRoads(QDir(dir).filePath(QStringLiteral("data/roads.shp")))) return {};
    const QString map = QDir(dir).filePath(QStringLiteral("demo.map"));
    QFile f(map);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(QStringLiteral(R"(MAP
  NAME "demo"
  EXTENT %1 %2 %3 %4
  SIZE 400 300
  SHAPEPATH "data"
  WEB
    METADATA
      "wms_enable_request" "*"
      "wms_srs" "EPSG:3857"
    END
  END
  PROJECTION
    "init=epsg:3857"
  END
  LAYER
    NAME "ortho"
    TYPE RASTER
    STATUS ON
    DATA "ortho.tif"
    PROCESSING "RESAMPLE=NEAREST"
    PROCESSING "LUT=0:0,128:200,255:255"
  END
  LAYER
    NAME "roads"
    TYPE LINE
    STATUS ON
    DATA "roads"
    CLASSITEM "KIND"
    CLASS
      EXPRESSION "1"
      STYLE
        COLOR 200 0 0
        WIDTH 3
      END
    END
    CLASS
      STYLE
        COLOR 40 40 40
        WIDTH 1
      END
    END
  END
END
)")
                .arg(kMinX, 0, 'f', 0)
                .arg(kMaxY - ortho.height, 0, 'f', 0)
                .arg(kMinX + ortho.width, 0, 'f', 0)
                .arg(kMaxY, 0, 'f', 0)
                .toUtf8());
    return map;
}

Layout readLayout(const QString& path)
{
    Layout out;
    GDALDatasetH ds = GDALOpen(QFile::encodeName(path).constData(), GA_ReadOnly);
    if (!ds) return out;
    out.ok = true;
    out.driver = QString::fromUtf8(GDALGetDriverShortName(GDALGetDatasetDriver(ds)));
    out.width = GDALGetRasterXSize(ds);
    out.height = GDALGetRasterYSize(ds);
    GDALRasterBandH band = GDALGetRasterBand(ds, 1);
    GDALGetBlockSize(band, &out.blockWidth, &out.blockHeight);
    out.overviews = GDALGetOverviewCount(band);
    out.compression = QString::fromUtf8(GDALGetMetadataItem(ds, "COMPRESSION", "IMAGE_STRUCTURE"));
    out.layout = QString::fromUtf8(GDALGetMetadataItem(ds, "LAYOUT", "IMAGE_STRUCTURE"));
    GDALClose(ds);
    return out;
}

QStringList partialFiles(const QString& dir)
{
    QStringList out;
    for (const QString& name : QDir(dir).entryList(QDir::Files | QDir::Hidden))
        if (name.contains(QLatin1String(".part-"))) out << name;
    return out;
}

}  // namespace maptune::testdata
