#include "raster/raster_layer_renderer.h"

#include "geo/map_projection.h"
#include "mapfile/map_paths.h"
#include "mapfile/processing.h"
#include "raster/dataset_cache.h"
#include "raster/geo_transform.h"
#include "raster/raster_classifier.h"
#include "raster/raster_composer.h"
#include "raster/raster_resampler.h"
#include "data/tile_index.h"

#include <QDir>
#include <QFileInfo>
#include <QPainter>

#include <gdal.h>

#include <cmath>

namespace maptune {

namespace {

struct LayerContext {
    const MapDef& map;
    const LayerDef& layer;
    const MapView& view;
    const RasterLayerSetup& setup;
    const ProcessingOptions& options;
    const QString& mapDir;
};

// Where the view lands on the raster when no resampling is needed: MapServer's
// integer source window read into an integer destination rectangle.
struct DirectWindow {
    RasterWindow window;
    int dstX = 0, dstY = 0;
};

std::optional<DirectWindow> directWindow(const GeoTransform& gt, int xsize, int ysize, const MapView& view)
{
    const Rect map = view.extent;
    const double csx = view.cellSizeX(), csy = view.cellSizeY();
    if (csx <= 0 || csy <= 0) return std::nullopt;
    Rect copy = map;
    copy.minx = std::max(copy.minx, gt.x(0, ysize));
    copy.maxx = std::min(copy.maxx, gt.x(xsize, 0));
    copy.miny = std::max(copy.miny, gt.y(0, ysize));
    copy.maxy = std::min(copy.maxy, gt.y(xsize, 0));
    if (copy.minx >= copy.maxx || copy.miny >= copy.maxy) return std::nullopt;
    const auto inv = gt.inverted();
    if (!inv) return std::nullopt;
    const double llx = inv->x(copy.minx, copy.miny), lly = inv->y(copy.minx, copy.miny);
    const double urx = inv->x(copy.maxx, copy.maxy), ury = inv->y(copy.maxx, copy.maxy);

    DirectWindow d;
    RasterWindow& w = d.window;
    w.srcX = std::max(0, int(std::floor(llx + 0.5)));
    w.srcY = std::max(0, int(std::floor(ury + 0.5)));
    w.srcWidth = std::min(std::max(0, int(urx - llx + 0.5)), xsize - w.srcX);
    w.srcHeight = std::min(std::max(0, int(lly - ury + 0.5)), ysize - w.srcY);
    // Very small windows still use one source pixel (MapServer #4172).
    if (w.srcWidth == 0 && urx - llx > 0) {
        w.srcWidth = 1;
        w.srcX = std::min(w.srcX, xsize - 1);
    }
    if (w.srcHeight == 0 && lly - ury > 0) {
        w.srcHeight = 1;
        w.srcY = std::min(w.srcY, ysize - 1);
    }
    if (w.srcWidth <= 0 || w.srcHeight <= 0) return std::nullopt;

    d.dstX = int((copy.minx - map.minx) / csx);
    d.dstY = int((map.maxy - copy.maxy) / csy);
    const int lrx = std::clamp(int((copy.maxx - map.minx) / csx + 0.5), 0, view.width);
    const int lry = std::clamp(int((map.maxy - copy.miny) / csy + 0.5), 0, view.height);
    w.dstWidth = std::max(0, std::min(view.width, lrx - d.dstX));
    w.dstHeight = std::max(0, std::min(view.height, lry - d.dstY));
    if (w.dstWidth == 0 || w.dstHeight == 0) return std::nullopt;
    return d;
}

std::optional<Crs> layerCrs(const LayerDef& layer, const RasterLayerSetup& setup, GDALDatasetH ds, QString* error)
{
    if (layer.projection.isAuto()) {
        const char* wkt = GDALGetProjectionRef(ds);
        if (!wkt || !*wkt) return Crs();
        Result<Crs> crs = Crs::fromWkt(QByteArray(wkt));
        if (!crs && error) *error = crs.message();
        return std::move(crs).toOptional();
    }
    if (!layer.projection.isSet()) return Crs();
    if (!setup.crs && error) *error = setup.crsError;
    return setup.crs;
}

// Draws one dataset of the layer.
Status drawDataset(const LayerContext& ctx, GDALDatasetH ds, const Crs& crs, QPainter& painter, QImage& target, LayerTrace& trace)
{
    const GeoTransform gt = GeoTransform::forRaster(ds, ctx.layer, ctx.options, ctx.mapDir);
    const bool reproject = crs.isValid() && ctx.view.crs.isValid() && crs != ctx.view.crs;
    const bool resample = (!gt.isNorthUp() && ctx.layer.transform) || reproject
        || ctx.options.has(QStringLiteral("RESAMPLE")) || ctx.view.angle != 0;
    RasterSource src{ds, &ctx.layer, &ctx.options, &ctx.setup.luts, ctx.mapDir, ctx.setup.classifier.get()};

    if (resample) return RasterResampler::render(src, gt, reproject ? crs : Crs(), ctx.view, trace, target);
    const auto d = directWindow(gt, GDALGetRasterXSize(ds), GDALGetRasterYSize(ds), ctx.view);
    if (!d) return {};  // no overlap: nothing to draw
    const Result<QImage> img = RasterComposer::compose(src, d->window, trace);
    if (!img) return img.error();
    Stopwatch sw;
    painter.drawImage(d->dstX, d->dstY, *img);
    trace.drawMs += sw.elapsedMs();
    trace.pixels += qint64(img->width()) * img->height();
    return {};
}

// Where a layer draws: straight onto the map, or with OPACITY onto an image
// of its own blended once at the end, as MapServer does, so that
// overlapping tiles do not fade each other.
struct LayerTarget {
    LayerTarget(const LayerDef& layer, QImage& canvas)
        : opacity(layer.composites.isEmpty() ? 100.0 : layer.composites[0].opacity)
    {
        if (opacity < 100) {
            layerImage = QImage(canvas.size(), QImage::Format_ARGB32_Premultiplied);
            layerImage.fill(Qt::transparent);
            painter.begin(&layerImage);
        } else {
            painter.begin(&canvas);
        }
    }
    void finish(QImage& canvas, LayerTrace& trace)
    {
        painter.end();
        if (layerImage.isNull()) return;
        Stopwatch sw;
        QPainter p(&canvas);
        p.setOpacity(opacity / 100.0);
        p.drawImage(0, 0, layerImage);
        trace.drawMs += sw.elapsedMs();
    }

    // What the painter paints on.
    QImage& image(QImage& canvas) { return layerImage.isNull() ? canvas : layerImage; }

    double opacity;
    QImage layerImage;
    QPainter painter;
};

QStringList openOptionsFor(const LayerDef& layer)
{
    QStringList out;
    for (const auto& [k, v] : layer.connectionOptions.items) out << k + QLatin1Char('=') + v;
    return out;
}

}  // namespace

QStringList RasterLayerRenderer::warnings(const LayerDef& layer)
{
    QStringList out;
    for (const QString& w : ProcessingOptions(layer.processing).warnings())
        out << QStringLiteral("layer '%1': %2").arg(layer.name, w);
    return out;
}

RasterLayerSetup::RasterLayerSetup(const MapDef& map, const LayerDef& layer)
    : options(layer.processing), mapDir(mapDirectory(map)), luts(options, mapDir)
{
    Result<std::unique_ptr<RasterClassifier>> classified = RasterClassifier::create(layer);
    classifierError = classified.message();
    if (classified) classifier = std::move(classified).value();
    if (layer.projection.isSet() && !layer.projection.isAuto()) {
        Result<Crs> resolved = resolveProjection(map, layer.projection);
        crsError = resolved.message();
        crs = std::move(resolved).toOptional();
    }
}

bool RasterLayerRenderer::render(const MapDef& map, const LayerDef& layer, const MapView& view, QImage& canvas,
                                 LayerTrace& trace, const CancelToken& cancel)
{
    const RasterLayerSetup setup(map, layer);
    return render(map, layer, setup, view, canvas, trace, cancel);
}

bool RasterLayerRenderer::render(const MapDef& map, const LayerDef& layer, const RasterLayerSetup& setup,
                                 const MapView& view, QImage& canvas, LayerTrace& trace, const CancelToken& cancel)
{
    Stopwatch total;
    trace.layer = layer.name;
    const auto fail = [&](const QString& what) {
        trace.error = QStringLiteral("layer '%1': %2").arg(layer.name, what);
        trace.totalMs += total.elapsedMs();
        return false;
    };
    const LayerContext ctx{map, layer, view, setup, setup.options, setup.mapDir};
    QString error;
    if (!setup.classifierError.isEmpty()) return fail(setup.classifierError);

    LayerTarget target(layer, canvas);
    QPainter& painter = target.painter;

    struct Item {
        QString path;
        QString display;
        QString srs;  // TILESRS value, empty: the layer's
    };
    QList<Item> items;
    if (!layer.tileIndex.isEmpty()) {
        const QString indexPath = TileIndex::path(map, layer);
        Stopwatch sw;
        const Result<QList<TileIndex::Tile>> tiles = TileIndex::query(indexPath, layer.tileItem, layer.tileSrs, view, &layer);
        trace.openMs += sw.elapsedMs();
        if (!tiles) return fail(QStringLiteral("cannot read tile index %1: %2").arg(layer.tileIndex, tiles.message()));
        for (const TileIndex::Tile& t : *tiles) {
            QString p = resolveDataPath(map, t.location);
            if (!QFileInfo::exists(p) && !QFileInfo(t.location).isAbsolute())
                p = QDir(QFileInfo(indexPath).absolutePath()).absoluteFilePath(t.location);
            items.append({p, t.location, t.srs});
        }
    } else {
        items.append({resolveDataPath(map, layer.data), layer.data, QString()});
    }

    for (const Item& item : items) {
        if (cancel.isCancelled()) break;
        Stopwatch sw;
        const Result<GDALDatasetH> opened = DatasetCache::open(item.path, openOptionsFor(layer));
        trace.openMs += sw.elapsedMs();
        if (!opened) return fail(QStringLiteral("cannot open %1: %2").arg(item.display, opened.message()));
        GDALDatasetH ds = *opened;
        std::optional<Crs> crs;
        if (!item.srs.isEmpty()) {
            Result<Crs> fromItem = Crs::fromUserInput(item.srs);
            error = fromItem.message();
            crs = std::move(fromItem).toOptional();
        } else {
            crs = layerCrs(layer, setup, ds, &error);
        }
        if (!crs) return fail(QStringLiteral("%1: bad projection: %2").arg(item.display, error));
        if (const Status drawn = drawDataset(ctx, ds, *crs, painter, target.image(canvas), trace); !drawn)
            return fail(QStringLiteral("%1: %2").arg(item.display, drawn.message()));
    }
    target.finish(canvas, trace);
    trace.totalMs += total.elapsedMs();
    return true;
}

bool RasterLayerRenderer::renderDataset(const MapDef& map, const LayerDef& layer, const RasterLayerSetup& setup,
                                        const MapView& view, GDALDatasetH dataset, QImage& canvas, LayerTrace& trace)
{
    Stopwatch total;
    trace.layer = layer.name;
    if (!setup.classifierError.isEmpty()) {
        trace.error = QStringLiteral("layer '%1': %2").arg(layer.name, setup.classifierError);
        return false;
    }
    const LayerContext ctx{map, layer, view, setup, setup.options, setup.mapDir};
    LayerTarget target(layer, canvas);
    const Status drawn = drawDataset(ctx, dataset, view.crs, target.painter, target.image(canvas), trace);
    target.finish(canvas, trace);
    trace.totalMs += total.elapsedMs();
    if (!drawn) trace.error = QStringLiteral("layer '%1': %2").arg(layer.name, drawn.message());
    return bool(drawn);
}

}  // namespace maptune
