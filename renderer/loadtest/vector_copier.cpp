#include "loadtest/vector_copier.h"

#include "core/gdal_dataset.h"
#include "data/postgis/pg_conninfo.h"
#include "data/postgis/postgis_data_def.h"
#include "loadtest/gdal_job.h"
#include "render/engine.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <cpl_string.h>
#include <gdal.h>
#include <gdal_utils.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <memory>

namespace maptune {

namespace {

using Dataset = OwnedDataset;

Dataset openVector(const QString& name, bool update)
{
    const unsigned flags = GDAL_OF_VECTOR | (update ? GDAL_OF_UPDATE : GDAL_OF_READONLY);
    return Dataset(GDALOpenEx(name.toUtf8().constData(), flags, nullptr, nullptr, nullptr));
}

// EPSG code of a layer's CRS, 0 when it has none or none that EPSG names.
int epsgOf(OGRLayerH layer)
{
    OGRSpatialReferenceH srs = layer ? OGR_L_GetSpatialRef(layer) : nullptr;
    if (!srs) return 0;
    OGRSpatialReferenceH copy = OSRClone(srs);
    OSRAutoIdentifyEPSG(copy);
    const char* code = OSRGetAuthorityCode(copy, nullptr);
    const char* name = OSRGetAuthorityName(copy, nullptr);
    const int epsg = code && name && QByteArray(name).compare("EPSG", Qt::CaseInsensitive) == 0 ? atoi(code) : 0;
    OSRDestroySpatialReference(copy);
    return epsg;
}

// ogr2ogr source -> dest (an open dataset, or a new file when destDs is null).
bool vectorTranslate(void* srcDs, void* destDs, const QString& destName, const QStringList& args,
                     gdaljob::Progress& p, QString& error)
{
    char** argv = nullptr;
    for (const QString& a : args) argv = CSLAddString(argv, a.toUtf8().constData());
    GDALVectorTranslateOptions* opts = GDALVectorTranslateOptionsNew(argv, nullptr);
    CSLDestroy(argv);
    if (!opts) {
        error = gdaljob::lastError(QStringLiteral("bad vector translate options"));
        return false;
    }
    GDALVectorTranslateOptionsSetProgress(opts, gdaljob::gdalProgress, &p);
    GDALDatasetH src = srcDs;
    int usageError = 0;
    GDALDatasetH out = GDALVectorTranslate(destDs ? nullptr : destName.toUtf8().constData(), destDs, 1, &src, opts, &usageError);
    GDALVectorTranslateOptionsFree(opts);
    if (!out || p.cancel.isCancelled()) {
        error = p.cancel.isCancelled() ? QStringLiteral("cancelled") : gdaljob::lastError(QStringLiteral("vector copy failed"));
        if (out && !destDs) GDALClose(out);
        return false;
    }
    if (!destDs) GDALClose(out);
    return true;
}

}  // namespace

QString VectorCopier::tableNameFor(const QString& layerName)
{
    QString out = QStringLiteral("maptune_bench_");
    for (QChar c : layerName.toLower()) out += (c.isLetterOrNumber() && c.unicode() < 128) ? c : QLatin1Char('_');
    return out.left(63);
}

VectorCopyResult VectorCopier::toPostgis(const QString& source, const QString& layerName, const QString& conninfo,
                                         const QString& table, int srid, const CancelToken& cancel,
                                         const VectorProgress& progress)
{
    initEngine();
    VectorCopyResult r;
    CPLErrorReset();
    QString path = source;
    if (!QFileInfo::exists(path) && QFileInfo::exists(path + QLatin1String(".shp"))) path += QLatin1String(".shp");
    Dataset src = openVector(path, false);
    if (!src) {
        r.error = gdaljob::lastError(QStringLiteral("cannot open '%1' as vector data").arg(source));
        return r;
    }
    OGRLayerH layer = layerName.isEmpty() ? GDALDatasetGetLayer(src.get(), 0)
                                          : GDALDatasetGetLayerByName(src.get(), layerName.toUtf8().constData());
    if (!layer) {
        r.error = QStringLiteral("'%1' has no layer '%2'").arg(source, layerName);
        return r;
    }
    r.srid = epsgOf(layer);
    if (!r.srid) r.srid = srid;
    Dataset dest = openVector(QStringLiteral("PG:") + conninfo, true);
    if (!dest) {
        r.error = QStringLiteral("cannot connect to PostgreSQL (%1): %2")
                      .arg(redactPgConnInfo(conninfo), redactPgConnInfo(gdaljob::lastError(QStringLiteral("no answer"))));
        return r;
    }
    r.table = table.toLower();
    r.geometryColumn = QStringLiteral("geom");
    r.uniqueColumn = QStringLiteral("gid");
    r.features = OGR_L_GetFeatureCount(layer, TRUE);
    QStringList args{QStringLiteral("-nln"), r.table, QStringLiteral("-overwrite"),
                     QStringLiteral("-lco"), QStringLiteral("GEOMETRY_NAME=geom"), QStringLiteral("-lco"), QStringLiteral("FID=gid"),
                     QStringLiteral("-lco"), QStringLiteral("SPATIAL_INDEX=GIST"), QStringLiteral("-lco"), QStringLiteral("LAUNDER=NO"),
                     QStringLiteral("-lco"), QStringLiteral("PRECISION=NO"), QStringLiteral("-nlt"), QStringLiteral("PROMOTE_TO_MULTI"),
                     QString::fromUtf8(OGR_L_GetName(layer))};
    if (r.srid) args = QStringList{QStringLiteral("-a_srs"), QStringLiteral("EPSG:%1").arg(r.srid)} + args;
    gdaljob::Progress p{cancel, progress, 0, 1, QStringLiteral("loading into PostGIS")};
    QString error;
    if (!vectorTranslate(src.get(), dest.get(), {}, args, p, error)) {
        r.cancelled = cancel.isCancelled();
        r.error = redactPgConnInfo(error);
        return r;
    }
    const QByteArray analyze = "ANALYZE \"" + r.table.toUtf8().replace('"', "\"\"") + '"';
    if (OGRLayerH res = GDALDatasetExecuteSQL(dest.get(), analyze.constData(), nullptr, nullptr))
        GDALDatasetReleaseResultSet(dest.get(), res);
    r.ok = true;
    return r;
}

VectorCopyResult VectorCopier::toGeoPackage(const QString& conninfo, const QString& data, const QString& output,
                                            const QString& layerName, const CancelToken& cancel,
                                            const VectorProgress& progress)
{
    initEngine();
    VectorCopyResult r;
    const auto def = PostgisDataDef::parse(data);
    if (!def) {
        r.error = QStringLiteral("DATA \"%1\": %2").arg(data, def.message());
        return r;
    }
    if (def->hasBoxToken()) {
        r.error = QStringLiteral("DATA uses !BOX!: export the table it selects from instead");
        return r;
    }
    CPLErrorReset();
    Dataset src = openVector(QStringLiteral("PG:") + conninfo, false);
    if (!src) {
        r.error = QStringLiteral("cannot connect to PostgreSQL (%1): %2")
                      .arg(redactPgConnInfo(conninfo), redactPgConnInfo(gdaljob::lastError(QStringLiteral("no answer"))));
        return r;
    }
    r.srid = def->srid;
    r.path = output;
    r.layerName = layerName;
    const QString tmp = gdaljob::temporaryPath(output);
    const QStringList args{QStringLiteral("-f"), QStringLiteral("GPKG"), QStringLiteral("-nln"), layerName,
                           QStringLiteral("-lco"), QStringLiteral("GEOMETRY_NAME=geom"), QStringLiteral("-sql"),
                           QStringLiteral("SELECT * FROM %1").arg(def->fromClause())};
    gdaljob::Progress p{cancel, progress, 0, 1, QStringLiteral("exporting to GeoPackage")};
    QString error;
    if (!vectorTranslate(src.get(), nullptr, tmp, args, p, error)) {
        gdaljob::removeWithSideFiles(tmp);
        r.cancelled = cancel.isCancelled();
        r.error = redactPgConnInfo(error);
        return r;
    }
    if (Dataset check = openVector(tmp, false)) {
        if (OGRLayerH l = GDALDatasetGetLayer(check.get(), 0)) {
            r.features = OGR_L_GetFeatureCount(l, TRUE);
            if (!r.srid) r.srid = epsgOf(l);
        }
    }
    if (const Status published = gdaljob::publish(tmp, output); !published) {
        r.error = published.message();
        return r;
    }
    r.ok = true;
    return r;
}

}  // namespace maptune
