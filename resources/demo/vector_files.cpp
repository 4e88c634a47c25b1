#include "vector_files.h"

#include "gdal_helpers.h"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <cmath>
#include <memory>

namespace maptune::demo {

namespace {

// Fixed stamps so that the files are the same bytes on every day: the DBF
// header carries a "last update" date and GeoPackage a last_change time.
constexpr const char* kDbfDate = "DBF_DATE_LAST_UPDATE=2024-01-01";
constexpr const char* kGpkgDate = "2024-01-01T00:00:00.000Z";

struct DatasetCloser
{
    void operator()(void* ds) const { GDALClose(static_cast<GDALDatasetH>(ds)); }
};
using DatasetPtr = std::unique_ptr<void, DatasetCloser>;

struct SrsDeleter
{
    void operator()(void* srs) const { OSRDestroySpatialReference(static_cast<OGRSpatialReferenceH>(srs)); }
};
using SrsPtr = std::unique_ptr<void, SrsDeleter>;

struct FeatureDeleter
{
    void operator()(void* f) const { OGR_F_Destroy(static_cast<OGRFeatureH>(f)); }
};
using FeaturePtr = std::unique_ptr<void, FeatureDeleter>;

// Seven decimals (about 1 cm) keep the files small and the text forms stable.
Point lonLat(Point mercator)
{
    const Point ll = mercatorToLonLat(mercator);
    return {std::round(ll.x * 1e7) / 1e7, std::round(ll.y * 1e7) / 1e7};
}

bool addField(OGRLayerH layer, const char* name, OGRFieldType type, int width, int precision = 0)
{
    OGRFieldDefnH field = OGR_Fld_Create(name, type);
    OGR_Fld_SetWidth(field, width);
    OGR_Fld_SetPrecision(field, precision);
    const bool ok = OGR_L_CreateField(layer, field, TRUE) == OGRERR_NONE;
    OGR_Fld_Destroy(field);
    return ok;
}

OGRLayerH createLayer(GDALDatasetH ds, const char* name, OGRSpatialReferenceH srs,
                      OGRwkbGeometryType type, bool shapefile)
{
    OptionList options;
    if (shapefile) {
        options.add("ENCODING=UTF-8"); // writes the .cpg
        options.add(kDbfDate);
    }
    return GDALDatasetCreateLayer(ds, name, srs, type, options.list);
}

std::optional<std::string> writeRoads(GDALDatasetH ds, OGRSpatialReferenceH srs, const DemoScene& scene,
                                      bool shapefile)
{
    OGRLayerH layer = createLayer(ds, "roads", srs, wkbLineString, shapefile);
    if (!layer || !addField(layer, "id", OFTInteger, 9) || !addField(layer, "type", OFTString, 16)
        || !addField(layer, "name", OFTString, 60))
        return gdalError("cannot create the roads layer");
    OGRFeatureDefnH defn = OGR_L_GetLayerDefn(layer);
    int id = 0;
    for (const Road& road : scene.roads) {
        FeaturePtr f(OGR_F_Create(defn));
        OGR_F_SetFieldInteger(f.get(), 0, ++id);
        OGR_F_SetFieldString(f.get(), 1, roadTypeName(road.type));
        OGR_F_SetFieldString(f.get(), 2, road.name.c_str());
        OGRGeometryH line = OGR_G_CreateGeometry(wkbLineString);
        for (const Point& p : road.points) {
            const Point ll = lonLat(p);
            OGR_G_AddPoint_2D(line, ll.x, ll.y);
        }
        OGR_F_SetGeometryDirectly(f.get(), line);
        if (OGR_L_CreateFeature(layer, f.get()) != OGRERR_NONE)
            return gdalError("cannot write road " + std::to_string(id));
    }
    return std::nullopt;
}

std::optional<std::string> writeBuildings(GDALDatasetH ds, OGRSpatialReferenceH srs, const DemoScene& scene,
                                          bool shapefile)
{
    OGRLayerH layer = createLayer(ds, "buildings", srs, wkbPolygon, shapefile);
    if (!layer || !addField(layer, "id", OFTInteger, 9) || !addField(layer, "name", OFTString, 60)
        || !addField(layer, "height", OFTReal, 6, 1))
        return gdalError("cannot create the buildings layer");
    OGRFeatureDefnH defn = OGR_L_GetLayerDefn(layer);
    int id = 0;
    for (const Building& b : scene.buildings) {
        FeaturePtr f(OGR_F_Create(defn));
        OGR_F_SetFieldInteger(f.get(), 0, ++id);
        if (!b.name.empty())
            OGR_F_SetFieldString(f.get(), 1, b.name.c_str());
        OGR_F_SetFieldDouble(f.get(), 2, b.height);
        OGRGeometryH ring = OGR_G_CreateGeometry(wkbLinearRing);
        const auto corners = b.footprint.corners();
        for (int k = 0; k <= 4; ++k) {
            const Point ll = lonLat(corners[k % 4]);
            OGR_G_AddPoint_2D(ring, ll.x, ll.y);
        }
        OGRGeometryH polygon = OGR_G_CreateGeometry(wkbPolygon);
        OGR_G_AddGeometryDirectly(polygon, ring);
        OGR_F_SetGeometryDirectly(f.get(), polygon);
        if (OGR_L_CreateFeature(layer, f.get()) != OGRERR_NONE)
            return gdalError("cannot write building " + std::to_string(id));
    }
    return std::nullopt;
}

using LayerWriter = std::optional<std::string> (*)(GDALDatasetH, OGRSpatialReferenceH, const DemoScene&, bool);

std::optional<std::string> writeShapefile(const DemoScene& scene, const std::filesystem::path& dir,
                                          const char* layerName, LayerWriter write, OGRSpatialReferenceH srs)
{
    GDALDriverH driver = GDALGetDriverByName("ESRI Shapefile");
    if (!driver)
        return "GDAL has no ESRI Shapefile driver";
    const std::filesystem::path path = dir / (std::string(layerName) + ".shp");
    {
        DatasetPtr ds(GDALCreate(driver, path.c_str(), 0, 0, 0, GDT_Unknown, nullptr));
        if (!ds)
            return gdalError("cannot create " + path.string());
        if (auto error = write(ds.get(), srs, scene, true))
            return *error + " in " + path.string();
    }
    // The quadtree (.qix) lets MapServer-style readers skip features outside a bbox.
    DatasetPtr ds(GDALOpenEx(path.c_str(), GDAL_OF_VECTOR | GDAL_OF_UPDATE, nullptr, nullptr, nullptr));
    if (!ds)
        return gdalError("cannot reopen " + path.string());
    const std::string sql = std::string("CREATE SPATIAL INDEX ON ") + layerName;
    OGRLayerH result = GDALDatasetExecuteSQL(ds.get(), sql.c_str(), nullptr, nullptr);
    if (result)
        GDALDatasetReleaseResultSet(ds.get(), result);
    ds.reset();
    const std::filesystem::path qix = dir / (std::string(layerName) + ".qix");
    if (!std::filesystem::exists(qix))
        return gdalError("the spatial index " + qix.string() + " was not created");
    return std::nullopt;
}

std::optional<std::string> writeGeoPackage(const DemoScene& scene, const std::filesystem::path& dir,
                                           OGRSpatialReferenceH srs)
{
    GDALDriverH driver = GDALGetDriverByName("GPKG");
    if (!driver)
        return "GDAL has no GPKG driver";
    const std::filesystem::path path = dir / "demo.gpkg";
    CPLSetConfigOption("OGR_CURRENT_DATE", kGpkgDate);
    std::optional<std::string> error;
    {
        DatasetPtr ds(GDALCreate(driver, path.c_str(), 0, 0, 0, GDT_Unknown, nullptr));
        if (!ds) {
            error = gdalError("cannot create " + path.string());
        } else if (GDALDatasetStartTransaction(ds.get(), FALSE) != OGRERR_NONE) {
            error = gdalError("cannot start a transaction in " + path.string());
        } else {
            error = writeRoads(ds.get(), srs, scene, false);
            if (!error)
                error = writeBuildings(ds.get(), srs, scene, false);
            if (!error && GDALDatasetCommitTransaction(ds.get()) != OGRERR_NONE)
                error = gdalError("cannot commit " + path.string());
        }
    }
    CPLSetConfigOption("OGR_CURRENT_DATE", nullptr);
    return error;
}

} // namespace

std::optional<std::string> writeVectorFiles(const DemoScene& scene, const std::filesystem::path& dir)
{
    SrsPtr srs(OSRNewSpatialReference(nullptr));
    if (OSRImportFromEPSG(srs.get(), 4326) != OGRERR_NONE)
        return "cannot create EPSG:4326 (is PROJ's proj.db installed?)";
    OSRSetAxisMappingStrategy(srs.get(), OAMS_TRADITIONAL_GIS_ORDER);
    if (auto error = writeShapefile(scene, dir, "roads", writeRoads, srs.get()))
        return error;
    if (auto error = writeShapefile(scene, dir, "buildings", writeBuildings, srs.get()))
        return error;
    return writeGeoPackage(scene, dir, srs.get());
}

} // namespace maptune::demo
