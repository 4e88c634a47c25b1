#include "data/tile_index.h"

#include "expr/feature_classifier.h"
#include "geo/map_view.h"
#include "mapfile/map_paths.h"

#include <QFileInfo>

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

QString TileIndex::path(const MapDef& map, const LayerDef& layer)
{
    // A layer of that NAME comes first, as in msDrawRasterLayerLow.
    for (const LayerDef& other : map.layers)
        if (&other != &layer && other.name.compare(layer.tileIndex, Qt::CaseInsensitive) == 0 && !other.data.isEmpty()) {
            const QString data = resolveDataPath(map, other.data);
            return QFileInfo::exists(data) || !QFileInfo::exists(data + QLatin1String(".shp")) ? data : data + QLatin1String(".shp");
        }
    return resolveDataPath(map, layer.tileIndex);
}

Result<QList<TileIndex::Tile>> TileIndex::query(const QString& path, const QString& tileItem,
                                                const QString& tileSrsItem, const MapView& view, const LayerDef* filterOf)
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
    // The layer's FILTER, read against the index's attributes.
    std::optional<FeatureClassifier> filter;
    const int fieldCount = OGR_FD_GetFieldCount(defn);
    if (filterOf && filterOf->filter.type != ExpressionDef::Type::None) {
        LayerDef only;
        only.name = filterOf->name;
        only.filter = filterOf->filter;
        only.filterItem = filterOf->filterItem;
        filter.emplace();
        QStringList names;
        for (int i = 0; i < fieldCount; ++i) names << QString::fromUtf8(OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(defn, i)));
        if (const Status compiled = filter->compile(only); !compiled) {
            GDALClose(ds);
            return Error(compiled.message());
        }
        if (const Status bound = filter->bind(names); !bound) {
            GDALClose(ds);
            return Error(QStringLiteral("FILTER on the tile index: ") + bound.message());
        }
    }
    const Rect r = extentInIndexCrs(layer, view);
    OGR_L_SetSpatialFilterRect(layer, r.minx, r.miny, r.maxx, r.maxy);
    OGR_L_ResetReading(layer);
    QStringList values;
    while (OGRFeatureH f = OGR_L_GetNextFeature(layer)) {
        if (filter) {
            values.clear();
            for (int i = 0; i < fieldCount; ++i) values << QString::fromUtf8(OGR_F_GetFieldAsString(f, i));
            if (!filter->passesFilter(values)) {
                OGR_F_Destroy(f);
                continue;
            }
        }
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
