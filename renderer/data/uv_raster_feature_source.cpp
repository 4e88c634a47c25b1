#include "data/uv_raster_feature_source.h"

#include "data/list_cursor.h"
#include "geo/coordinate_transform.h"
#include "mapfile/processing.h"

#include <gdal.h>

#include <QPointF>

#include <algorithm>
#include <cmath>
#include <vector>

namespace maptune {

namespace {

// The most raster cells one request reads (both bands): a bigger window
// means the map shows far more of the raster than its points can use.
constexpr qint64 kMaxCells = 64ll << 20;

const QStringList kFields{QStringLiteral("uv_angle"), QStringLiteral("uv_minus_angle"), QStringLiteral("uv_length"),
                          QStringLiteral("uv_length_2"), QStringLiteral("u"), QStringLiteral("v")};

QString number(double v) { return QString::asprintf("%f", v); }

// A window of both bands in memory, as MapServer's resampler loads it: the
// source window read at no more than twice the points' resolution (GDAL's
// nearest decimation), so that a point averages a few loaded cells.
struct Window {
    double srcCol0 = 0, srcRow0 = 0;  // the window's corner in source pixels
    double sx = 1, sy = 1;            // source pixels per loaded cell
    int cols = 0, rows = 0;           // loaded cells
    std::vector<double> u, v;
    std::optional<double> uNoData, vNoData;

    bool valid(int c, int r, double& uu, double& vv) const
    {
        const size_t i = size_t(r) * size_t(cols) + size_t(c);
        uu = u[i], vv = v[i];
        if (std::isnan(uu) || std::isnan(vv)) return false;
        return !(uNoData && uu == *uNoData) && !(vNoData && vv == *vNoData);
    }

    // msAverageSample: the area-weighted mean of the loaded cells under the
    // footprint [c0,c1) x [r0,r1), given in source pixels.
    bool average(double c0, double c1, double r0, double r1, double& outU, double& outV) const
    {
        c0 = std::clamp((c0 - srcCol0) / sx, 0.0, cols + 1.0), c1 = std::clamp((c1 - srcCol0) / sx, -1.0, double(cols));
        r0 = std::clamp((r0 - srcRow0) / sy, 0.0, rows + 1.0), r1 = std::clamp((r1 - srcRow0) / sy, -1.0, double(rows));
        const int ci0 = int(c0), ci1 = int(std::ceil(c1)), ri0 = int(r0), ri1 = int(std::ceil(r1));
        double su = 0, sv = 0, sw = 0;
        for (int r = ri0; r < ri1 && r < rows; ++r) {
            const double wr = std::min<double>(r + 1, r1) - std::max<double>(r, r0);
            for (int c = ci0; c < ci1 && c < cols; ++c) {
                const double wc = std::min<double>(c + 1, c1) - std::max<double>(c, c0);
                double uu = 0, vv = 0;
                if (!valid(c, r, uu, vv)) continue;
                su += uu * wc * wr, sv += vv * wc * wr, sw += wc * wr;
            }
        }
        if (sw == 0) return false;
        outU = su / sw, outV = sv / sw;
        return true;
    }
};

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

Result<std::unique_ptr<UvRasterFeatureSource>> UvRasterFeatureSource::open(const QString& rasterPath, const LayerDef& layer)
{
    Result<UvRasterSettings> settings = UvRasterSettings::fromLayer(layer);
    if (!settings) return settings.error();
    GDALDatasetH ds = GDALOpen(rasterPath.toUtf8().constData(), GA_ReadOnly);
    if (!ds) return Error(QStringLiteral("UVRASTER: cannot open '%1' as a raster").arg(rasterPath));
    std::unique_ptr<UvRasterFeatureSource> src(new UvRasterFeatureSource);
    src->m_dataset = ds;
    src->m_settings = *settings;
    const int bands = GDALGetRasterCount(ds);
    if (std::max(settings->uBand, settings->vBand) > bands)
        return Error(QStringLiteral("UVRASTER: '%1' has %2 band(s); BANDS asks for %3 and %4")
                         .arg(rasterPath).arg(bands).arg(settings->uBand).arg(settings->vBand));
    src->m_width = GDALGetRasterXSize(ds);
    src->m_height = GDALGetRasterYSize(ds);
    if (GDALGetGeoTransform(ds, src->m_geoTransform) != CE_None && layer.extent.isValid()) {
        // No georeferencing: the layer's EXTENT places the raster (msGetGDALGeoTransform).
        double* gt = src->m_geoTransform;
        gt[0] = layer.extent.minx, gt[1] = layer.extent.width() / src->m_width, gt[2] = 0;
        gt[3] = layer.extent.maxy, gt[4] = 0, gt[5] = -layer.extent.height() / src->m_height;
    } else if (GDALGetGeoTransform(ds, src->m_geoTransform) != CE_None) {
        // Nor an EXTENT: pixel coordinates, as MapServer reads such a raster.
        src->m_geoTransform[0] = 0, src->m_geoTransform[1] = 1, src->m_geoTransform[2] = 0;
        src->m_geoTransform[3] = src->m_height, src->m_geoTransform[4] = 0, src->m_geoTransform[5] = -1;
    }
    if (src->m_geoTransform[2] != 0 || src->m_geoTransform[4] != 0)
        return Error(QStringLiteral("UVRASTER: '%1' is rotated; only north-up rasters are read").arg(rasterPath));
    const double* gt = src->m_geoTransform;
    src->m_extent = Rect{std::min(gt[0], gt[0] + gt[1] * src->m_width), std::min(gt[3], gt[3] + gt[5] * src->m_height),
                         std::max(gt[0], gt[0] + gt[1] * src->m_width), std::max(gt[3], gt[3] + gt[5] * src->m_height)};
    // The layer's PROJECTION says where the cells are; else the file does.
    if (layer.projection.isSet() && !layer.projection.isAuto()) {
        if (auto crs = Crs::fromProjection(layer.projection)) src->m_crs = *crs;
    }
    if (!src->m_crs)
        if (const char* wkt = GDALGetProjectionRef(ds); wkt && *wkt)
            if (auto crs = Crs::fromWkt(QByteArray(wkt))) src->m_crs = *crs;
    return src;
}

UvRasterFeatureSource::~UvRasterFeatureSource()
{
    if (m_dataset) GDALClose(static_cast<GDALDatasetH>(m_dataset));
}

QStringList UvRasterFeatureSource::fields() const { return kFields; }

Result<std::unique_ptr<FeatureCursor>> UvRasterFeatureSource::query(const FeatureQuery& q)
{
    const double* gt = m_geoTransform;
    const int spacing = m_settings.spacing;

    // Points in the layer's CRS, each with its block's footprint in raster
    // pixel coordinates.
    struct Cell {
        double x, y;              // layer CRS
        double c0, c1, r0, r1;    // pixel footprint
    };
    std::vector<Cell> cells;
    const auto toPixel = [gt](double x, double y) { return QPointF((x - gt[0]) / gt[1], (y - gt[3]) / gt[5]); };
    if (q.view && q.view->width > 0 && q.view->height > 0) {
        const FeatureQuery::View& view = *q.view;
        const int W = view.width, H = view.height;
        // MapServer's extent is of the corner pixels' centres; in the layer's
        // CRS when it differs (the points' grid is laid there, then drawn
        // reprojected), its cell size from that extent, the grid from its
        // lower-left corner.
        const double cx = view.extent.width() / W, cy = view.extent.height() / H;
        Rect rect{view.extent.minx + cx / 2, view.extent.miny + cy / 2, view.extent.maxx - cx / 2, view.extent.maxy - cy / 2};
        if (view.crs.isValid() && m_crs && *m_crs != view.crs) {
            auto toLayer = CoordinateTransform::forThread(view.crs, *m_crs);
            if (!toLayer) return Error(QStringLiteral("UVRASTER: ") + toLayer.message());
            rect = (*toLayer)->transformBounds(rect);
            if (!rect.isValid() || !std::isfinite(rect.width()) || !std::isfinite(rect.height()))
                return std::unique_ptr<FeatureCursor>(new ListCursor(kFields, {}));
        }
        const double mapCell = std::max(rect.width() / W, rect.height() / H);
        const double cell = mapCell * spacing;
        const int cols = std::max(1, W / spacing), rows = std::max(1, H / spacing);
        const double x0 = rect.minx - mapCell / 2 + cell / 2, y0 = rect.miny - mapCell / 2 + cell / 2;
        cells.reserve(size_t(cols) * size_t(rows));
        for (int r = rows - 1; r >= 0; --r)
            for (int c = 0; c < cols; ++c) {
                const double x = x0 + c * cell, y = y0 + r * cell;
                const QPointF a = toPixel(x - cell / 2, y + cell / 2), b = toPixel(x + cell / 2, y - cell / 2);
                cells.push_back({x, y, std::min(a.x(), b.x()), std::max(a.x(), b.x()), std::min(a.y(), b.y()), std::max(a.y(), b.y())});
            }
    } else {
        for (int r = spacing / 2; r < m_height; r += spacing)
            for (int c = spacing / 2; c < m_width; c += spacing)
                cells.push_back({gt[0] + (c + 0.5) * gt[1], gt[3] + (r + 0.5) * gt[5], double(c), double(c + 1), double(r), double(r + 1)});
    }

    // One read of the window all footprints need.
    Window w;
    double c0 = 1e300, c1 = -1e300, r0 = 1e300, r1 = -1e300;
    for (const Cell& cell : cells) {
        if (cell.c1 <= 0 || cell.r1 <= 0 || cell.c0 >= m_width || cell.r0 >= m_height) continue;
        c0 = std::min(c0, cell.c0), c1 = std::max(c1, cell.c1), r0 = std::min(r0, cell.r0), r1 = std::max(r1, cell.r1);
    }
    QList<Feature> features;
    if (c0 < c1 && r0 < r1) {
        const int col0 = std::max(0, int(std::floor(c0))), row0 = std::max(0, int(std::floor(r0)));
        const int srcCols = std::min(m_width, int(std::ceil(c1))) - col0, srcRows = std::min(m_height, int(std::ceil(r1))) - row0;
        // The points' cell in source units (the middle one's footprint), loaded at half of it.
        const Cell& middle = cells[cells.size() / 2];
        const double cellUnits = std::sqrt((middle.c1 - middle.c0) * std::abs(gt[1]) * (middle.r1 - middle.r0) * std::abs(gt[5]));
        const double loadCell = std::max(std::min(std::abs(gt[1]), std::abs(gt[5])), cellUnits / 2);
        w.cols = std::max(1, int(std::lround(srcCols / std::max(1.0, loadCell / std::abs(gt[1])))));
        w.rows = std::max(1, int(std::lround(srcRows / std::max(1.0, loadCell / std::abs(gt[5])))));
        w.srcCol0 = col0, w.srcRow0 = row0;
        w.sx = double(srcCols) / w.cols, w.sy = double(srcRows) / w.rows;
        if (qint64(w.cols) * w.rows > kMaxCells)
            return Error(QStringLiteral("UVRASTER: the view needs %1 x %2 raster cells; zoom in").arg(w.cols).arg(w.rows));
        w.u.resize(size_t(w.cols) * size_t(w.rows));
        w.v.resize(w.u.size());
        auto ds = static_cast<GDALDatasetH>(m_dataset);
        for (auto [band, buffer, noData] : {std::tuple{m_settings.uBand, &w.u, &w.uNoData}, std::tuple{m_settings.vBand, &w.v, &w.vNoData}}) {
            GDALRasterBandH b = GDALGetRasterBand(ds, band);
            if (GDALRasterIO(b, GF_Read, col0, row0, srcCols, srcRows, buffer->data(), w.cols, w.rows, GDT_Float64, 0, 0) != CE_None)
                return Error(QStringLiteral("UVRASTER: ") + QString::fromUtf8(CPLGetLastErrorMsg()));
            int has = 0;
            const double nd = GDALGetRasterNoDataValue(b, &has);
            if (has) *noData = nd;
        }
        qint64 id = 0;
        for (const Cell& cell : cells) {
            if (q.cancel.isCancelled()) break;
            double u = 0, v = 0;
            if (!w.average(cell.c0, cell.c1, cell.r0, cell.r1, u, v) || (u == 0 && v == 0)) continue;
            const double angle = std::atan2(v, u) * 180 / M_PI;
            double minus = angle + 180;
            if (minus >= 360) minus -= 360;
            const double length = std::hypot(u, v) * m_settings.sizeScale;
            Feature f;
            f.id = id++;
            f.geometry.type = Geometry::Type::Point;
            f.geometry.xy = {cell.x, cell.y};
            f.geometry.partStart = {0};
            f.values = {number(angle), number(minus), number(length), number(length / 2), number(u), number(v)};
            features << std::move(f);
        }
    }
    return std::unique_ptr<FeatureCursor>(new ListCursor(kFields, std::move(features)));
}

}  // namespace maptune
