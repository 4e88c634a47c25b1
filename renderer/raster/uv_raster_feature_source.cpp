#include "raster/uv_raster_feature_source.h"

#include "data/list_cursor.h"
#include "geo/coordinate_transform.h"
#include "geo/map_projection.h"
#include "geo/map_view.h"
#include "mapfile/processing.h"
#include "raster/raster_composer.h"
#include "raster/raw_band_resampler.h"

#include <gdal.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace maptune {

namespace {

const QStringList kFields{QStringLiteral("uv_angle"), QStringLiteral("uv_minus_angle"), QStringLiteral("uv_length"),
                          QStringLiteral("uv_length_2"), QStringLiteral("u"), QStringLiteral("v")};

// A view asking for more points than this is refused rather than drawn.
constexpr qint64 kMaxPoints = 16ll << 20;

QString number(double v) { return QString::asprintf("%f", v); }

bool isLonWrap(const QString& arg) { return arg.startsWith(QLatin1String("lon_wrap=")) || arg.startsWith(QLatin1String("+lon_wrap=")); }

// MapServer's MS_CELLSIZE: a centre-to-centre span over (pixels - 1).
double cellSize(double span, int pixels) { return pixels > 1 ? span / (pixels - 1) : span; }

Feature uvFeature(qint64 id, double x, double y, float u, float v, double sizeScale)
{
    const double angle = std::atan2(double(v), double(u)) * 180 / M_PI;
    double minus = angle + 180;
    if (minus >= 360) minus -= 360;
    // In single precision, as MapServer computes it.
    const float length = float(std::sqrt(double(u * u + v * v)) * sizeScale);
    Feature f;
    f.id = id;
    f.geometry.type = Geometry::Type::Point;
    f.geometry.xy = {x, y};
    f.geometry.partStart = {0};
    f.values = {number(angle), number(minus), number(length), number(length / 2), number(u), number(v)};
    return f;
}

// Swaps a raster's left and right halves (MapServer's inline VRT for a
// 0..360 raster drawn on a -180..180 map).
QByteArray swappedHemispheresVrt(GDALDatasetH ds, const QString& path)
{
    const int w = GDALGetRasterXSize(ds), h = GDALGetRasterYSize(ds), half = w / 2;
    const QByteArray file = path.toUtf8();
    QByteArray xml = QByteArray("<VRTDataset rasterXSize=\"") + QByteArray::number(w) + "\" rasterYSize=\"" + QByteArray::number(h) + "\">";
    const auto source = [&](int band, int srcX, int width, int dstX) {
        return QByteArray("<SimpleSource><SourceFilename relativeToVrt=\"0\"><![CDATA[") + file + "]]></SourceFilename><SourceBand>"
            + QByteArray::number(band) + "</SourceBand><SrcRect xOff=\"" + QByteArray::number(srcX) + "\" yOff=\"0\" xSize=\""
            + QByteArray::number(width) + "\" ySize=\"" + QByteArray::number(h) + "\"/><DstRect xOff=\"" + QByteArray::number(dstX)
            + "\" yOff=\"0\" xSize=\"" + QByteArray::number(width) + "\" ySize=\"" + QByteArray::number(h) + "\"/></SimpleSource>";
    };
    for (int b = 1; b <= GDALGetRasterCount(ds); ++b) {
        const char* type = GDALGetDataTypeName(GDALGetRasterDataType(GDALGetRasterBand(ds, b)));
        xml += QByteArray("<VRTRasterBand dataType=\"") + type + "\" band=\"" + QByteArray::number(b) + "\">";
        xml += source(b, half, w - half, 0) + source(b, 0, half, w - half);
        xml += "</VRTRasterBand>";
    }
    return xml + "</VRTDataset>";
}

}  // namespace

Result<UvRasterSettings> UvRasterSettings::fromLayer(const LayerDef& layer)
{
    UvRasterSettings s;
    const ProcessingOptions options(layer.processing);
    if (const auto bands = options.value(QStringLiteral("BANDS"))) {
        const QStringList parts = bands->split(QLatin1Char(','));
        bool okU = false, okV = false;
        s.uBand = parts.value(0).trimmed().toInt(&okU);
        s.vBand = parts.value(1).trimmed().toInt(&okV);
        if (parts.size() != 2 || !okU || !okV || s.uBand < 1 || s.vBand < 1)
            return Error(QStringLiteral("PROCESSING BANDS=%1: a UVRASTER layer reads two bands, u then v (BANDS=1,2)").arg(*bands));
    }
    if (const auto spacing = options.value(QStringLiteral("UV_SPACING"))) {
        bool ok = false;
        s.spacing = spacing->trimmed().toInt(&ok);
        if (!ok || s.spacing < 1 || s.spacing > 4096)
            return Error(QStringLiteral("PROCESSING UV_SPACING=%1: pixels between points, 1 to 4096").arg(*spacing));
    }
    if (const auto scale = options.value(QStringLiteral("UV_SIZE_SCALE"))) {
        bool ok = false;
        s.sizeScale = scale->trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(s.sizeScale)) return Error(QStringLiteral("PROCESSING UV_SIZE_SCALE=%1: not a number").arg(*scale));
    }
    return s;
}

Result<std::unique_ptr<UvRasterFeatureSource>> UvRasterFeatureSource::open(const QString& rasterPath, const LayerDef& layer,
                                                                           const QString& mapDir)
{
    Result<UvRasterSettings> settings = UvRasterSettings::fromLayer(layer);
    if (!settings) return settings.error();
    GDALDatasetH ds = GDALOpen(rasterPath.toUtf8().constData(), GA_ReadOnly);
    if (!ds) return Error(QStringLiteral("UVRASTER: cannot open '%1' as a raster").arg(rasterPath));
    std::unique_ptr<UvRasterFeatureSource> src(new UvRasterFeatureSource);
    src->m_dataset = ds;
    src->m_settings = *settings;
    src->m_layer = layer;
    const int bands = GDALGetRasterCount(ds);
    if (std::max(settings->uBand, settings->vBand) > bands)
        return Error(QStringLiteral("UVRASTER: '%1' has %2 band(s); BANDS asks for %3 and %4")
                         .arg(rasterPath).arg(bands).arg(settings->uBand).arg(settings->vBand));
    src->m_gt = GeoTransform::forRaster(ds, layer, ProcessingOptions(layer.processing), mapDir);
    const GeoTransform& gt = src->m_gt;
    if (gt.c[2] != 0 || gt.c[4] != 0)
        return Error(QStringLiteral("UVRASTER: '%1' is rotated; only north-up rasters are read").arg(rasterPath));
    const int w = GDALGetRasterXSize(ds), h = GDALGetRasterYSize(ds);
    src->m_extent = Rect{std::min(gt.x(0, 0), gt.x(w, h)), std::min(gt.y(0, 0), gt.y(w, h)), std::max(gt.x(0, 0), gt.x(w, h)),
                         std::max(gt.y(0, 0), gt.y(w, h))};
    // The layer's PROJECTION says where the cells are; else the file does.
    if (layer.projection.isSet() && !layer.projection.isAuto()) {
        if (auto crs = Crs::fromProjection(layer.projection)) src->m_crs = *crs;
        ProjectionDef plain;
        for (const QString& arg : layer.projection.args) {
            if (!isLonWrap(arg)) {
                plain.args << arg;
                continue;
            }
            bool ok = false;
            const double wrap = arg.mid(arg.indexOf(QLatin1Char('=')) + 1).toDouble(&ok);
            if (ok) src->m_lonWrap = wrap;
        }
        if (src->m_lonWrap && plain.isSet())
            if (auto crs = Crs::fromProjection(plain)) src->m_plainCrs = *crs;
    }
    if (!src->m_crs)
        if (const char* wkt = GDALGetProjectionRef(ds); wkt && *wkt)
            if (auto crs = Crs::fromWkt(QByteArray(wkt))) src->m_crs = *crs;
    if (!src->m_plainCrs) src->m_plainCrs = src->m_crs;
    if (src->m_lonWrap == 180.0 && layer.tileIndex.isEmpty()) src->openSwappedHemispheres(rasterPath, mapDir);
    return src;
}

bool UvRasterFeatureSource::openSwappedHemispheres(const QString& rasterPath, const QString& mapDir)
{
    const Rect extent = m_layer.extent.isValid() ? m_layer.extent : *m_extent;
    if (extent.minx != 0 || extent.maxx != 360) return false;
    m_swapped = GDALOpen(swappedHemispheresVrt(static_cast<GDALDatasetH>(m_dataset), rasterPath).constData(), GA_ReadOnly);
    if (!m_swapped) return false;
    LayerDef shifted = m_layer;
    shifted.extent = Rect{-180, extent.miny, 180, extent.maxy};
    m_swappedGt = GeoTransform::forRaster(static_cast<GDALDatasetH>(m_swapped), shifted, ProcessingOptions(m_layer.processing), mapDir);
    return true;
}

UvRasterFeatureSource::~UvRasterFeatureSource()
{
    if (m_swapped) GDALClose(static_cast<GDALDatasetH>(m_swapped));
    if (m_dataset) GDALClose(static_cast<GDALDatasetH>(m_dataset));
}

QStringList UvRasterFeatureSource::fields() const { return kFields; }

Result<std::unique_ptr<FeatureCursor>> UvRasterFeatureSource::query(const FeatureQuery& q)
{
    if (q.view && q.view->width > 0 && q.view->height > 0) return sampleView(*q.view, q.cancel);
    return sampleRasterGrid(q.cancel);
}

// msUVRASTERGetSearchRect: where the layer's extent, in the map's CRS,
// does not cover the whole view, the grid spans only what it can use -- the
// layer's extent with the view's proportion of margin when the view holds
// all of it, else the part of the view it overlaps -- so that a view mostly
// outside the projection's domain keeps a fine enough grid.
Rect UvRasterFeatureSource::searchRect(const Rect& centres, const Crs& mapCrs) const
{
    if (!(mapCrs.isGeographic() && m_crs->isGeographic())) {
        const Rect ori = m_layer.extent.isValid() ? m_layer.extent : *m_extent;
        const Rect l = projectRect(*m_crs, mapCrs, ori);
        const Rect& m = centres;
        const bool covers = l.minx <= m.minx && l.miny <= m.miny && l.maxx >= m.maxx && l.maxy >= m.maxy;
        if (!covers) {
            if (l.minx >= m.minx && l.maxx <= m.maxx && l.miny >= m.miny && l.maxy <= m.maxy) {
                const double extraX = m.width() / l.width() * ori.width(), extraY = m.height() / l.height() * ori.height();
                return Rect{ori.minx - extraX / 2, ori.miny - extraY / 2, ori.maxx + extraX / 2, ori.maxy + extraY / 2};
            }
            const Rect overlap{std::max(m.minx, l.minx), std::max(m.miny, l.miny), std::min(m.maxx, l.maxx), std::min(m.maxy, l.maxy)};
            return projectRect(mapCrs, *m_crs, overlap);
        }
    }
    return projectRect(mapCrs, *m_crs, centres);
}

Result<std::unique_ptr<FeatureCursor>> UvRasterFeatureSource::sampleView(const FeatureQuery::View& view, const CancelToken& cancel)
{
    const auto none = [] { return std::unique_ptr<FeatureCursor>(new ListCursor(kFields, {})); };
    const int W = view.width, H = view.height, spacing = m_settings.spacing;
    const bool swapped = m_swapped != nullptr;
    // The view's corner pixel centres (MapServer's extent), in the CRS the
    // grid is laid in: the layer's, or without lon_wrap once swapped.
    Rect rect = view.edgesAreExtent ? view.extent
                                    : Rect{view.extent.minx + view.extent.width() / W / 2, view.extent.miny + view.extent.height() / H / 2,
                                           view.extent.maxx - view.extent.width() / W / 2, view.extent.maxy - view.extent.height() / H / 2};
    const std::optional<Crs>& gridCrs = swapped ? m_plainCrs : m_crs;
    // MapServer narrows the grid whenever both have a projection, the same or not.
    if (view.crs.isValid() && gridCrs && (swapped ? *gridCrs != view.crs : true)) {
        rect = swapped ? projectRect(view.crs, *gridCrs, rect) : searchRect(rect, view.crs);
        if (!rect.isValid() || !std::isfinite(rect.width()) || !std::isfinite(rect.height())) return none();
    }
    double mapCell = std::max(cellSize(rect.width(), W), cellSize(rect.height(), H));
    double cell = mapCell * spacing;
    int cols = W / spacing;
    const int rows = H / spacing;
    double minx = rect.minx - mapCell / 2 + cell / 2;
    const double miny = rect.miny - mapCell / 2 + cell / 2;
    double maxx = minx + (cols - 1) * cell;
    const double maxy = miny + (rows - 1) * cell;
    if (!swapped && m_lonWrap == 180.0) {
        if (minx >= 180) {
            // The right half of a 0..360 raster: the western hemisphere.
            minx -= 360, maxx -= 360;
        } else if (maxx >= 180) {
            // Across both hemispheres: the whole planet, at the vertical resolution.
            mapCell = cellSize(rect.height(), H);
            cell = mapCell * spacing;
            cols = int(360.0 / cell);
            minx = -180 + cell / 2;
            maxx = 180 - cell / 2;
        }
    }
    if (cols < 1 || rows < 1 || !(cell > 0)) return none();
    if (qint64(cols) * rows > kMaxPoints)
        return Error(QStringLiteral("UVRASTER: %1 x %2 points asked for; raise UV_SPACING").arg(cols).arg(rows));

    // The grid's geotransform as MapServer computes it from its centre-to-centre extent.
    const double dx = cols > 1 ? (maxx - minx) / (cols - 1) : cell, dy = rows > 1 ? (maxy - miny) / (rows - 1) : cell;
    MapView grid;
    grid.width = cols, grid.height = rows;
    grid.extent = Rect{minx - dx / 2, miny - dy / 2, maxx + dx / 2, maxy + dy / 2};
    // Without lon_wrap in play the grid and the raster share one CRS: no PROJ.
    const bool wraps = !swapped && m_lonWrap && m_plainCrs && m_crs;
    if (wraps) grid.crs = *m_plainCrs;
    const ProcessingOptions options(m_layer.processing);
    RawBandsRequest request;
    request.dataset = static_cast<GDALDatasetH>(swapped ? m_swapped : m_dataset);
    request.bands = {m_settings.uBand, m_settings.vBand};
    request.layer = &m_layer;
    request.options = &options;
    request.mode = resampleMode(options, Resample::Average);
    const Result<RawRaster> sampled =
        RawBandResampler::render(request, swapped ? m_swappedGt : m_gt, wraps ? *m_crs : Crs(), grid);
    if (!sampled) return Error(QStringLiteral("UVRASTER: ") + sampled.message());

    QList<Feature> features;
    qint64 id = 0;
    for (int r = 0; r < rows && !cancel.isCancelled(); ++r)
        for (int c = 0; c < cols; ++c) {
            const size_t p = size_t(r) * size_t(cols) + size_t(c);
            if (!sampled->isValid(p)) continue;
            const float u = sampled->bands[0][p], v = sampled->bands[1][p];
            if (u == 0 && v == 0) continue;
            features << uvFeature(id++, minx + c * dx, maxy - r * dy, u, v, m_settings.sizeScale);
        }
    return std::unique_ptr<FeatureCursor>(new ListCursor(kFields, std::move(features)));
}

Result<std::unique_ptr<FeatureCursor>> UvRasterFeatureSource::sampleRasterGrid(const CancelToken& cancel)
{
    auto ds = static_cast<GDALDatasetH>(m_dataset);
    const int w = GDALGetRasterXSize(ds), h = GDALGetRasterYSize(ds), spacing = m_settings.spacing;
    const ProcessingOptions options(m_layer.processing);
    const std::optional<double> noData[2] = {rasterNoDataValue(options, GDALGetRasterBand(ds, m_settings.uBand)),
                                             rasterNoDataValue(options, GDALGetRasterBand(ds, m_settings.vBand))};
    QList<Feature> features;
    qint64 id = 0;
    for (int r = spacing / 2; r < h && !cancel.isCancelled(); r += spacing)
        for (int c = spacing / 2; c < w; c += spacing) {
            float uv[2] = {0, 0};
            bool valid = false;
            for (int i = 0; i < 2; ++i) {
                GDALRasterBandH band = GDALGetRasterBand(ds, i == 0 ? m_settings.uBand : m_settings.vBand);
                if (GDALRasterIO(band, GF_Read, c, r, 1, 1, &uv[i], 1, 1, GDT_Float32, 0, 0) != CE_None)
                    return Error(QStringLiteral("UVRASTER: ") + QString::fromUtf8(CPLGetLastErrorMsg()));
                if (noData[i] && uv[i] == float(*noData[i]))
                    uv[i] = 0;
                else
                    valid = true;
            }
            if (!valid || (uv[0] == 0 && uv[1] == 0)) continue;
            features << uvFeature(id++, m_gt.x(c + 0.5, r + 0.5), m_gt.y(c + 0.5, r + 0.5), uv[0], uv[1], m_settings.sizeScale);
        }
    return std::unique_ptr<FeatureCursor>(new ListCursor(kFields, std::move(features)));
}

}  // namespace maptune
