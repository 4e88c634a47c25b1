#include "render/raw_map_renderer.h"

#include "raster/geo_transform.h"
#include "raster/raster_layer_renderer.h"
#include "render/prepared_map.h"
#include "render/scale_range.h"
#include "trace/trace.h"

#include <cpl_conv.h>

namespace maptune {

namespace {

RawStorage storageFor(const QString& rawType)
{
    if (rawType == QLatin1String("INT16")) return RawStorage::Int16;
    if (rawType == QLatin1String("BYTE")) return RawStorage::Byte;
    return RawStorage::Float32;
}

}  // namespace

Georeference georeferenceFor(const MapView& view, double resolution)
{
    Georeference geo;
    geo.geoTransform = GeoTransform::forMapView(view).c;
    if (view.crs.isValid()) geo.wkt = view.crs.wkt();
    geo.resolution = resolution;
    return geo;
}

void renderRawMap(const PreparedMap& prepared, const QList<int>& layers, const MapView& view, const ImageFormat& format,
                  const CancelToken& cancel, RenderResult& result)
{
    const MapDef& map = prepared.map();
    Stopwatch total;
    RawImage image;
    image.width = view.width, image.height = view.height;
    image.storage = storageFor(format.rawType);
    // msImageCreate: every band starts at NULLVALUE, else 0.
    const std::optional<QString> nullValue = format.options.value(QStringLiteral("NULLVALUE"));
    const float fill = nullValue ? storedAs(CPLAtof(nullValue->toUtf8().constData()), image.storage) : 0.0f;
    image.bands.assign(size_t(format.bandCount), std::vector<float>(size_t(view.width) * size_t(view.height), fill));

    for (int index : layers) {
        if (cancel.isCancelled()) break;
        const LayerDef& layer = prepared.layer(index).def();
        LayerTrace lt;
        lt.layer = layer.name;
        lt.startMs = total.elapsedMs();
        Stopwatch clock;
        if (!inDrawScaleRange(layer.minScaleDenom, layer.maxScaleDenom, view.scaleDenom) || layer.type != LayerType::Raster) {
            lt.skipped = true;
            if (layer.type != LayerType::Raster)
                result.warnings << QStringLiteral("layer '%1': a raw IMAGEMODE (%2) holds raster values only; the layer is not drawn")
                                       .arg(layer.name, format.rawType);
        } else if (!RasterLayerRenderer::renderRaw(map, layer, view, image, lt, cancel)) {
            result.warnings << lt.error;
        }
        lt.totalMs = clock.elapsedMs();
        result.trace.layers << lt;
    }
    Stopwatch encodeClock;
    Result<QByteArray> written = writeGdalRaw(image.width, image.height, image.bands, format, georeferenceFor(view, map.resolution));
    result.trace.encodeMs = encodeClock.elapsedMs();
    if (written) result.bytes = std::move(written).value();
    else result.error = written.message();
    result.trace.bytes = result.bytes.size();
    result.mimeType = format.mimeType;
}

}  // namespace maptune
