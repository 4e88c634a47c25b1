#include "raster/raster_query.h"

#include "expr/feature_classifier.h"
#include "geo/coordinate_transform.h"
#include "mapfile/map_paths.h"
#include "mapfile/processing.h"
#include "raster/dataset_cache.h"
#include "raster/geo_transform.h"
#include "raster/raster_layer_renderer.h"

#include <gdal.h>

#include <cmath>

namespace maptune {

namespace {

struct PixelHit {
    double x = 0, y = 0;
    std::vector<float> values;
    int cls = -1;
    int red = 0, green = 0, blue = 0;
};

// The state msRasterQueryByRectLow keeps in rasterLayerInfo between passes.
struct QueryState {
    const MapDef& map;
    const LayerDef& layer;
    const Crs& mapCrs;
    RasterQueryPoint target;
    bool single = true;         // range_mode MS_SINGLE: keep only the nearest pixel
    double rangeDist2 = 0;      // squared search radius in map units
    int hardMax = 1000000;
    int bandCount = -1;
    std::vector<PixelHit> hits;
    std::optional<FeatureClassifier> classifier;  // engaged when the layer has classes
};

std::vector<int> bandList(const LayerDef& layer, GDALDatasetH ds)
{
    std::vector<int> bands;
    const auto spec = ProcessingOptions(layer.processing).value(QStringLiteral("BANDS"));
    if (spec) {
        for (const QString& b : spec->split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int n = b.trimmed().toInt(&ok);
            if (ok && n >= 1 && n <= GDALGetRasterCount(ds)) bands.push_back(n);
        }
    }
    if (bands.empty())
        for (int i = 1; i <= GDALGetRasterCount(ds); ++i) bands.push_back(i);
    return bands;
}

// msRasterQueryAddPixel: the class (classified layers), else the palette or
// grey/RGB colour of the values; pixels without a class or transparent in the
// palette are no result.
void addPixel(QueryState& s, GDALColorTableH ct, double x, double y, const float* values)
{
    if (int(s.hits.size()) >= s.hardMax) return;
    PixelHit hit;
    hit.x = x;
    hit.y = y;
    hit.values.assign(values, values + s.bandCount);
    if (s.classifier) {
        const auto num = [](double v) { return QString::number(v, 'g', 10); };
        hit.cls = s.classifier->classify({num(values[0]), num(values[0]), QStringLiteral("-1"), QStringLiteral("-1"),
                                          QStringLiteral("-1")}, 0);
        if (hit.cls < 0) return;
        const ClassDef& c = s.layer.classes[hit.cls];
        if (!c.styles.isEmpty() && c.styles[0].color.color.isSet()) {
            hit.red = c.styles[0].color.color.r;
            hit.green = c.styles[0].color.color.g;
            hit.blue = c.styles[0].color.color.b;
        }
    } else if (ct) {
        GDALColorEntry e;
        if (!GDALGetColorEntryAsRGB(ct, int(std::floor(values[0])), &e) || e.c4 == 0) return;
        hit.red = e.c1;
        hit.green = e.c2;
        hit.blue = e.c3;
    } else {
        const auto clamp = [](float v) { return int(std::clamp(v, 0.0f, 255.0f)); };
        hit.red = clamp(values[0]);
        hit.green = clamp(s.bandCount >= 3 ? values[1] : values[0]);
        hit.blue = clamp(s.bandCount >= 3 ? values[2] : values[0]);
    }
    s.hits.push_back(std::move(hit));
}

// The pixel window of `rect` (layer CRS) on the raster, out to the edges of touched pixels.
bool pixelWindow(const GeoTransform& inverse, const Rect& r, int xsize, int ysize, int win[4])
{
    double xmin = HUGE_VAL, xmax = -HUGE_VAL, ymin = HUGE_VAL, ymax = -HUGE_VAL;
    for (const auto& [gx, gy] : {std::pair{r.minx, r.maxy}, {r.maxx, r.maxy}, {r.minx, r.miny}, {r.maxx, r.miny}}) {
        const double px = inverse.x(gx, gy), py = inverse.y(gx, gy);
        xmin = std::min(xmin, px), xmax = std::max(xmax, px);
        ymin = std::min(ymin, py), ymax = std::max(ymax, py);
    }
    if (!std::isfinite(xmin) || !std::isfinite(ymin) || !std::isfinite(xmax) || !std::isfinite(ymax)) return false;
    xmin = std::clamp(std::floor(xmin), 0.0, double(xsize));
    ymin = std::clamp(std::floor(ymin), 0.0, double(ysize));
    xmax = std::clamp(std::ceil(xmax), 0.0, double(xsize));
    ymax = std::clamp(std::ceil(ymax), 0.0, double(ysize));
    win[0] = int(xmin), win[1] = int(ymin), win[2] = int(xmax - xmin), win[3] = int(ymax - ymin);
    return win[2] > 0 && win[3] > 0;
}

// msProjectRect through the four corners and edge midpoints.
Rect projectSearchRect(const CoordinateTransform& t, const Rect& r)
{
    double xs[8] = {r.minx, r.maxx, r.minx, r.maxx, (r.minx + r.maxx) / 2, (r.minx + r.maxx) / 2, r.minx, r.maxx};
    double ys[8] = {r.miny, r.miny, r.maxy, r.maxy, r.miny, r.maxy, (r.miny + r.maxy) / 2, (r.miny + r.maxy) / 2};
    t.transform(xs, ys, 8);
    Rect out{HUGE_VAL, HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < 8; ++i) {
        if (!std::isfinite(xs[i]) || !std::isfinite(ys[i])) continue;
        out.minx = std::min(out.minx, xs[i]), out.maxx = std::max(out.maxx, xs[i]);
        out.miny = std::min(out.miny, ys[i]), out.maxy = std::max(out.maxy, ys[i]);
    }
    return out;
}

// msRasterQueryByRectLow on one dataset.
bool queryDataset(QueryState& s, GDALDatasetH ds, const Crs& layerCrs, const Rect& queryRect, QString* error)
{
    std::shared_ptr<CoordinateTransform> toLayer, toMap;
    Rect search = queryRect;
    if (layerCrs.isValid() && s.mapCrs.isValid() && layerCrs != s.mapCrs) {
        auto madeToLayer = CoordinateTransform::forThread(s.mapCrs, layerCrs);
        auto madeToMap = CoordinateTransform::forThread(layerCrs, s.mapCrs);
        if (!madeToLayer.ok(error) || !madeToMap.ok(error)) return false;
        toLayer = std::move(madeToLayer).value();
        toMap = std::move(madeToMap).value();
        search = projectSearchRect(*toLayer, queryRect);
    }
    const GeoTransform gt = GeoTransform::forRaster(ds, s.layer, ProcessingOptions(s.layer.processing),
                                                    mapDirectory(s.map));
    const auto inverse = gt.inverted();
    if (!inverse) return true;
    int win[4];
    if (!pixelWindow(*inverse, search, GDALGetRasterXSize(ds), GDALGetRasterYSize(ds), win)) return true;

    std::vector<int> bands = bandList(s.layer, ds);
    const int nb = int(bands.size());
    if (s.bandCount == -1) s.bandCount = nb;
    if (nb != s.bandCount || nb == 0) {
        *error = QStringLiteral("Got %1 bands, but expected %2 bands.").arg(nb).arg(s.bandCount);
        return false;
    }
    std::vector<float> raster(size_t(win[2]) * win[3] * nb);
    if (GDALDatasetRasterIO(ds, GF_Read, win[0], win[1], win[2], win[3], raster.data(), win[2], win[3], GDT_Float32, nb,
                            bands.data(), 4 * nb, 4 * nb * win[2], 4) != CE_None) {
        *error = QStringLiteral("GDALDatasetRasterIO() failed: %1").arg(QString::fromUtf8(CPLGetLastErrorMsg()));
        return false;
    }
    GDALColorTableH ct = GDALGetRasterColorTable(GDALGetRasterBand(ds, bands[0]));
    const auto& c = gt.c;
    // Distances are to pixel centres: the fudge makes a zero range still find
    // the pixel the point falls in (MapServer's adjusted range).
    double adjusted = std::sqrt(c[1] * c[1] + c[2] * c[2] + c[4] * c[4] + c[5] * c[5]) * 0.5 * 1.41421356237
                      + std::sqrt(s.rangeDist2);
    adjusted *= adjusted;
    for (int line = 0; line < win[3]; ++line) {
        for (int pixel = 0; pixel < win[2]; ++pixel) {
            if (int(s.hits.size()) >= s.hardMax) break;
            double x = gt.x(pixel + win[0] + 0.5, line + win[1] + 0.5);
            double y = gt.y(pixel + win[0] + 0.5, line + win[1] + 0.5);
            if (toMap) toMap->transform(&x, &y, 1);
            const double dx = s.target.x - x, dy = s.target.y - y;
            const double dist = dx * dx + dy * dy;
            if (!(dist < adjusted)) continue;
            if (s.single) {
                s.rangeDist2 = dist;
                s.hits.clear();
            }
            addPixel(s, ct, x, y, raster.data() + (size_t(line) * win[2] + pixel) * nb);
        }
    }
    return true;
}

bool queryRect(QueryState& s, const Rect& rect, QString* error)
{
    const QString path = resolveDataPath(s.map, s.layer.data);
    QStringList openOptions;
    for (const auto& [k, v] : s.layer.connectionOptions.items) openOptions << k + QLatin1Char('=') + v;
    const Result<GDALDatasetH> opened = DatasetCache::open(path, openOptions);
    if (!opened) {
        *error = QStringLiteral("Unable to open file %1 for layer %2: %3")
                     .arg(s.layer.data, s.layer.name, opened.message());
        return false;
    }
    GDALDatasetH ds = *opened;
    Crs layerCrs;
    if (s.layer.projection.isAuto()) {
        const char* wkt = GDALGetProjectionRef(ds);
        if (wkt && *wkt) layerCrs = Crs::fromWkt(QByteArray(wkt)).valueOr(Crs());
    } else if (s.layer.projection.isSet()) {
        const Result<Crs> crs = Crs::fromProjection(s.layer.projection);
        if (!crs) {
            if (error) *error = crs.message();
            return false;
        }
        layerCrs = *crs;
    }
    return queryDataset(s, ds, layerCrs, rect, error);
}

QString g8(double v)
{
    return QString::asprintf("%.8g", v);
}

RasterQueryResult toResult(const QueryState& s)
{
    RasterQueryResult r;
    r.fields << QStringLiteral("x") << QStringLiteral("y");
    for (int i = 0; i < std::max(s.bandCount, 0); ++i) r.fields << QStringLiteral("value_%1").arg(i);
    r.fields << QStringLiteral("value_list");
    if (s.classifier) r.fields << QStringLiteral("class");
    r.fields << QStringLiteral("red") << QStringLiteral("green") << QStringLiteral("blue");
    qint64 id = 0;
    for (const PixelHit& h : s.hits) {
        Feature f;
        f.id = id++;
        f.geometry.type = Geometry::Type::Point;
        f.geometry.xy = {h.x, h.y};
        f.geometry.partStart = {0};
        f.values << g8(h.x) << g8(h.y);
        QStringList list;
        for (float v : h.values) list << g8(v);
        f.values << list << list.join(QLatin1Char(','));
        if (s.classifier) {
            const QString& name = s.layer.classes[h.cls].name;
            f.values << (name.isEmpty() ? QString::number(h.cls) : name);
        }
        f.values << QString::number(h.red) << QString::number(h.green) << QString::number(h.blue);
        r.features << f;
    }
    return r;
}

}  // namespace

Result<RasterQueryResult> queryRasterLayer(const MapDef& map, const LayerDef& layer, const Crs& mapCrs,
                                           const RasterQueryPoint& point)
{
    QueryState s{map, layer, mapCrs, point, true, 0, 1000000, -1, {}, std::nullopt};
    if (point.maxResults > 0) s.hardMax = point.maxResults;
    if (!layer.classes.isEmpty()) {
        FeatureClassifier classifier(point.expressions);
        if ((point.expressions || classifier.compile(layer))
            && classifier.bind({QStringLiteral("pixel"), QStringLiteral("value_0"), QStringLiteral("red"),
                                QStringLiteral("green"), QStringLiteral("blue")}))
            s.classifier = std::move(classifier);
    }
    if (layer.data.isEmpty()) return toResult(s);

    // No buffer in a WMS query: the layer tolerance (0 for rasters) in map units.
    double tolerance = point.tolerancePixels ? *point.tolerancePixels : layer.tolerance >= 0 ? layer.tolerance : 0;
    if (point.tolerancePixels || layer.toleranceUnits.isEmpty()
        || layer.toleranceUnits.compare(QLatin1String("PIXELS"), Qt::CaseInsensitive) == 0)
        tolerance *= point.cellSize;
    s.rangeDist2 = tolerance * tolerance;
    QString error;
    // Single mode first tries the pixel under the point, usually the nearest.
    if (point.maxResults == 1) {
        s.single = true;
        if (!queryRect(s, Rect{point.x, point.y, point.x, point.y}, &error)) return Error(error);
        if (!s.hits.empty()) return toResult(s);
    }
    s.single = point.maxResults == 1;
    s.rangeDist2 = tolerance * tolerance;
    s.hits.clear();
    const Rect buffer{point.x - tolerance, point.y - tolerance, point.x + tolerance, point.y + tolerance};
    if (!queryRect(s, buffer, &error)) return Error(error);
    return toResult(s);
}

}  // namespace maptune
