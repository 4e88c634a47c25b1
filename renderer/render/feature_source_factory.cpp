#include "render/feature_source_factory.h"
#include "mapfile/map_def.h"

#include "data/contour/contour_feature_source.h"
#include "raster/uv_raster_feature_source.h"
#include "data/inline_feature_source.h"
#include "data/ogr_feature_source.h"
#include "data/postgis/postgis_feature_source.h"
#include "data/shapefile/shapefile_feature_source.h"
#include "mapfile/inline_vrt.h"
#include "mapfile/processing.h"

#include <QDir>
#include <QFileInfo>

namespace maptune {

Result<std::unique_ptr<FeatureSource>> openFeatureSource(const MapDef& map, const LayerDef& layer,
                                                         const EngineContext& context)
{
    const auto failed = [&](const QString& message) {
        return Error(QStringLiteral("layer '%1': %2").arg(layer.name, message), layer.pos);
    };
    if (!layer.features.isEmpty() && layer.data.isEmpty() && layer.connection.isEmpty()) {
        auto src = InlineFeatureSource::create(layer);
        if (!src) return failed(src.message());
        return std::unique_ptr<FeatureSource>(std::move(src).value());
    }
    if (layer.connectionType == ConnectionType::OGR) {
        const ProcessingOptions opts(layer.processing);
        const QString source = isInlineVrt(layer.connection) ? withAbsoluteVrtSources(layer.connection, map.baseDir())
                                                             : resolveDataPath(map, layer.connection);
        auto src = OgrFeatureSource::open(source, layer.data, opts.value(QStringLiteral("NATIVE_FILTER"), {}));
        if (!src) return failed(src.message());
        return std::unique_ptr<FeatureSource>(std::move(src).value());
    }
    if (layer.connectionType == ConnectionType::Local || layer.connectionType == ConnectionType::Inline) {
        QString path = resolveDataPath(map, layer.data);
        if (!QFileInfo::exists(path) && QFileInfo::exists(path + QLatin1String(".shp")))
            path += QLatin1String(".shp");
        const ProcessingOptions opts(layer.processing);
        const QString nativeFilter = opts.value(QStringLiteral("NATIVE_FILTER"), {});
        auto ogr = OgrFeatureSource::open(path, {}, nativeFilter);
        if (!ogr) return failed(ogr.message());
        // An OGR SQL filter needs OGR's reading; otherwise our own is faster.
        if (nativeFilter.isEmpty() && path.endsWith(QLatin1String(".shp"), Qt::CaseInsensitive))
            return ShapefileFeatureSource::wrap(path, std::move(ogr).value());
        return std::unique_ptr<FeatureSource>(std::move(ogr).value());
    }
    // CONNECTIONTYPE FLATGEOBUF: DATA is the .fgb file, through SHAPEPATH.
    if (layer.connectionType == ConnectionType::FlatGeobuf) {
        const ProcessingOptions opts(layer.processing);
        auto src = OgrFeatureSource::open(resolveDataPath(map, layer.data), {}, opts.value(QStringLiteral("NATIVE_FILTER"), {}));
        if (!src) return failed(src.message());
        return std::unique_ptr<FeatureSource>(std::move(src).value());
    }
    if (layer.connectionType == ConnectionType::Contour) {
        auto src = layer.tileIndex.isEmpty() ? ContourFeatureSource::open(resolveDataPath(map, layer.data), layer)
                                             : ContourFeatureSource::openTiled(map, layer);
        if (!src) return failed(src.message());
        return std::unique_ptr<FeatureSource>(std::move(src).value());
    }
    if (layer.connectionType == ConnectionType::UVRaster) {
        auto src = UvRasterFeatureSource::open(resolveDataPath(map, layer.data), layer, mapDirectory(map));
        if (!src) return failed(src.message());
        return std::unique_ptr<FeatureSource>(std::move(src).value());
    }
    if (layer.connectionType == ConnectionType::PostGIS) {
        auto src = PostgisFeatureSource::open(layer, context.sharedPgPool(), context.sharedPgRowCache());
        if (!src) return failed(src.message());
        return std::unique_ptr<FeatureSource>(std::move(src).value());
    }
    return failed(QStringLiteral("connection type not supported yet"));
}

}  // namespace maptune
