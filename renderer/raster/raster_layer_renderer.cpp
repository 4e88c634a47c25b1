#include "raster/raster_layer_renderer.h"

#include "geo/map_projection.h"
#include "mapfile/map_paths.h"
#include "mapfile/processing.h"
#include "raster/dataset_cache.h"
#include "raster/geo_transform.h"
#include "raster/raster_classifier.h"
#include "raster/raster_composer.h"
#include "raster/direct_window.h"
#include "raster/raster_resampler.h"
#include "raster/raw_band_resampler.h"
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

// msDrawRasterLayerLow's choice of msResampleGDALToMap: a rotated or
// south-up raster, another CRS, PROCESSING RESAMPLE, or a map that needs a
// geotransform (rotated, or with pixels that are not square).
bool needsResampling(const LayerContext& ctx, const GeoTransform& gt, bool reproject)
{
    const double csx = ctx.view.cellSizeX(), csy = ctx.view.cellSizeY();
    const bool nonSquare = std::fabs(csx - csy) > 1e-9 * std::max(std::fabs(csx), std::fabs(csy));
    return (!gt.isNorthUp() && ctx.layer.transform) || reproject || ctx.options.has(QStringLiteral("RESAMPLE")) || ctx.view.angle != 0
        || nonSquare;
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
    const bool resample = needsResampling(ctx, gt, reproject);
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

namespace {

// Every dataset the layer draws (its DATA, or the TILEINDEX tiles the view
// meets), opened, with its CRS; `draw` is called for each. False with
// trace.error set when one fails.
bool forEachDataset(const MapDef& map, const LayerDef& layer, const RasterLayerSetup& setup, const MapView& view,
                    LayerTrace& trace, const CancelToken& cancel, const std::function<Status(GDALDatasetH, const Crs&)>& draw)
{
    const auto fail = [&](const QString& what) {
        trace.error = QStringLiteral("layer '%1': %2").arg(layer.name, what);
        return false;
    };
    QString error;
    if (!setup.classifierError.isEmpty()) return fail(setup.classifierError);

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

    std::optional<Crs> previousTileCrs;
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
        } else if (!layer.tileSrs.isEmpty() && !QByteArray(GDALGetProjectionRef(ds)).isEmpty()) {
            // msDrawRasterLoadProjection: an empty TILESRS value means the tile's own SRS.
            Result<Crs> own = Crs::fromWkt(QByteArray(GDALGetProjectionRef(ds)));
            error = own.message();
            crs = std::move(own).toOptional();
        } else if (!layer.tileSrs.isEmpty() && previousTileCrs) {
            crs = previousTileCrs;  // MapServer keeps the last tile's projection on the layer
        } else {
            crs = layerCrs(layer, setup, ds, &error);
        }
        if (!crs) return fail(QStringLiteral("%1: bad projection: %2").arg(item.display, error));
        previousTileCrs = crs;
        if (const Status drawn = draw(ds, *crs); !drawn) return fail(QStringLiteral("%1: %2").arg(item.display, drawn.message()));
    }
    return true;
}

// msDrawRasterLayerGDAL_RawMode: band values into the raw image, where a
// pixel has data (no-data pixels leave what is there).
Status drawRawDataset(const LayerContext& ctx, GDALDatasetH ds, const Crs& crs, RawImage& image)
{
    const GeoTransform gt = GeoTransform::forRaster(ds, ctx.layer, ctx.options, ctx.mapDir);
    const bool reproject = crs.isValid() && ctx.view.crs.isValid() && crs != ctx.view.crs;
    RawBandsRequest request;
    request.dataset = ds;
    request.layer = &ctx.layer;
    request.options = &ctx.options;
    request.storage = image.storage;
    const int available = GDALGetRasterCount(ds);
    if (const auto bands = ctx.options.value(QStringLiteral("BANDS"))) {
        for (const QString& b : bands->split(QLatin1Char(','), Qt::SkipEmptyParts)) request.bands.push_back(b.trimmed().toInt());
    } else {
        for (int b = 1; b <= int(image.bands.size()); ++b) request.bands.push_back(b);
    }
    request.bands.resize(std::min(request.bands.size(), image.bands.size()));
    for (int b : request.bands)
        if (b < 1 || b > available) return Error(QStringLiteral("band %1 asked for, the raster has %2").arg(b).arg(available));
    const bool resample = needsResampling(ctx, gt, reproject);
    request.mode = resample ? resampleMode(ctx.options) : Resample::Nearest;
    Result<RawRaster> drawn = resample ? RawBandResampler::render(request, gt, reproject ? crs : Crs(), ctx.view)
                                       : RawBandResampler::read(request, gt, ctx.view);
    if (!drawn) return drawn.error();
    const size_t pixels = size_t(image.width) * size_t(image.height);
    for (size_t p = 0; p < pixels; ++p) {
        if (!drawn->isValid(p)) continue;
        for (size_t b = 0; b < drawn->bands.size(); ++b) image.bands[b][p] = drawn->bands[b][p];
    }
    return {};
}

}  // namespace

bool RasterLayerRenderer::render(const MapDef& map, const LayerDef& layer, const RasterLayerSetup& setup,
                                 const MapView& view, QImage& canvas, LayerTrace& trace, const CancelToken& cancel)
{
    Stopwatch total;
    trace.layer = layer.name;
    const LayerContext ctx{map, layer, view, setup, setup.options, setup.mapDir};
    LayerTarget target(layer, canvas);
    const bool ok = forEachDataset(map, layer, setup, view, trace, cancel, [&](GDALDatasetH ds, const Crs& crs) {
        return drawDataset(ctx, ds, crs, target.painter, target.image(canvas), trace);
    });
    if (ok) target.finish(canvas, trace);
    trace.totalMs += total.elapsedMs();
    return ok;
}

bool RasterLayerRenderer::renderRaw(const MapDef& map, const LayerDef& layer, const MapView& view, RawImage& image,
                                    LayerTrace& trace, const CancelToken& cancel)
{
    Stopwatch total;
    trace.layer = layer.name;
    const RasterLayerSetup setup(map, layer);
    const LayerContext ctx{map, layer, view, setup, setup.options, setup.mapDir};
    const bool ok = forEachDataset(map, layer, setup, view, trace, cancel,
                                   [&](GDALDatasetH ds, const Crs& crs) { return drawRawDataset(ctx, ds, crs, image); });
    trace.totalMs += total.elapsedMs();
    return ok;
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
