#include "raster_files.h"

#include "gdal_helpers.h"

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#include <ogr_srs_api.h>

#include <memory>

namespace maptune::demo {

namespace {

struct DatasetCloser
{
    void operator()(void* ds) const { GDALClose(static_cast<GDALDatasetH>(ds)); }
};
using DatasetPtr = std::unique_ptr<void, DatasetCloser>;

std::string webMercatorWkt()
{
    OGRSpatialReferenceH srs = OSRNewSpatialReference(nullptr);
    std::string wkt;
    if (OSRImportFromEPSG(srs, 3857) == OGRERR_NONE) {
        char* text = nullptr;
        if (OSRExportToWkt(srs, &text) == OGRERR_NONE && text)
            wkt = text;
        CPLFree(text);
    }
    OSRDestroySpatialReference(srs);
    return wkt;
}

} // namespace

std::optional<std::string> writeOrthoGeoTiff(const DemoScene& scene,
                                             const std::vector<std::uint8_t>& rgb,
                                             const std::filesystem::path& path)
{
    GDALDriverH driver = GDALGetDriverByName("GTiff");
    if (!driver)
        return "GDAL has no GTiff driver";
    OptionList options;
    for (const char* o : {"TILED=YES", "BLOCKXSIZE=256", "BLOCKYSIZE=256", "INTERLEAVE=PIXEL",
                          "PHOTOMETRIC=RGB"})
        options.add(o);
    const int n = scene.pixels;
    DatasetPtr ds(GDALCreate(driver, path.c_str(), n, n, 3, GDT_Byte, options.list));
    if (!ds)
        return gdalError("cannot create " + path.string());
    double transform[6] = {scene.extent.minX, scene.pixelSize, 0.0, scene.extent.maxY, 0.0, -scene.pixelSize};
    const std::string wkt = webMercatorWkt();
    if (wkt.empty() || GDALSetGeoTransform(ds.get(), transform) != CE_None
        || GDALSetProjection(ds.get(), wkt.c_str()) != CE_None)
        return gdalError("cannot georeference " + path.string());

    int bands[3] = {1, 2, 3};
    if (GDALDatasetRasterIO(ds.get(), GF_Write, 0, 0, n, n, const_cast<std::uint8_t*>(rgb.data()), n, n,
                            GDT_Byte, 3, bands, 3, 3 * n, 1) != CE_None)
        return gdalError("cannot write pixels to " + path.string());

    // Overview tiles the same size as the full-resolution ones (GDAL's default is 128).
    CPLSetConfigOption("GDAL_TIFF_OVR_BLOCKSIZE", "256");
    int levels[4] = {2, 4, 8, 16};
    const CPLErr err = GDALBuildOverviews(ds.get(), "AVERAGE", 4, levels, 0, nullptr, nullptr, nullptr);
    CPLSetConfigOption("GDAL_TIFF_OVR_BLOCKSIZE", nullptr);
    if (err != CE_None)
        return gdalError("cannot build overviews in " + path.string());
    // GDAL 3.6's GDALClose returns nothing: a failed flush shows as the last error.
    CPLErrorReset();
    ds.reset();
    if (CPLGetLastErrorType() == CE_Failure)
        return gdalError("cannot finish " + path.string());
    return std::nullopt;
}

std::optional<std::string> writeJpeg2000Copy(const std::filesystem::path& source,
                                             const std::filesystem::path& path)
{
    GDALDriverH driver = GDALGetDriverByName("JP2OpenJPEG");
    if (!driver)
        return "GDAL has no JP2OpenJPEG driver (install the libopenjp2-based GDAL build)";
    DatasetPtr src(GDALOpen(source.c_str(), GA_ReadOnly));
    if (!src)
        return gdalError("cannot open " + source.string());
    OptionList options;
    for (const char* o : {"REVERSIBLE=YES", "QUALITY=100", "YCC=YES", "RESOLUTIONS=5",
                          "BLOCKXSIZE=1024", "BLOCKYSIZE=1024", "PROGRESSION=RPCL"})
        options.add(o);
    GDALDatasetH copy = GDALCreateCopy(driver, path.c_str(), src.get(), FALSE, options.list, nullptr, nullptr);
    if (!copy)
        return gdalError("cannot write " + path.string());
    CPLErrorReset();
    GDALClose(copy);
    if (CPLGetLastErrorType() == CE_Failure)
        return gdalError("cannot finish " + path.string());
    return std::nullopt;
}

} // namespace maptune::demo
