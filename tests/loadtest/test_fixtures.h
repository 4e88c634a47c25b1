#pragma once
// Small generated data for the preset, report and advisor tests: rasters in a
// chosen layout (written with GDAL), a line shapefile, and a demo-like mapfile
// (an RGB orthophoto with a LUT and a roads shapefile) in a temporary folder.

#include <QString>
#include <QStringList>

namespace maptune::testdata {

struct RasterLayout {
    int width = 1600, height = 1200, bands = 3;
    bool tiled = false;
    bool overviews = false;
    QString compress = QStringLiteral("NONE");
    QString driver = QStringLiteral("GTiff");
};

// A georeferenced (EPSG:3857) Byte raster with a smooth pattern; false on failure.
bool writeRaster(const QString& path, const RasterLayout& layout = {});
// A LINE shapefile (EPSG:3857) with `count` roads and attributes NAME, KIND.
bool writeRoads(const QString& path, int count = 20);
// A tile index shapefile: one unit square per location, in attribute "location".
bool writeTileIndex(const QString& path, const QStringList& locations);
// dir/data/ortho.tif (striped, no overviews), dir/data/roads.shp and dir/demo.map.
// Returns the mapfile path, or empty on failure.
QString writeDemoMap(const QString& dir, const RasterLayout& ortho = {});

// GDAL read-back of a raster's layout, for the assertions.
struct Layout {
    bool ok = false;
    QString driver;
    int width = 0, height = 0, blockWidth = 0, blockHeight = 0, overviews = 0;
    QString compression, layout;
};
Layout readLayout(const QString& path);

// Files in dir whose name contains ".part-" (left-overs of an interrupted job).
QStringList partialFiles(const QString& dir);

}  // namespace maptune::testdata
