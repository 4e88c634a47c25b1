#pragma once
// Data for the lint tests, made with GDAL in a temporary folder: a point
// shapefile (name, pop) with or without its .qix, and a 1100x1100 GeoTIFF
// striped without overviews or tiled with them.

#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <QString>

namespace maptune::test {

inline bool makePlaces(const QString& dir, int count, bool withIndex)
{
    GDALDriverH driver = GDALGetDriverByName("ESRI Shapefile");
    const QByteArray path = (dir + QStringLiteral("/places.shp")).toUtf8();
    GDALDatasetH ds = GDALCreate(driver, path.constData(), 0, 0, 0, GDT_Unknown, nullptr);
    if (!ds) return false;
    OGRLayerH layer = GDALDatasetCreateLayer(ds, "places", nullptr, wkbPoint, nullptr);
    OGRFieldDefnH name = OGR_Fld_Create("name", OFTString);
    OGRFieldDefnH pop = OGR_Fld_Create("pop", OFTInteger);
    OGR_L_CreateField(layer, name, TRUE);
    OGR_L_CreateField(layer, pop, TRUE);
    OGR_Fld_Destroy(name);
    OGR_Fld_Destroy(pop);
    for (int i = 0; i < count; ++i) {
        OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(layer));
        OGR_F_SetFieldString(f, 0, QByteArray("p" + QByteArray::number(i)).constData());
        OGR_F_SetFieldInteger(f, 1, i * 10);
        OGRGeometryH g = OGR_G_CreateGeometry(wkbPoint);
        OGR_G_SetPoint_2D(g, 0, i % 100, i / 100.0);
        OGR_F_SetGeometryDirectly(f, g);
        OGR_L_CreateFeature(layer, f);
        OGR_F_Destroy(f);
    }
    if (withIndex) GDALDatasetReleaseResultSet(ds, GDALDatasetExecuteSQL(ds, "CREATE SPATIAL INDEX ON places", nullptr, nullptr));
    GDALClose(ds);
    return true;
}

inline bool makeRaster(const QString& dir, bool tiledWithOverviews)
{
    GDALDriverH driver = GDALGetDriverByName("GTiff");
    const char* tiled[] = {"TILED=YES", "COMPRESS=DEFLATE", nullptr};
    const char* striped[] = {"COMPRESS=DEFLATE", nullptr};
    const QByteArray path = (dir + QStringLiteral("/dem.tif")).toUtf8();
    GDALDatasetH ds = GDALCreate(driver, path.constData(), 1100, 1100, 1, GDT_Byte,
                                 const_cast<char**>(tiledWithOverviews ? tiled : striped));
    if (!ds) return false;
    double transform[6] = {0, 100.0 / 1100, 0, 100, 0, -100.0 / 1100};
    GDALSetGeoTransform(ds, transform);
    if (tiledWithOverviews) {
        int levels[] = {2, 4};
        GDALBuildOverviews(ds, "AVERAGE", 2, levels, 0, nullptr, nullptr, nullptr);
    }
    GDALClose(ds);
    return true;
}

}  // namespace maptune::test
