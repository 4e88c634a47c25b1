#include "wms/vector_tile_output.h"

#include "encode/protobuf_writer.h"
#include "geo/map_view.h"
#include "render/scale_range.h"
#include "wms/drawn_feature_walk.h"
#include "wms/gml_items.h"
#include "wms/vector_tile_geometry.h"

#include <QHash>

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace maptune {

namespace {

const QString kMvtMime = QStringLiteral("application/vnd.mapbox-vector-tile");
const QString kProtobufMime = QStringLiteral("application/x-protobuf");

// vector_tile.proto's field numbers.
enum TileField { TileLayers = 3 };
enum LayerField { LayerName = 1, LayerFeatures = 2, LayerKeys = 3, LayerValues = 4, LayerExtent = 5, LayerVersion = 15 };
enum FeatureField { FeatureId = 1, FeatureTags = 2, FeatureType = 3, FeatureGeometry = 4 };
enum ValueField { StringValue = 1, FloatValue = 2, IntValue = 4, SintValue = 6, BoolValue = 7 };

int optionInt(const OutputFormatDef& def, const char* key, int fallback)
{
    const std::optional<QString> v = def.formatOptions.value(QLatin1String(key));
    if (!v) return fallback;
    const long n = std::clamp(std::strtol(v->toUtf8().constData(), nullptr, 10), -long(INT_MAX), long(INT_MAX));
    return int(std::abs(n));
}

// A value as its item's gml type makes it (msMVTWriteTile), converted as
// glibc's atoi / atol / atof do (strtol's result narrowed; no overflow UB).
QByteArray encodeValue(const QString& type, const QString& text)
{
    ProtobufWriter w;
    const QByteArray utf8 = text.toUtf8();
    if (type.compare(QLatin1String("Integer"), Qt::CaseInsensitive) == 0) w.int64(IntValue, int(std::strtol(utf8.constData(), nullptr, 10)));
    else if (type.compare(QLatin1String("Long"), Qt::CaseInsensitive) == 0) w.sint64(SintValue, std::strtol(utf8.constData(), nullptr, 10));
    else if (type.compare(QLatin1String("Real"), Qt::CaseInsensitive) == 0) w.float32(FloatValue, float(std::strtod(utf8.constData(), nullptr)));
    else if (type.compare(QLatin1String("Boolean"), Qt::CaseInsensitive) == 0)
        w.uint(BoolValue, !(text == QLatin1String("0") || text.compare(QLatin1String("false"), Qt::CaseInsensitive) == 0));
    else w.bytes(StringValue, utf8);
    return w.data();
}

std::optional<TileGeometryType> tileType(LayerType type)
{
    switch (type) {
    case LayerType::Point: return TileGeometryType::Point;
    case LayerType::Line: return TileGeometryType::Line;
    case LayerType::Polygon: return TileGeometryType::Polygon;
    default: return std::nullopt;
    }
}

// One tile layer; nothing when the layer's data lies outside the request.
Result<std::optional<QByteArray>> writeLayer(const PreparedMap& prepared, int index, const VectorTileRequest& request,
                                             TileGeometryType type)
{
    DrawnFeatureWalk walk;
    if (const Status opened = walk.open(prepared, index, {request.box, request.crs, request.scaleDenom, true, request.cancel}); !opened)
        return opened.error();
    if (!walk.overlapsData()) return std::optional<QByteArray>();
    const LayerDef& layer = walk.layer();
    const QList<GmlItem> items = visibleGmlItems(layer, walk.fields(), &prepared.map());

    ProtobufWriter features;
    QHash<QString, std::uint32_t> valueIndex;
    QList<QByteArray> values;
    Feature f;
    int cls = -1;
    while (walk.next(f, cls)) {
        if (walk.toRequest()) walk.toRequest()->transform(f.geometry.xy.data(), f.geometry.xy.data() + 1, f.geometry.pointCount(), 2);
        const std::vector<std::uint32_t> geometry = encodeTileGeometry(f.geometry, type, request.box, request.format.extent, request.format.edgeBuffer);
        if (geometry.empty()) continue;
        std::vector<std::uint32_t> tags;
        for (int k = 0; k < items.size(); ++k) {
            const QString value = items[k].field < f.values.size() ? f.values[items[k].field] : QString();
            auto found = valueIndex.constFind(value);
            if (found == valueIndex.constEnd()) {
                found = valueIndex.insert(value, std::uint32_t(values.size()));
                values << encodeValue(items[k].type, value);
            }
            tags.insert(tags.end(), {std::uint32_t(k), *found});
        }
        ProtobufWriter feature;
        feature.uint(FeatureId, std::uint64_t(f.id));
        feature.packed(FeatureTags, tags);
        feature.uint(FeatureType, std::uint64_t(type));
        feature.packed(FeatureGeometry, geometry);
        features.bytes(LayerFeatures, feature.data());
    }
    if (const QString error = walk.error(); !error.isEmpty()) return Error(error);

    ProtobufWriter out;
    out.bytes(LayerName, layer.name.toUtf8());
    QByteArray body = out.data() + features.data();
    ProtobufWriter rest;
    for (const GmlItem& item : items) rest.bytes(LayerKeys, item.alias.toUtf8());
    for (const QByteArray& v : std::as_const(values)) rest.bytes(LayerValues, v);
    rest.uint(LayerExtent, std::uint64_t(request.format.extent));
    rest.uint(LayerVersion, 2);
    return std::optional<QByteArray>(body + rest.data());
}

Rect boxFromCentres(const Rect& centres, int width)
{
    if (width < 2) return centres;
    const double cell = centres.width() / (width - 1);
    return {centres.minx - cell / 2, centres.miny - cell / 2, centres.maxx + cell / 2, centres.maxy + cell / 2};
}

}  // namespace

Rect vectorTileBoxFromEdges(const Rect& edges, int width, int height)
{
    if (width < 1 || height < 1) return edges;
    return boxFromCentres(pixelCentreExtent(edges, width, height), width);
}

std::optional<VectorTileFormat> findVectorTileFormat(const MapDef& map, const QString& format)
{
    const QString f = format.trimmed();
    // The map's OUTPUTFORMATs by MIME type, then by name (msGetOutputFormatIndex).
    for (bool byMime : {true, false})
        for (const OutputFormatDef& def : map.outputFormats) {
            if ((byMime ? def.mimeType : def.name).compare(f, Qt::CaseInsensitive) != 0) continue;
            if (def.driver.compare(QLatin1String("MVT"), Qt::CaseInsensitive) != 0) return std::nullopt;
            return VectorTileFormat{def.mimeType.isEmpty() ? kMvtMime : def.mimeType, optionInt(def, "EXTENT", 4096),
                                    optionInt(def, "EDGE_BUFFER", 10)};
        }
    if (f.compare(QLatin1String("mvt"), Qt::CaseInsensitive) == 0 || f.compare(kMvtMime, Qt::CaseInsensitive) == 0)
        return VectorTileFormat{kMvtMime};
    if (f.compare(QLatin1String("mvtxprotobuf"), Qt::CaseInsensitive) == 0 || f.compare(kProtobufMime, Qt::CaseInsensitive) == 0)
        return VectorTileFormat{kProtobufMime};
    return std::nullopt;
}

Result<QByteArray> writeVectorTile(const PreparedMap& prepared, const VectorTileRequest& request)
{
    const MapDef& map = prepared.map();
    constexpr int kMaxExtent = 1 << 24;
    if (request.format.extent < 1 || request.format.extent > kMaxExtent)
        return Error(QStringLiteral("FORMATOPTION EXTENT=%1: the tile grid must be 1 to %2 units wide.").arg(request.format.extent).arg(kMaxExtent));
    ProtobufWriter tile;
    for (int index : request.layers) {
        const LayerDef& layer = map.layers[index];
        const std::optional<TileGeometryType> type = tileType(layer.type);
        if (!type || !inDrawScaleRange(layer.minScaleDenom, layer.maxScaleDenom, request.scaleDenom)) continue;
        Result<std::optional<QByteArray>> written = writeLayer(prepared, index, request, *type);
        if (!written) return written.error().prefixed(QStringLiteral("layer '%1': ").arg(layer.name));
        if (written->has_value()) tile.bytes(TileLayers, **written);
    }
    return tile.data();
}

}  // namespace maptune
