#include "render/map_renderer.h"

#include "render/raw_map_renderer.h"

#include "encode/image_encoder.h"
#include "encode/output_format.h"
#include "encode/svg_writer.h"
#include "encode/vector_surface.h"
#include "geo/map_view.h"
#include "render/label_cache.h"
#include "render/layer_context.h"
#include "render/legend.h"
#include "render/scalebar.h"
#include "render/render_load.h"

#include <QPainter>

#include <cpl_string.h>

namespace maptune {

MapRenderer::MapRenderer(PreparedMapPtr map) : m_map(std::move(map)) {}

MapRenderer::MapRenderer(MapDefPtr map) : m_map(PreparedMap::prepare(std::move(map))) {}

Result<QList<int>> MapRenderer::selectLayers(const MapDef& map, const RenderRequest& request)
{
    if (request.layerOrder) {
        for (int i : *request.layerOrder)
            if (i < 0 || i >= map.layers.size()) return Error(QStringLiteral("layer index %1 is not in the map").arg(i));
        return *request.layerOrder;
    }
    QList<int> out;
    for (const QString& name : request.layers) {
        bool found = false;
        for (const LayerDef& l : map.layers)
            if (l.name.compare(name, Qt::CaseInsensitive) == 0 || l.group.compare(name, Qt::CaseInsensitive) == 0)
                found = true;
        if (!found) return Error(QStringLiteral("no layer or group named '%1' in the map").arg(name));
    }
    for (int i = 0; i < map.layers.size(); ++i) {
        const LayerDef& l = map.layers[i];
        bool on = l.status == LayerStatus::Default;
        if (!on && !request.layersGiven) on = l.status == LayerStatus::On;
        if (!on && request.layersGiven) {
            for (const QString& name : request.layers)
                if (l.name.compare(name, Qt::CaseInsensitive) == 0
                    || (!l.group.isEmpty() && l.group.compare(name, Qt::CaseInsensitive) == 0))
                    on = true;
        }
        if (on) out << i;
    }
    return out;
}

namespace {

// A yes/no keyword the scale bar keeps as an extra (POSTLABELCACHE).
bool isTrue(const ScalebarDef& s, const char* keyword)
{
    for (const ExtraProperty& e : s.extras)
        if (e.keyword.compare(QLatin1String(keyword), Qt::CaseInsensitive) == 0 && !e.args.isEmpty())
            return e.args.first().compare(QLatin1String("TRUE"), Qt::CaseInsensitive) == 0
                   || e.args.first().compare(QLatin1String("ON"), Qt::CaseInsensitive) == 0;
    return false;
}

// Layer OPACITY / COMPOSITE: the layer is drawn on its own canvas and then
// blended, so overlapping features of one layer do not show through each other.
double layerOpacity(const LayerDef& l)
{
    if (l.composites.isEmpty()) return 1.0;
    return std::clamp(l.composites.first().opacity, 0.0, 100.0) / 100.0;
}

// A pixel-centre extent widened to the image's edges, x and y each by half its own cell.
Rect widenedByHalfCells(const Rect& e, int width, int height)
{
    const double dx = e.width() / (width - 1) / 2, dy = e.height() / (height - 1) / 2;
    return {e.minx - dx, e.miny - dy, e.maxx + dx, e.maxy + dy};
}

}  // namespace

RenderResult MapRenderer::render(const RenderRequest& req, TraceSink* sink) const
{
    const RenderLoad::Scope load;
    Stopwatch total;
    RenderResult result;
    const PreparedMap& prepared = *m_map;
    const MapDef& map = prepared.map();

    // An IMAGETYPE that does not resolve draws in the built-in png, as MapServer does.
    Result<ImageFormat> format = req.format.isEmpty()
        ? Result<ImageFormat>(defaultImageFormat(map).valueOr(fallbackImageFormat()))
        : findImageFormat(map, req.format);
    if (!format) {
        result.error = format.message();
        return result;
    }
    const int width = req.width > 0 ? req.width : map.width;
    const int height = req.height > 0 ? req.height : map.height;
    if (width <= 0 || height <= 0) {
        result.error = QStringLiteral("image size %1x%2 is invalid: set SIZE in the mapfile or give a size").arg(width).arg(height);
        return result;
    }
    if (width > map.maxSize || height > map.maxSize) {
        result.error = QStringLiteral("image size %1x%2 exceeds MAXSIZE %3").arg(width).arg(height).arg(map.maxSize);
        return result;
    }

    Crs crs;
    if (req.crs) {
        crs = *req.crs;
    } else if (map.projection.isSet() && !map.projection.isAuto()) {
        if (!prepared.crs()) {
            result.error = QStringLiteral("map PROJECTION: %1").arg(prepared.crsError());
            return result;
        }
        crs = *prepared.crs();
    }
    const QString units = effectiveUnits(map, crs);
    MapView view;
    if (req.bbox) {
        view = makeMapViewFromEdges(*req.bbox, width, height, crs, units, map.resolution);
    } else {
        const Rect ext = req.centerExtent ? *req.centerExtent : map.extent;
        if (!ext.isValid()) {
            result.error = QStringLiteral("map EXTENT is missing or empty: set EXTENT minx miny maxx maxy");
            return result;
        }
        // CONFIG MS_NONSQUARE YES: the extent is kept, each axis with its own cell size.
        const bool nonSquare = CPLTestBool(map.config.value(QStringLiteral("MS_NONSQUARE"), QStringLiteral("NO")).toUtf8().constData());
        view = nonSquare && width > 1 && height > 1
            ? makeMapViewFromEdges(widenedByHalfCells(ext, width, height), width, height, crs, units, map.resolution)
            : makeMapViewFromCenterExtent(ext, width, height, crs, units, map.resolution);
        if (nonSquare) view.centerExtent = ext;
    }
    view.defResolution = map.defResolution;
    view.angle = map.angle;

    Result<QList<int>> selected = selectLayers(map, req);
    if (!selected) {
        result.error = selected.message();
        return result;
    }
    // REQUIRES: a layer whose context does not hold is left out (msLayerIsVisible).
    const LayerContext context(map, *selected, view.scaleDenom);
    const QList<int> layers = context.visibleLayers();

    // The workbench's canvas (no encoding) shows a raw format's map in colours.
    const bool rawOrSvg = format->kind == ImageFormat::Kind::Raw || format->kind == ImageFormat::Kind::Svg;
    if (rawOrSvg && !req.encode) format = fallbackImageFormat();
    if (format->kind == ImageFormat::Kind::Raw) {
        renderRawMap(prepared, layers, view, *format, req.cancel, result);
        result.trace.totalMs = total.elapsedMs();
        if (sink) sink->traceFinished(map.name, result.trace);
        return result;
    }

    if (req.transparent) format = withTransparency(*format, *req.transparent);
    // An RGBA format starts from a transparent canvas even without
    // TRANSPARENT ON, as MapServer's msImageCreate does.
    const bool transparent = (format->transparent || format->rgba) && !format->opaqueBackground;
    Color bg = req.background.value_or(map.imageColor);
    if (!bg.isSet()) bg = Color::rgb(255, 255, 255);
    QImage canvas(width, height, QImage::Format_ARGB32_Premultiplied);
    canvas.fill(transparent ? QColor(0, 0, 0, 0) : QColor(bg.r, bg.g, bg.b));
    // SVG: the painters draw their shapes on the surface instead of the canvas.
    std::optional<VectorSurface> surface;
    std::optional<VectorSurface::Binding> binding;
    if (format->kind == ImageFormat::Kind::Svg) {
        surface.emplace(QSize(width, height));
        surface->setBackground(transparent ? std::nullopt : std::optional<QColor>(QColor(bg.r, bg.g, bg.b)));
        binding.emplace(canvas, *surface);
    }

    LabelCache labels;
    for (int index : *selected) {
        if (req.cancel.isCancelled()) break;
        const PreparedLayer& prepLayer = prepared.layer(index);
        const LayerDef* layer = &prepLayer.def();
        LayerTrace lt;
        lt.layer = layer->name;
        lt.startMs = total.elapsedMs();
        Stopwatch layerClock;
        if (!context.isVisible(index)) {
            lt.skipped = true;
            result.trace.layers << lt;
            continue;
        }
        result.warnings << prepLayer.warnings();
        // The raster renderer blends its own layer OPACITY.
        const double opacity = layer->type == LayerType::Raster ? 1.0 : layerOpacity(*layer);
        QImage layerCanvas;
        QImage* target = &canvas;
        // On a vector surface a raster layer's pixels become one image; a
        // vector layer's OPACITY fades its shapes.
        const bool ownCanvas = surface ? layer->type == LayerType::Raster : opacity < 1.0;
        if (ownCanvas) {
            layerCanvas = QImage(width, height, QImage::Format_ARGB32_Premultiplied);
            layerCanvas.fill(Qt::transparent);
            target = &layerCanvas;
        }
        const qsizetype firstItem = surface ? surface->items().size() : 0;
        labels.setCurrentLayer(int(result.trace.layers.size()));
        const QSet<qint64>* queried = nullptr;
        if (req.query) {
            const auto found = req.query->selected.constFind(index);
            if (found != req.query->selected.cend()) queried = &found.value();
        }
        LayerDrawRequest draw{view, *target, lt, req.cancel, labels, nullptr, std::nullopt};
        if (queried && req.query->style == QueryHighlight::Style::Selected) draw.onlyFeatures = queried;
        draw.annotate = context.isAnnotated(index);
        bool ok = prepLayer.render(draw);
        if (ok && queried && req.query->style == QueryHighlight::Style::Hilite) {
            const Color c = req.query->color;
            LayerTrace hilite;
            LayerDrawRequest again{view, *target, hilite, req.cancel, labels, queried, QColor(c.r, c.g, c.b)};
            ok = prepLayer.render(again);
            if (!ok) lt.error = hilite.error;
        }
        if (ownCanvas && ok && !lt.skipped) {
            QPainter p(VectorSurface::deviceFor(canvas));
            p.setOpacity(opacity);
            p.drawImage(0, 0, layerCanvas);
        } else if (surface && opacity < 1.0) {
            surface->fade(firstItem, opacity);
        }
        if (!ok) result.warnings << lt.error;
        lt.totalMs = layerClock.elapsedMs();
        result.trace.layers << lt;
    }
    const bool scalebarLast = isTrue(map.scalebar, "POSTLABELCACHE");
    if (!map.legend.postLabelCache) {
        const QRect area = embedLegend(canvas, map, view, transparent);
        if (!area.isEmpty()) labels.addObstacle(area);
    }
    if (!scalebarLast) {
        const QRect area = embedScalebar(canvas, map, view);
        if (!area.isEmpty()) labels.addObstacle(area);
    }
    {
        Stopwatch labelClock;
        labels.draw(canvas, map, &result.trace.layers);
        result.trace.labelMs = labelClock.elapsedMs();
    }
    if (map.legend.postLabelCache) embedLegend(canvas, map, view, transparent);
    if (scalebarLast) embedScalebar(canvas, map, view);

    // A mixed format picks JPEG or PNG by the pixels: once, for the bytes and their type.
    const ImageFormat& written = req.encode ? format->formatFor(canvas) : *format;
    result.mimeType = written.mimeType;
    if (surface) {
        Stopwatch encodeClock;
        result.bytes = writeSvg(*surface);
        result.trace.encodeMs = encodeClock.elapsedMs();
        result.trace.bytes = result.bytes.size();
    } else if (req.encode) {
        Stopwatch encodeClock;
        Result<QByteArray> encoded = written.kind == ImageFormat::Kind::Gdal
            ? writeGdalImage(canvas, written, georeferenceFor(view, map.resolution))
            : encodeImage(canvas, written);
        result.trace.encodeMs = encodeClock.elapsedMs();
        if (encoded) result.bytes = std::move(encoded).value();
        else result.error = QStringLiteral("encoding failed: %1").arg(encoded.message());
        result.trace.bytes = result.bytes.size();
    }
    result.image = std::move(canvas);
    result.trace.totalMs = total.elapsedMs();
    if (sink) sink->traceFinished(map.name, result.trace);
    return result;
}

}  // namespace maptune
