#include "wms/mapserv/ogr_query_output.h"

#include "wms/gml_items.h"

#include <cpl_string.h>
#include <cpl_vsi.h>
#include <gdal_priv.h>
#include <ogr_geometry.h>
#include <ogrsf_frmts.h>

#include <QAtomicInteger>
#include <QFileInfo>

#include <memory>

namespace maptune {

namespace {

OGRFieldType fieldType(const QString& type)
{
    const QString t = type.toLower();
    if (t == QLatin1String("integer") || t == QLatin1String("boolean")) return OFTInteger;
    if (t == QLatin1String("long")) return OFTInteger64;
    if (t == QLatin1String("real")) return OFTReal;
    if (t == QLatin1String("date")) return OFTDate;
    if (t == QLatin1String("time")) return OFTTime;
    if (t == QLatin1String("datetime")) return OFTDateTime;
    return OFTString;
}

OGRwkbGeometryType layerGeometryType(LayerType type)
{
    switch (type) {
    case LayerType::Point: return wkbPoint;
    case LayerType::Line: return wkbLineString;
    case LayerType::Polygon: return wkbPolygon;
    default: return wkbUnknown;
    }
}

// Our flat rings back into OGR geometry; polygon rings are sorted into
// shells and holes by OGR, as the even-odd rule drew them.
std::unique_ptr<OGRGeometry> toOgr(const Geometry& g)
{
    if (g.isEmpty()) return nullptr;
    auto line = [&](int p, auto* out) {
        for (int i = g.partStart[p]; i < g.partEnd(p); ++i) out->addPoint(g.xy[2 * i], g.xy[2 * i + 1]);
    };
    if (g.type == Geometry::Type::Point) {
        if (g.pointCount() == 1) return std::make_unique<OGRPoint>(g.xy[0], g.xy[1]);
        auto multi = std::make_unique<OGRMultiPoint>();
        for (int i = 0; i < g.pointCount(); ++i) multi->addGeometryDirectly(new OGRPoint(g.xy[2 * i], g.xy[2 * i + 1]));
        return multi;
    }
    if (g.type == Geometry::Type::Line) {
        auto multi = std::make_unique<OGRMultiLineString>();
        for (int p = 0; p < g.partCount(); ++p) {
            auto* ls = new OGRLineString();
            line(p, ls);
            multi->addGeometryDirectly(ls);
        }
        if (g.partCount() == 1) return std::unique_ptr<OGRGeometry>(multi->getGeometryRef(0)->clone());
        return multi;
    }
    std::vector<OGRGeometry*> polygons;
    for (int p = 0; p < g.partCount(); ++p) {
        auto* ring = new OGRLinearRing();
        line(p, ring);
        ring->closeRings();
        auto* poly = new OGRPolygon();
        poly->addRingDirectly(ring);
        polygons.push_back(poly);
    }
    int valid = 0;
    return std::unique_ptr<OGRGeometry>(
        OGRGeometryFactory::organizePolygons(polygons.data(), int(polygons.size()), &valid, nullptr));
}

}  // namespace

Result<Response> ogrQueryResponse(const MapDef& map, const OutputFormatDef& format, const CgiQueryResults& results,
                                  const QString& wkt)
{
    const QString driverName = format.driver.mid(format.driver.indexOf(QLatin1Char('/')) + 1);
    GDALDriver* driver = GetGDALDriverManager()->GetDriverByName(driverName.toUtf8().constData());
    if (!driver) return Error(QStringLiteral("msOGRWriteFromQuery(): OGR error. No OGR driver named `%1' available.").arg(driverName));
    const QString form = format.formatOptions.value(QStringLiteral("FORM"), QStringLiteral("zip")).toLower();
    if (form != QLatin1String("simple") && form != QLatin1String("zip") && form != QLatin1String("multipart"))
        return Error(QStringLiteral("msOGRWriteFromQuery(): OGR error. Unsupported FORM=%1 value.").arg(form));
    if (form != QLatin1String("simple"))
        return Error(QStringLiteral("msOGRWriteFromQuery(): OGR error. FORM=%1 is not supported by MapTune; use FORM=simple.").arg(form));
    QString filename = format.formatOptions.value(QStringLiteral("FILENAME"), QStringLiteral("result.dat"));
    if (filename.contains(QLatin1Char('/')) || filename.contains(QLatin1Char('\\')) || filename.contains(QLatin1Char(':')))
        return Error(QStringLiteral("msOGRWriteFromQuery(): OGR error. Invalid FILENAME value."));

    // A directory of its own per request: many requests write at once.
    static QAtomicInteger<quint64> counter;
    const QString dir = QStringLiteral("/vsimem/maptune_ogr_out/%1").arg(counter.fetchAndAddRelaxed(1));
    const QString path = dir + QLatin1Char('/') + filename;
    VSIMkdirRecursive(dir.toUtf8().constData(), 0755);  // drivers that write files need the directory to exist
    CPLStringList datasetOptions, layerOptions;
    for (const auto& [k, v] : format.formatOptions.items) {
        if (k.startsWith(QLatin1String("DSCO:"), Qt::CaseInsensitive))
            datasetOptions.SetNameValue(k.mid(5).toUtf8().constData(), v.toUtf8().constData());
        if (k.startsWith(QLatin1String("LCO:"), Qt::CaseInsensitive))
            layerOptions.SetNameValue(k.mid(4).toUtf8().constData(), v.toUtf8().constData());
    }
    OGRSpatialReference srs;
    const bool hasSrs = !wkt.isEmpty() && srs.SetFromUserInput(wkt.toUtf8().constData()) == OGRERR_NONE;
    if (hasSrs) srs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
    {
        std::unique_ptr<GDALDataset> ds(driver->Create(path.toUtf8().constData(), 0, 0, 0, GDT_Unknown, datasetOptions.List()));
        if (!ds) return Error(QStringLiteral("msOGRWriteFromQuery(): OGR error. Failed to create %1: %2").arg(filename, QString::fromUtf8(CPLGetLastErrorMsg())));
        for (const QueryLayerResult& result : results.layers) {
            const LayerDef& layer = map.layers[result.layer];
            OGRLayer* out = ds->CreateLayer(layer.name.toUtf8().constData(), hasSrs ? &srs : nullptr,
                                            layerGeometryType(layer.type), layerOptions.List());
            if (!out) return Error(QStringLiteral("msOGRWriteFromQuery(): OGR error. Failed to create layer '%1'.").arg(layer.name));
            const QStringList& fields = result.selected.fields;
            const QList<GmlItem> items = visibleGmlItems(layer, fields, &map);
            for (const GmlItem& item : items) {
                OGRFieldDefn def(item.alias.toUtf8().constData(), fieldType(item.type));
                if (item.width) def.SetWidth(item.width);
                if (item.precision) def.SetPrecision(item.precision);
                if (out->CreateField(&def) != OGRERR_NONE)
                    return Error(QStringLiteral("msOGRWriteFromQuery(): OGR error. Failed to create field '%1'.").arg(item.alias));
            }
            for (const Feature& f : result.selected.features) {
                OGRFeature feature(out->GetLayerDefn());
                for (int k = 0; k < items.size(); ++k) {
                    const QString value = items[k].field < f.values.size() ? f.values[items[k].field] : QString();
                    if (value.isEmpty() && feature.GetFieldDefnRef(k)->GetType() != OFTString) continue;
                    feature.SetField(k, value.toUtf8().constData());
                }
                if (auto g = toOgr(f.geometry)) feature.SetGeometryDirectly(g.release());
                if (out->CreateFeature(&feature) != OGRERR_NONE)
                    return Error(QStringLiteral("msOGRWriteFromQuery(): OGR error. Failed to write a feature of layer '%1'.").arg(layer.name));
            }
        }
    }
    vsi_l_offset size = 0;
    GByte* bytes = VSIGetMemFileBuffer(path.toUtf8().constData(), &size, FALSE);
    Response r;
    if (bytes) r.body = QByteArray(reinterpret_cast<const char*>(bytes), qsizetype(size));
    VSIRmdirRecursive(dir.toUtf8().constData());
    if (!bytes) return Error(QStringLiteral("msOGRWriteFromQuery(): OGR error. The driver wrote no %1.").arg(filename));
    r.headers.append({"Content-Disposition", "attachment; filename=" + QFileInfo(filename).fileName().toUtf8()});
    if (!format.mimeType.isEmpty()) r.headers.append({"Content-Type", format.mimeType.toUtf8()});
    return r;
}

}  // namespace maptune
