#include "layer_extent.h"

#include "data/feature_source_factory.h"
#include "wms/ows_layer_info.h"

#include <algorithm>

namespace maptune {

namespace {

constexpr double kPadding = 0.05;     // of the extent on each side
constexpr int kMaxScanned = 100000;   // features read when the source knows no extent

std::optional<Rect> featureBounds(const MapDef& map, const LayerDef& layer, QString* error)
{
    auto source = openFeatureSource(map, layer, error);
    if (!source) return std::nullopt;
    if (auto e = source->extent()) return e;
    FeatureQuery q;
    q.maxFeatures = kMaxScanned;
    auto cursor = source->query(q, error);
    if (!cursor) return std::nullopt;
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

std::optional<Rect> layerExtentInMapCrs(const MapDef& map, const LayerDef& layer, QString* error)
{
    std::optional<Rect> extent = layerExtent(map, layer);
    if (!extent && layer.type != LayerType::Raster) extent = featureBounds(map, layer, error);
    if (!extent) {
        if (error && error->isEmpty()) *error = QStringLiteral("layer '%1' has no known extent").arg(layer.name);
        return std::nullopt;
    }
    const std::optional<Crs> layerCrs = projectionCrs(map, layer.projection);
    const std::optional<Crs> mapCrs = projectionCrs(map, map.projection);
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
    if (!r.isValid()) {
        if (error) *error = QStringLiteral("layer '%1': the extent cannot be shown in the map's CRS").arg(layer.name);
        return std::nullopt;
    }
    return r;
}

}  // namespace maptune
