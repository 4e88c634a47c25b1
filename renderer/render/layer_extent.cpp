#include "render/layer_extent.h"

#include "render/feature_source_factory.h"
#include "geo/coordinate_transform.h"
#include "geo/map_projection.h"
#include "mapfile/map_paths.h"

#include <QFile>

#include <gdal.h>
#include <ogr_api.h>

#include <algorithm>

namespace maptune {

namespace {

// msOWSLookupMetadata with namespaces "MO": wms_<name>, then ows_<name>.
std::optional<QString> owsMetadata(const KeyValues& metadata, const QString& name)
{
    if (auto v = metadata.value(QStringLiteral("wms_") + name)) return v;
    return metadata.value(QStringLiteral("ows_") + name);
}

std::optional<Rect> rasterExtent(const QString& path)
{
    GDALDatasetH ds = GDALOpenEx(path.toUtf8().constData(), GDAL_OF_RASTER | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    if (!ds) return std::nullopt;
    double gt[6];
    std::optional<Rect> out;
    if (GDALGetGeoTransform(ds, gt) == CE_None) {
        const double x0 = gt[0], y0 = gt[3];
        const double x1 = gt[0] + gt[1] * GDALGetRasterXSize(ds) + gt[2] * GDALGetRasterYSize(ds);
        const double y1 = gt[3] + gt[4] * GDALGetRasterXSize(ds) + gt[5] * GDALGetRasterYSize(ds);
        out = Rect{std::min(x0, x1), std::min(y0, y1), std::max(x0, x1), std::max(y0, y1)};
    }
    GDALClose(ds);
    return out;
}

std::optional<Rect> vectorFileExtent(const QString& path)
{
    GDALDatasetH ds = GDALOpenEx(path.toUtf8().constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr);
    if (!ds) return std::nullopt;
    std::optional<Rect> out;
    OGRLayerH layer = GDALDatasetGetLayer(ds, 0);
    OGREnvelope env;
    if (layer && OGR_L_GetExtent(layer, &env, TRUE) == OGRERR_NONE) out = Rect{env.MinX, env.MinY, env.MaxX, env.MaxY};
    GDALClose(ds);
    return out;
}

constexpr double kPadding = 0.05;     // of the extent on each side
constexpr int kMaxScanned = 100000;   // features read when the source knows no extent

// Empty when the layer has no features with a geometry.
Result<std::optional<Rect>> featureBounds(const MapDef& map, const LayerDef& layer, const EngineContext& context)
{
    auto opened = openFeatureSource(map, layer, context);
    if (!opened) return opened.error();
    const std::unique_ptr<FeatureSource> source = std::move(opened).value();
    if (auto e = source->extent()) return e;
    FeatureQuery q;
    q.maxFeatures = kMaxScanned;
    auto queried = source->query(q);
    if (!queried) return queried.error();
    const std::unique_ptr<FeatureCursor> cursor = std::move(queried).value();
    std::optional<Rect> bounds;
    Feature f;
    while (cursor->next(f)) {
        if (f.geometry.isEmpty()) continue;
        const Rect b = f.geometry.bounds();
        if (!bounds) bounds = b;
        else bounds = Rect{std::min(bounds->minx, b.minx), std::min(bounds->miny, b.miny),
                           std::max(bounds->maxx, b.maxx), std::max(bounds->maxy, b.maxy)};
    }
    return bounds;
}

}  // namespace

std::optional<Rect> layerExtent(const MapDef& map, const LayerDef& layer, const EngineContext& context)
{
    if (auto text = owsMetadata(layer.metadata, QStringLiteral("extent"))) {
        const QStringList parts = text->simplified().split(QLatin1Char(' '));
        if (parts.size() == 4) {
            bool ok[4];
            Rect r{parts[0].toDouble(&ok[0]), parts[1].toDouble(&ok[1]), parts[2].toDouble(&ok[2]), parts[3].toDouble(&ok[3])};
            if (ok[0] && ok[1] && ok[2] && ok[3]) return r;
        }
    }
    if (layer.extent.isValid()) return layer.extent;
    if (layer.type == LayerType::Raster) {
        if (!layer.tileIndex.isEmpty()) {
            QString path = resolveDataPath(map, layer.tileIndex);
            if (!path.endsWith(QLatin1String(".shp"), Qt::CaseInsensitive) && !QFile::exists(path)) path += QStringLiteral(".shp");
            return vectorFileExtent(path);
        }
        if (layer.data.isEmpty()) return std::nullopt;
        return rasterExtent(resolveDataPath(map, layer.data));
    }
    auto source = openFeatureSource(map, layer, context);
    if (!source) return std::nullopt;
    return (*source)->extent();
}

Result<std::optional<Rect>> layerExtentInMapCrs(const MapDef& map, const LayerDef& layer,
                                                const EngineContext& context)
{
    std::optional<Rect> extent = layerExtent(map, layer, context);
    if (!extent && layer.type != LayerType::Raster) {
        Result<std::optional<Rect>> bounds = featureBounds(map, layer, context);
        if (!bounds) return bounds.error();
        extent = *bounds;
    }
    if (!extent) return std::optional<Rect>();
    const std::optional<Crs> layerCrs = resolveProjection(map, layer.projection).toOptional();
    const std::optional<Crs> mapCrs = resolveProjection(map, map.projection).toOptional();
    Rect r = *extent;
    if (layerCrs && mapCrs && *layerCrs != *mapCrs) r = projectRect(*layerCrs, *mapCrs, r);
    // A point has no size: show a tenth of the map extent around it; a
    // horizontal or vertical line borrows its padding from its length.
    const double minSize = map.extent.isValid() ? std::max(map.extent.width(), map.extent.height()) / 10 : 1;
    auto pad = [&](double size, double other) {
        return size > 0 ? size * kPadding : (other > 0 ? other * kPadding : minSize / 2);
    };
    const double padX = pad(r.width(), r.height()), padY = pad(r.height(), r.width());
    r = {r.minx - padX, r.miny - padY, r.maxx + padX, r.maxy + padY};
    if (!r.isValid())
        return Error(QStringLiteral("layer '%1': the extent cannot be shown in the map's CRS").arg(layer.name));
    return std::optional<Rect>(r);
}

}  // namespace maptune
