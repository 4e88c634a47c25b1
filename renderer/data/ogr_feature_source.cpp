#include "data/ogr_feature_source.h"

#include "data/open_file_cache.h"

#include <gdal.h>
#include <ogr_api.h>
#include <cpl_conv.h>
#include <cpl_error.h>
#include <ogr_srs_api.h>


#include <vector>

namespace maptune {

namespace {

void closeDataset(GDALDatasetH& h) { GDALClose(h); }

Result<GDALDatasetH> openDataset(const QString& path)
{
    thread_local OpenFileCache<GDALDatasetH, closeDataset> cache;
    if (const auto h = cache.find(path)) return *h;
    GDALDatasetH h = GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    if (!h) return Error(QStringLiteral("cannot open '%1': %2").arg(path, QString::fromUtf8(CPLGetLastErrorMsg())));
    cache.insert(path, h);
    return h;
}

void appendPoints(OGRGeometryH g, Geometry& out, Geometry::Type type)
{
    if (int(type) > int(out.type)) out.type = type;
    const int n = OGR_G_GetPointCount(g);
    out.partStart.push_back(out.pointCount());
    const size_t at = out.xy.size();
    out.xy.resize(at + 2 * size_t(n));
    if (n > 0) OGR_G_GetPoints(g, &out.xy[at], 2 * sizeof(double), &out.xy[at + 1], 2 * sizeof(double), nullptr, 0);
}

// OGR's geometry straight into ours, as decodeWkb would read its WKB but
// without writing and parsing the WKB. False for types it does not handle
// (curves), which then take the WKB path.
bool readOgrGeometry(OGRGeometryH g, Geometry& out)
{
    switch (wkbFlatten(OGR_G_GetGeometryType(g))) {
    case wkbPoint: appendPoints(g, out, Geometry::Type::Point); return true;
    case wkbLineString: appendPoints(g, out, Geometry::Type::Line); return true;
    case wkbPolygon:
        for (int i = 0; i < OGR_G_GetGeometryCount(g); ++i)
            appendPoints(OGR_G_GetGeometryRef(g, i), out, Geometry::Type::Polygon);
        if (int(out.type) < int(Geometry::Type::Polygon)) out.type = Geometry::Type::Polygon;
        return true;
    case wkbMultiPoint:
    case wkbMultiLineString:
    case wkbMultiPolygon:
    case wkbGeometryCollection:
        for (int i = 0; i < OGR_G_GetGeometryCount(g); ++i)
            if (!readOgrGeometry(OGR_G_GetGeometryRef(g, i), out)) return false;
        return true;
    default: return false;
    }
}

class OgrCursor : public FeatureCursor {
public:
    OgrCursor(OGRLayerH layer, const QStringList& fields, QList<int> fieldIndexes, const FeatureQuery& q)
        : m_layer(layer), m_fields(fields), m_indexes(std::move(fieldIndexes)), m_query(q)
    {
    }
    const QStringList& fields() const override { return m_fields; }
    QString error() const override { return m_error; }
    bool next(Feature& f) override
    {
        if (m_query.maxFeatures >= 0 && m_count >= m_query.maxFeatures) return false;
        for (;;) {
            if (m_query.cancel.isCancelled()) return false;
            // A damaged file (a .shp cut short, a broken .shx) makes OGR skip
            // records with a CE_Failure: the layer failed, not ended.
            CPLErrorReset();
            OGRFeatureH h = OGR_L_GetNextFeature(m_layer);
            if (CPLGetLastErrorType() >= CE_Failure) {
                m_error = QStringLiteral("reading features failed: %1").arg(QString::fromUtf8(CPLGetLastErrorMsg()));
                OGR_F_Destroy(h);
                return false;
            }
            if (!h) return false;
            OGRGeometryH g = OGR_F_GetGeometryRef(h);
            if (!g || OGR_G_IsEmpty(g)) {
                OGR_F_Destroy(h);
                continue;
            }
            f.geometry.clear();
            bool ok = readOgrGeometry(g, f.geometry);
            if (!ok) {
                const int n = OGR_G_WkbSize(g);
                m_wkb.resize(size_t(n));
                OGR_G_ExportToIsoWkb(g, wkbNDR, m_wkb.data());
                // A record OGR hands over that does not decode is skipped, not fatal.
                ok = decodeWkb(m_wkb.data(), m_wkb.size(), f.geometry).ok();
            }
            f.id = OGR_F_GetFID(h);
            f.values.resize(m_indexes.size());
            for (qsizetype i = 0; i < m_indexes.size(); ++i) {
                const int idx = m_indexes[i];
                f.values[i] = (idx >= 0 && OGR_F_IsFieldSetAndNotNull(h, idx))
                                  ? QString::fromUtf8(OGR_F_GetFieldAsString(h, idx))
                                  : QString();
            }
            if (m_query.featureStyle) {
                const char* style = OGR_F_GetStyleString(h);
                f.style = style ? QString::fromUtf8(style) : QString();
            }
            OGR_F_Destroy(h);
            if (!ok) continue;
            ++m_count;
            return true;
        }
    }

private:
    OGRLayerH m_layer;
    QStringList m_fields;
    QList<int> m_indexes;
    FeatureQuery m_query;
    std::vector<unsigned char> m_wkb;
    int m_count = 0;
    QString m_error;
};

}  // namespace

Result<std::unique_ptr<OgrFeatureSource>> OgrFeatureSource::open(const QString& path, const QString& layerSpec,
                                                                 const QString& nativeFilter)
{
    const Result<GDALDatasetH> opened = openDataset(path);
    if (!opened) return opened.error();
    GDALDatasetH ds = *opened;
    auto src = std::unique_ptr<OgrFeatureSource>(new OgrFeatureSource);
    src->m_dataset = ds;
    src->m_nativeFilter = nativeFilter;
    const QString spec = layerSpec.trimmed();
    if (spec.startsWith(QLatin1String("select "), Qt::CaseInsensitive)) {
        src->m_layer = GDALDatasetExecuteSQL(ds, spec.toUtf8().constData(), nullptr, nullptr);
        src->m_sqlLayer = true;
    } else if (spec.isEmpty()) {
        src->m_layer = GDALDatasetGetLayer(ds, 0);
    } else {
        bool isIndex = false;
        const int index = spec.toInt(&isIndex);
        src->m_layer = isIndex ? GDALDatasetGetLayer(ds, index) : GDALDatasetGetLayerByName(ds, spec.toUtf8().constData());
        if (!src->m_layer && GDALDatasetGetLayerCount(ds) == 1) src->m_layer = GDALDatasetGetLayer(ds, 0);
    }
    if (!src->m_layer) return Error(QStringLiteral("'%1' has no layer '%2'").arg(path, spec));
    OGRFeatureDefnH defn = OGR_L_GetLayerDefn(src->m_layer);
    for (int i = 0; i < OGR_FD_GetFieldCount(defn); ++i)
        src->m_fields << QString::fromUtf8(OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(defn, i)));
    return src;
}

OgrFeatureSource::~OgrFeatureSource()
{
    if (m_sqlLayer && m_layer) GDALDatasetReleaseResultSet(m_dataset, m_layer);
}

std::optional<Crs> OgrFeatureSource::nativeCrs() const
{
    OGRSpatialReferenceH srs = OGR_L_GetSpatialRef(m_layer);
    if (!srs) return std::nullopt;
    char* wkt = nullptr;
    OSRExportToWkt(srs, &wkt);
    std::optional<Crs> crs = Crs::fromWkt(QByteArray(wkt)).toOptional();
    CPLFree(wkt);
    return crs;
}

QString OgrFeatureSource::layerMetadata(const char* key, const char* domain) const
{
    return QString::fromUtf8(GDALGetMetadataItem(m_layer, key, domain));
}

std::optional<Rect> OgrFeatureSource::extent() const
{
    OGREnvelope e;
    if (OGR_L_GetExtent(m_layer, &e, TRUE) != OGRERR_NONE) return std::nullopt;
    return Rect{e.MinX, e.MinY, e.MaxX, e.MaxY};
}

Result<std::unique_ptr<FeatureCursor>> OgrFeatureSource::query(const FeatureQuery& q)
{
    if (q.bbox.isValid())
        OGR_L_SetSpatialFilterRect(m_layer, q.bbox.minx, q.bbox.miny, q.bbox.maxx, q.bbox.maxy);
    else
        OGR_L_SetSpatialFilter(m_layer, nullptr);
    if (OGR_L_SetAttributeFilter(m_layer, m_nativeFilter.isEmpty() ? nullptr : m_nativeFilter.toUtf8().constData())
        != OGRERR_NONE)
        return Error(QStringLiteral("invalid NATIVE_FILTER '%1'").arg(m_nativeFilter));
    OGR_L_ResetReading(m_layer);
    // Fields nobody asked for are not even parsed (a DBF record has them all):
    // this halves the read time of a road layer that styles by one column.
    {
        std::vector<QByteArray> ignored;
        // An OGR attribute filter needs its fields parsed: ignore nothing then.
        const bool everything = q.attributes.contains(QStringLiteral("*")) || !m_nativeFilter.isEmpty();
        for (const QString& f : m_fields) {
            bool wanted = everything;
            for (const QString& a : q.attributes) wanted = wanted || a.compare(f, Qt::CaseInsensitive) == 0;
            if (!wanted) ignored.push_back(f.toUtf8());
        }
        ignored.push_back("OGR_STYLE");
        std::vector<const char*> list;
        for (const QByteArray& b : ignored) list.push_back(b.constData());
        list.push_back(nullptr);
        OGR_L_SetIgnoredFields(m_layer, list.data());
    }
    QStringList names;
    QList<int> indexes;
    const bool all = q.attributes.contains(QStringLiteral("*"));
    const QStringList& wanted = all ? m_fields : q.attributes;
    for (const QString& name : wanted) {
        int idx = -1;
        for (qsizetype i = 0; i < m_fields.size(); ++i)
            if (m_fields[i].compare(name, Qt::CaseInsensitive) == 0) { idx = int(i); break; }
        names << name;
        indexes << idx;
    }
    return std::unique_ptr<FeatureCursor>(std::make_unique<OgrCursor>(m_layer, names, indexes, q));
}

}  // namespace maptune
