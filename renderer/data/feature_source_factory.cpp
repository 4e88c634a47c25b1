#include "data/feature_source_factory.h"
#include "mapfile/map_def.h"

#include "data/inline_feature_source.h"
#include "data/ogr_feature_source.h"
#include "data/postgis/postgis_feature_source.h"
#include "data/shapefile/shapefile_feature_source.h"
#include "mapfile/processing.h"

#include <QDir>
#include <QFileInfo>

namespace maptune {

Result<std::unique_ptr<FeatureSource>> openFeatureSource(const MapDef& map, const LayerDef& layer,
                                                         const EngineContext& context)
{
    QString err;
    std::unique_ptr<FeatureSource> src;
    if (!layer.features.isEmpty() && layer.data.isEmpty() && layer.connection.isEmpty()) {
        src = InlineFeatureSource::create(layer, &err);
    } else if (layer.connectionType == ConnectionType::OGR) {
        const ProcessingOptions opts(layer.processing);
        src = OgrFeatureSource::open(resolveDataPath(map, layer.connection), layer.data,
                                     opts.value(QStringLiteral("NATIVE_FILTER"), {}), &err);
    } else if (layer.connectionType == ConnectionType::Local || layer.connectionType == ConnectionType::Inline) {
        QString path = resolveDataPath(map, layer.data);
        if (!QFileInfo::exists(path) && QFileInfo::exists(path + QLatin1String(".shp")))
            path += QLatin1String(".shp");
        const ProcessingOptions opts(layer.processing);
        const QString nativeFilter = opts.value(QStringLiteral("NATIVE_FILTER"), {});
        auto ogr = OgrFeatureSource::open(path, {}, nativeFilter, &err);
        // An OGR SQL filter needs OGR's reading; otherwise our own is faster.
        if (ogr && nativeFilter.isEmpty() && path.endsWith(QLatin1String(".shp"), Qt::CaseInsensitive))
            src = ShapefileFeatureSource::wrap(path, std::move(ogr));
        else
            src = std::move(ogr);
    } else if (layer.connectionType == ConnectionType::PostGIS) {
        src = PostgisFeatureSource::open(layer, context.sharedPgPool(), &err);
    } else {
        err = QStringLiteral("connection type not supported yet");
    }
    if (!src) return Error(QStringLiteral("layer '%1': %2").arg(layer.name, err), layer.pos);
    return src;
}

}  // namespace maptune
