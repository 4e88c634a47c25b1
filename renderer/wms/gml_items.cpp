#include "wms/gml_items.h"

#include "mapfile/map_paths.h"

#include <gdal.h>
#include <ogr_api.h>

#include <QFileInfo>
#include <QHash>

namespace maptune {

namespace {

struct FieldSchema {
    QString type;
    int width = 0, precision = 0;
};

// The layer's own field definitions, keyed by lower-case name; empty when
// the data does not open through OGR (PostGIS, inline features ...).
QHash<QString, FieldSchema> sourceSchema(const MapDef& map, const LayerDef& layer)
{
    QHash<QString, FieldSchema> out;
    const bool shapefile = layer.connectionType == ConnectionType::Local;
    if (!shapefile && layer.connectionType != ConnectionType::OGR) return out;
    QString path = resolveDataPath(map, shapefile ? layer.data : layer.connection);
    if (shapefile && !path.endsWith(QLatin1String(".shp"), Qt::CaseInsensitive) && !QFileInfo::exists(path))
        path += QStringLiteral(".shp");
    GDALDatasetH ds = GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    if (!ds) return out;
    OGRLayerH ogrLayer = GDALDatasetGetLayer(ds, 0);
    if (!shapefile && !layer.data.isEmpty()) {
        if (OGRLayerH named = GDALDatasetGetLayerByName(ds, layer.data.toUtf8().constData())) ogrLayer = named;
    }
    OGRFeatureDefnH defn = ogrLayer ? OGR_L_GetLayerDefn(ogrLayer) : nullptr;
    for (int i = 0; defn && i < OGR_FD_GetFieldCount(defn); ++i) {
        OGRFieldDefnH f = OGR_FD_GetFieldDefn(defn, i);
        FieldSchema schema;
        schema.width = OGR_Fld_GetWidth(f);
        switch (OGR_Fld_GetType(f)) {
        case OFTInteger:
            schema.type = !shapefile && OGR_Fld_GetSubType(f) == OFSTBoolean ? QStringLiteral("Boolean") : QStringLiteral("Integer");
            break;
        // MapServer's own DBF reader knows no 64-bit integers.
        case OFTInteger64: schema.type = shapefile ? QStringLiteral("Integer") : QStringLiteral("Long"); break;
        case OFTReal:
            schema.type = QStringLiteral("Real");
            schema.precision = OGR_Fld_GetPrecision(f);
            break;
        case OFTDate: schema.type = shapefile ? QStringLiteral("Integer") : QStringLiteral("Date"); break;
        case OFTTime: schema.type = QStringLiteral("Time"); break;
        case OFTDateTime: schema.type = QStringLiteral("DateTime"); break;
        default: schema.type = QStringLiteral("Character"); break;
        }
        out.insert(QString::fromUtf8(OGR_Fld_GetNameRef(f)).toLower(), schema);
    }
    GDALClose(ds);
    return out;
}

bool listed(const QStringList& list, const QString& name)
{
    for (const QString& s : list)
        if (s.trimmed().compare(name, Qt::CaseInsensitive) == 0) return true;
    return false;
}

}  // namespace

QList<GmlItem> visibleGmlItems(const LayerDef& layer, const QStringList& fields, const MapDef* map)
{
    const auto meta = [&](const QString& key) { return layer.metadata.value(QStringLiteral("gml_") + key, QString()); };
    const QStringList include = meta(QStringLiteral("include_items")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    const QStringList exclude = meta(QStringLiteral("exclude_items")).split(QLatin1Char(','), Qt::SkipEmptyParts);
    const bool all = include.size() == 1 && include.first().trimmed().compare(QLatin1String("all"), Qt::CaseInsensitive) == 0;
    const bool autoTypes = map && meta(QStringLiteral("types")).compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0;
    const QHash<QString, FieldSchema> schema = autoTypes ? sourceSchema(*map, layer) : QHash<QString, FieldSchema>();
    QList<GmlItem> out;
    for (int i = 0; i < fields.size(); ++i) {
        const QString& name = fields[i];
        if (!(all || listed(include, name)) || listed(exclude, name)) continue;
        GmlItem item;
        item.field = i;
        item.name = name;
        item.alias = layer.metadata.value(QStringLiteral("gml_%1_alias").arg(name), name);
        item.type = meta(name + QStringLiteral("_type"));
        item.width = meta(name + QStringLiteral("_width")).toInt();
        item.precision = meta(name + QStringLiteral("_precision")).toInt();
        // msUpdateGMLFieldMetadata: what the mapfile says is kept.
        if (const auto found = schema.constFind(name.toLower()); found != schema.constEnd()) {
            if (item.type.isEmpty()) item.type = found->type;
            if (!layer.metadata.value(QStringLiteral("gml_%1_width").arg(name)) && found->width > 0) item.width = found->width;
            if (!layer.metadata.value(QStringLiteral("gml_%1_precision").arg(name)) && found->precision > 0) item.precision = found->precision;
        }
        out << item;
    }
    return out;
}

}  // namespace maptune
