#include "data/contour/contour_feature_source.h"

#include "data/list_cursor.h"
#include "data/tile_index.h"
#include "geo/map_view.h"
#include "mapfile/map_paths.h"
#include "mapfile/processing.h"

#include <gdal.h>
#include <gdal_alg.h>
#include <gdal_utils.h>
#include <ogr_api.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <vector>

namespace maptune {

namespace {

QStringList allValues(const LayerDef& layer, const QString& key)
{
    QStringList out;
    for (const QString& d : layer.processing) {
        const qsizetype eq = d.indexOf(QLatin1Char('='));
        if (eq > 0 && d.left(eq).trimmed().compare(key, Qt::CaseInsensitive) == 0) out << d.mid(eq + 1).trimmed();
    }
    return out;
}

// "minscale,maxscale:value" or "value": the value when the scale is in range.
std::optional<QString> valueAtScale(const QStringList& entries, double scaleDenom)
{
    for (const QString& e : entries) {
        const qsizetype colon = e.indexOf(QLatin1Char(':'));
        if (colon < 0) return e;
        const QStringList range = e.left(colon).split(QLatin1Char(','));
        if (range.size() != 2) continue;
        const double lo = range[0].toDouble(), hi = range[1].toDouble();
        if (scaleDenom <= 0 || (scaleDenom >= lo && scaleDenom < hi)) return e.mid(colon + 1);
    }
    return std::nullopt;
}

// A dataset of the query's own (the resampled grid, the generated lines).
struct ScratchDataset {
    GDALDatasetH dataset = nullptr;
    ~ScratchDataset()
    {
        if (dataset) GDALClose(dataset);
    }
};

}  // namespace

Result<ContourSettings> ContourSettings::fromLayer(const LayerDef& layer)
{
    ContourSettings s;
    const ProcessingOptions options(layer.processing);
    if (const auto bands = options.value(QStringLiteral("BANDS"))) {
        bool ok = false;
        s.band = bands->split(QLatin1Char(',')).first().trimmed().toInt(&ok);
        if (!ok || s.band < 1) return Error(QStringLiteral("PROCESSING BANDS=%1: a contour layer reads one band (BANDS=1)").arg(*bands));
    }
    s.item = options.value(QStringLiteral("CONTOUR_ITEM")).value_or(QString()).trimmed();
    s.intervals = allValues(layer, QStringLiteral("CONTOUR_INTERVAL"));
    s.levels = allValues(layer, QStringLiteral("CONTOUR_LEVELS"));
    if (s.intervals.isEmpty() && s.levels.isEmpty())
        return Error(QStringLiteral("a CONTOUR layer needs PROCESSING \"CONTOUR_INTERVAL=n\" or \"CONTOUR_LEVELS=a,b,...\""));
    for (const QString& i : s.intervals) {
        const QString v = i.contains(QLatin1Char(':')) ? i.mid(i.indexOf(QLatin1Char(':')) + 1) : i;
        bool ok = false;
        if (v.toDouble(&ok) <= 0 || !ok)
            return Error(QStringLiteral("PROCESSING CONTOUR_INTERVAL=%1: the interval must be a number above 0").arg(i));
    }
    return s;
}

std::optional<double> ContourSettings::intervalAt(double scaleDenom) const
{
    const auto v = valueAtScale(intervals, scaleDenom);
    if (!v) return std::nullopt;
    return v->toDouble();
}

QList<double> ContourSettings::levelsAt(double scaleDenom) const
{
    QList<double> out;
    if (const auto v = valueAtScale(levels, scaleDenom))
        for (const QString& part : v->split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const double level = part.trimmed().toDouble(&ok);
            if (ok) out << level;
        }
    return out;
}

Result<std::unique_ptr<ContourFeatureSource>> ContourFeatureSource::open(const QString& rasterPath, const LayerDef& layer)
{
    auto settings = ContourSettings::fromLayer(layer);
    if (!settings) return settings.error();
    GDALDatasetH ds = GDALOpenEx(QFile::encodeName(rasterPath).constData(), GDAL_OF_RASTER | GDAL_OF_READONLY,
                                 nullptr, nullptr, nullptr);
    if (!ds) return Error(QStringLiteral("cannot open '%1' as a raster for contours").arg(rasterPath));
    auto src = std::unique_ptr<ContourFeatureSource>(new ContourFeatureSource);
    src->m_dataset = ds;
    src->m_path = rasterPath;
    src->m_settings = std::move(*settings);
    if (src->m_settings.band > GDALGetRasterCount(ds))
        return Error(QStringLiteral("'%1' has %2 band(s), BANDS asks for band %3")
                         .arg(QFileInfo(rasterPath).fileName())
                         .arg(GDALGetRasterCount(ds))
                         .arg(src->m_settings.band));
    src->m_fields << QStringLiteral("ID");
    if (!src->m_settings.item.isEmpty()) src->m_fields << src->m_settings.item;
    if (GDALGetGeoTransform(ds, src->m_geoTransform) == CE_None) {
        const double* g = src->m_geoTransform;
        const double w = GDALGetRasterXSize(ds), h = GDALGetRasterYSize(ds);
        const double xs[] = {g[0], g[0] + w * g[1] + h * g[2]};
        const double ys[] = {g[3], g[3] + w * g[4] + h * g[5]};
        src->m_extent = Rect{std::min(xs[0], xs[1]), std::min(ys[0], ys[1]), std::max(xs[0], xs[1]), std::max(ys[0], ys[1])};
    }
    if (const char* wkt = GDALGetProjectionRef(ds); wkt && *wkt)
        if (auto crs = Crs::fromWkt(QByteArray(wkt))) src->m_crs = std::move(*crs);
    return src;
}

ContourFeatureSource::~ContourFeatureSource()
{
    if (m_dataset) GDALClose(static_cast<GDALDatasetH>(m_dataset));
}

Result<std::unique_ptr<ContourFeatureSource>> ContourFeatureSource::openTiled(const MapDef& map, const LayerDef& layer)
{
    auto settings = ContourSettings::fromLayer(layer);
    if (!settings) return settings.error();
    auto src = std::unique_ptr<ContourFeatureSource>(new ContourFeatureSource);
    src->m_settings = std::move(*settings);
    src->m_map = &map;
    src->m_layer = &layer;
    src->m_path = layer.tileIndex;
    src->m_fields << QStringLiteral("ID");
    if (!src->m_settings.item.isEmpty()) src->m_fields << src->m_settings.item;
    return src;
}

Result<std::unique_ptr<FeatureCursor>> ContourFeatureSource::query(const FeatureQuery& q)
{
    if (m_layer) return queryTiles(q);
    return contoursOf(m_dataset, m_path, q);
}

Result<std::unique_ptr<FeatureCursor>> ContourFeatureSource::queryTiles(const FeatureQuery& q) const
{
    MapView view;
    if (q.view) {
        view.extent = q.view->extent;
        view.width = q.view->width;
        view.height = q.view->height;
        view.crs = q.view->crs;
    } else {
        view.extent = q.bbox.isValid() ? q.bbox : Rect{-1e300, -1e300, 1e300, 1e300};
    }
    const QString indexPath = TileIndex::path(*m_map, *m_layer);
    const Result<QList<TileIndex::Tile>> tiles = TileIndex::query(indexPath, m_layer->tileItem, m_layer->tileSrs, view, m_layer);
    if (!tiles) return Error(QStringLiteral("cannot read tile index %1: %2").arg(m_layer->tileIndex, tiles.message()));
    if (tiles->isEmpty()) return std::unique_ptr<FeatureCursor>(std::make_unique<ListCursor>(m_fields, QList<Feature>()));
    // The tiles as one raster (a VRT in memory), as MapServer mosaics them.
    QList<QByteArray> paths;
    for (const TileIndex::Tile& t : *tiles) {
        QString p = resolveDataPath(*m_map, t.location);
        if (!QFileInfo::exists(p) && !QFileInfo(t.location).isAbsolute())
            p = QDir(QFileInfo(indexPath).absolutePath()).absoluteFilePath(t.location);
        paths << QFile::encodeName(p);
    }
    // The first tile of the index wins where tiles overlap (a VRT draws its
    // later sources over the earlier ones).
    std::vector<const char*> names;
    for (auto p = paths.crbegin(); p != paths.crend(); ++p) names.push_back(p->constData());
    int usageError = 0;
    ScratchDataset mosaic;
    mosaic.dataset = GDALBuildVRT("", int(names.size()), nullptr, names.data(), nullptr, &usageError);
    if (!mosaic.dataset)
        return Error(QStringLiteral("cannot mosaic the tiles of %1: %2").arg(m_layer->tileIndex, QString::fromUtf8(CPLGetLastErrorMsg())));
    if (m_settings.band > GDALGetRasterCount(mosaic.dataset))
        return Error(QStringLiteral("the tiles have %1 band(s), BANDS asks for band %2").arg(GDALGetRasterCount(mosaic.dataset)).arg(m_settings.band));
    return contoursOf(mosaic.dataset, m_layer->tileIndex, q);
}

Result<std::unique_ptr<FeatureCursor>> ContourFeatureSource::contoursOf(void* dataset, const QString& name, const FeatureQuery& q) const
{
    auto* ds = static_cast<GDALDatasetH>(dataset);
    double g[6] = {0, 1, 0, 0, 0, -1};
    GDALGetGeoTransform(ds, g);
    const int width = GDALGetRasterXSize(ds), height = GDALGetRasterYSize(ds);
    const auto empty = [this] { return std::unique_ptr<FeatureCursor>(std::make_unique<ListCursor>(m_fields, QList<Feature>())); };
    if (g[2] != 0 || g[4] != 0) return Error(QStringLiteral("'%1' is rotated: contours need a north-up raster").arg(name));

    // The raster window under the request, a pixel wider so that lines reach the edges.
    int x0 = 0, y0 = 0, x1 = width, y1 = height;
    if (q.bbox.isValid()) {
        const double px0 = (q.bbox.minx - g[0]) / g[1], px1 = (q.bbox.maxx - g[0]) / g[1];
        const double py0 = (q.bbox.maxy - g[3]) / g[5], py1 = (q.bbox.miny - g[3]) / g[5];
        x0 = std::max(0, int(std::floor(std::min(px0, px1))) - 1);
        x1 = std::min(width, int(std::ceil(std::max(px0, px1))) + 1);
        y0 = std::max(0, int(std::floor(std::min(py0, py1))) - 1);
        y1 = std::min(height, int(std::ceil(std::max(py0, py1))) + 1);
    }
    if (x1 - x0 < 2 || y1 - y0 < 2) return empty();
    // Sampled at the map's cell size, never finer than the raster itself.
    const double step = q.cellSize > 0 ? std::max(1.0, q.cellSize / std::abs(g[1])) : 1.0;
    const int outW = std::max(2, int(std::lround((x1 - x0) / step)));
    const int outH = std::max(2, int(std::lround((y1 - y0) / step)));
    GDALRasterBandH band = GDALGetRasterBand(ds, m_settings.band);
    std::vector<double> values(size_t(outW) * size_t(outH));
    if (GDALRasterIO(band, GF_Read, x0, y0, x1 - x0, y1 - y0, values.data(), outW, outH, GDT_Float64, 0, 0) != CE_None)
        return Error(QStringLiteral("reading '%1' failed: %2").arg(name, QString::fromUtf8(CPLGetLastErrorMsg())));
    if (q.cancel.isCancelled()) return empty();

    ScratchDataset grid;
    grid.dataset = GDALCreate(GDALGetDriverByName("MEM"), "", outW, outH, 1, GDT_Float64, nullptr);
    if (!grid.dataset) return Error(QStringLiteral("GDAL's MEM driver is missing"));
    const double gridTransform[6] = {g[0] + x0 * g[1], g[1] * (x1 - x0) / outW, 0, g[3] + y0 * g[5], 0, g[5] * (y1 - y0) / outH};
    GDALSetGeoTransform(grid.dataset, const_cast<double*>(gridTransform));
    GDALRasterBandH gridBand = GDALGetRasterBand(grid.dataset, 1);
    int hasNoData = 0;
    const double noData = GDALGetRasterNoDataValue(band, &hasNoData);
    if (hasNoData) GDALSetRasterNoDataValue(gridBand, noData);
    if (GDALRasterIO(gridBand, GF_Write, 0, 0, outW, outH, values.data(), outW, outH, GDT_Float64, 0, 0) != CE_None)
        return Error(QStringLiteral("contour grid: %1").arg(QString::fromUtf8(CPLGetLastErrorMsg())));

    ScratchDataset lines;
    lines.dataset = GDALCreate(GDALGetDriverByName("Memory"), "", 0, 0, 0, GDT_Unknown, nullptr);
    if (!lines.dataset) return Error(QStringLiteral("GDAL's Memory driver is missing"));
    OGRLayerH layer = GDALDatasetCreateLayer(lines.dataset, "contour", nullptr, wkbLineString, nullptr);
    OGRFieldDefnH id = OGR_Fld_Create("ID", OFTInteger);
    OGR_L_CreateField(layer, id, TRUE);
    OGR_Fld_Destroy(id);
    OGRFieldDefnH elev = OGR_Fld_Create("elev", OFTReal);
    OGR_L_CreateField(layer, elev, TRUE);
    OGR_Fld_Destroy(elev);

    QList<QByteArray> options{"ID_FIELD=0", "ELEV_FIELD=1"};
    if (const auto interval = m_settings.intervalAt(q.scaleDenom)) {
        options << "LEVEL_INTERVAL=" + QByteArray::number(*interval, 'g', 17);
    } else {
        const QList<double> levels = m_settings.levelsAt(q.scaleDenom);
        if (levels.isEmpty()) return empty();  // no contours at this scale
        QByteArray fixed = "FIXED_LEVELS=";
        for (int i = 0; i < levels.size(); ++i) fixed += (i ? "," : "") + QByteArray::number(levels[i], 'g', 17);
        options << fixed;
    }
    if (hasNoData) options << "NODATA=" + QByteArray::number(noData, 'g', 17);
    std::vector<char*> argv;
    for (QByteArray& o : options) argv.push_back(o.data());
    argv.push_back(nullptr);
    if (GDALContourGenerateEx(gridBand, layer, argv.data(), nullptr, nullptr) != CE_None)
        return Error(QStringLiteral("contour generation failed: %1").arg(QString::fromUtf8(CPLGetLastErrorMsg())));

    QList<Feature> features;
    std::vector<unsigned char> wkb;
    OGR_L_ResetReading(layer);
    while (OGRFeatureH f = OGR_L_GetNextFeature(layer)) {
        if (q.cancel.isCancelled()) {
            OGR_F_Destroy(f);
            return empty();
        }
        Feature feature;
        OGRGeometryH geometry = OGR_F_GetGeometryRef(f);
        if (geometry && !OGR_G_IsEmpty(geometry)) {
            wkb.resize(size_t(OGR_G_WkbSize(geometry)));
            OGR_G_ExportToIsoWkb(geometry, wkbNDR, wkb.data());
            if (decodeWkb(wkb.data(), wkb.size(), feature.geometry)) {
                feature.id = OGR_F_GetFieldAsInteger64(f, 0);
                feature.values << QString::number(feature.id);
                if (!m_settings.item.isEmpty()) feature.values << QString::fromUtf8(OGR_F_GetFieldAsString(f, 1));
                features << std::move(feature);
            }
        }
        OGR_F_Destroy(f);
        if (q.maxFeatures >= 0 && features.size() >= q.maxFeatures) break;
    }
    return std::unique_ptr<FeatureCursor>(std::make_unique<ListCursor>(m_fields, std::move(features)));
}

}  // namespace maptune
