#pragma once
// Copies a vector layer's features between a file and PostGIS with GDAL's
// GDALVectorTranslate, for the shapefile-vs-PostGIS experiment: a file
// (shapefile, GeoPackage...) into a PostGIS table with a GiST index, or the
// rows of a PostGIS DATA statement out to a GeoPackage. Progress and a
// CancelToken as for rasters; passwords never appear in messages.

#include "trace/cancel_token.h"

#include <QString>

#include <functional>

namespace maptune {

struct VectorCopyResult {
    bool ok = false;
    QString error;
    bool cancelled = false;
    QString table;              // toPostgis: the table written (unquoted, lower case)
    QString geometryColumn;     // toPostgis: "geom"
    QString uniqueColumn;       // toPostgis: "gid"
    QString path;               // toGeoPackage: the file written
    QString layerName;          // toGeoPackage: its layer
    int srid = 0;               // EPSG code of the data, 0 when unknown
    long long features = 0;
};

using VectorProgress = std::function<void(double fraction, const QString& stage)>;

class VectorCopier {
public:
    // source: a file OGR opens (".shp" may be left off); layerName empty: its first layer.
    // The table is replaced. srid: EPSG code to declare when the file has no
    // recognisable CRS (0: none).
    static VectorCopyResult toPostgis(const QString& source, const QString& layerName, const QString& conninfo,
                                      const QString& table, int srid = 0, const CancelToken& cancel = {},
                                      const VectorProgress& progress = {});
    // The rows of a MapServer PostGIS DATA statement ("geom from roads", a subselect
    // without !BOX!) into output (a new GeoPackage, replaced atomically), layer layerName.
    static VectorCopyResult toGeoPackage(const QString& conninfo, const QString& data, const QString& output,
                                         const QString& layerName, const CancelToken& cancel = {},
                                         const VectorProgress& progress = {});
    // "maptune_bench_" + the layer name lower-cased, non-identifier characters as '_'.
    static QString tableNameFor(const QString& layerName);
};

}  // namespace maptune
