#include "raster/tile_index.h"

#include "geo/map_view.h"

#include <cpl_error.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <gdal.h>

namespace maptune {

namespace {

// The view extent in the index CRS; unchanged when either CRS is unknown.
Rect extentInIndexCrs(OGRLayerH layer, const MapView& view)
{
    Rect r = view.extent;
    OGRSpatialReferenceH indexSrs = OGR_L_GetSpatialRef(layer);
    if (!indexSrs || !view.crs.isValid()) return r;
    OGRSpatialReferenceH mapSrs = OSRNewSpatialReference(nullptr);
    OGRSpatialReferenceH target = OSRClone(indexSrs);
    OSRSetAxisMappingStrategy(target, OAMS_TRADITIONAL_GIS_ORDER);
    if (OSRSetFromUserInput(mapSrs, view.crs.wkt().constData()) == OGRERR_NONE) {
        OSRSetAxisMappingStrategy(mapSrs, OAMS_TRADITIONAL_GIS_ORDER);
        if (!OSRIsSame(mapSrs, target)) {
            if (OGRCoordinateTransformationH ct = OCTNewCoordinateTransformation(mapSrs, target)) {
                double minx, miny, maxx, maxy;
                if (OCTTransformBounds(ct, r.minx, r.miny, r.maxx, r.maxy, &minx, &miny, &maxx, &maxy, 21))
                    r = {minx, miny, maxx, maxy};
                OCTDestroyCoordinateTransformation(ct);
            }
        }
    }
    OSRDestroySpatialReference(mapSrs);
    OSRDestroySpatialReference(target);
    return r;
}

}  // namespace

Result<QList<TileIndex::Tile>> TileIndex::query(const QString& path, const QString& tileItem,
                                                const QString& tileSrsItem, const MapView& view)
{
    CPLErrorReset();
    const QByteArray file = path.toUtf8();
    GDALDatasetH ds = GDALOpenEx(file.constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    if (!ds) {
        const QString msg = QString::fromUtf8(CPLGetLastErrorMsg());
        return Error(msg.isEmpty() ? QStringLiteral("not a vector dataset") : msg);
    }
    QList<Tile> tiles;
    OGRLayerH layer = GDALDatasetGetLayer(ds, 0);
    OGRFeatureDefnH defn = layer ? OGR_L_GetLayerDefn(layer) : nullptr;
    const int itemField = defn ? OGR_FD_GetFieldIndex(defn, tileItem.toUtf8().constData()) : -1;
    if (itemField < 0) {
        GDALClose(ds);
        return Error(QStringLiteral("no TILEITEM attribute '%1' in the index").arg(tileItem));
    }
    const int srsField = tileSrsItem.isEmpty() ? -1 : OGR_FD_GetFieldIndex(defn, tileSrsItem.toUtf8().constData());
    if (!tileSrsItem.isEmpty() && srsField < 0) {
        GDALClose(ds);
        return Error(QStringLiteral("no TILESRS attribute '%1' in the index").arg(tileSrsItem));
    }
    const Rect r = extentInIndexCrs(layer, view);
    OGR_L_SetSpatialFilterRect(layer, r.minx, r.miny, r.maxx, r.maxy);
    OGR_L_ResetReading(layer);
    while (OGRFeatureH f = OGR_L_GetNextFeature(layer)) {
        Tile t;
        t.location = QString::fromUtf8(OGR_F_GetFieldAsString(f, itemField)).trimmed();
        if (srsField >= 0 && OGR_F_IsFieldSetAndNotNull(f, srsField))
            t.srs = QString::fromUtf8(OGR_F_GetFieldAsString(f, srsField)).trimmed();
        if (!t.location.isEmpty()) tiles.append(t);
        OGR_F_Destroy(f);
    }
    GDALClose(ds);
    return tiles;
}

}  // namespace maptune
