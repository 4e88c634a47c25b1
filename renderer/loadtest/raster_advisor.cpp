#include "loadtest/raster_advisor.h"

#include "core/gdal_dataset.h"
#include "mapfile/map_paths.h"
#include "raster/raster_layer_renderer.h"
#include "render/engine.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <gdal.h>
#include <ogr_api.h>

#include <memory>

namespace maptune {

namespace {

using Dataset = OwnedDataset;

// Below this many pixels on the longer side a whole read is cheap: no advice about layout.
constexpr int kSmall = 1024;

QString imageStructure(GDALDatasetH ds, const char* key)
{
    const char* v = GDALGetMetadataItem(ds, key, "IMAGE_STRUCTURE");
    return v ? QString::fromUtf8(v) : QString();
}

QString megabytes(qint64 bytes) { return QString::number(bytes / 1048576.0, 'f', bytes < 10 * 1048576 ? 1 : 0) + QStringLiteral(" MB"); }

// Tile locations of a TILEINDEX (a file or the name of another layer), resolved as the renderer resolves them.
std::optional<QStringList> tileFiles(const MapDef& map, const LayerDef& layer, QString* error)
{
    QString index = layer.tileIndex;
    if (const LayerDef* other = map.layer(index); other && !other->data.isEmpty()) index = other->data;
    QString indexPath = resolveDataPath(map, index);
    if (!QFileInfo::exists(indexPath) && QFileInfo::exists(indexPath + QLatin1String(".shp"))) indexPath += QLatin1String(".shp");
    Dataset ds(GDALOpenEx(QFile::encodeName(indexPath).constData(), GDAL_OF_VECTOR | GDAL_OF_READONLY, nullptr, nullptr, nullptr));
    OGRLayerH l = ds ? GDALDatasetGetLayer(ds.get(), 0) : nullptr;
    if (!l) {
        *error = QStringLiteral("cannot read the tile index '%1'").arg(indexPath);
        return std::nullopt;
    }
    const int field = OGR_FD_GetFieldIndex(OGR_L_GetLayerDefn(l), layer.tileItem.toUtf8().constData());
    if (field < 0) {
        *error = QStringLiteral("the tile index '%1' has no attribute '%2' (TILEITEM)").arg(indexPath, layer.tileItem);
        return std::nullopt;
    }
    QStringList out;
    OGR_L_ResetReading(l);
    while (OGRFeatureH f = OGR_L_GetNextFeature(l)) {
        const QString loc = QString::fromUtf8(OGR_F_GetFieldAsString(f, field));
        OGR_F_Destroy(f);
        QString p = resolveDataPath(map, loc);
        if (!QFileInfo::exists(p) && !QFileInfo(loc).isAbsolute())
            p = QDir(QFileInfo(indexPath).absolutePath()).absoluteFilePath(loc);
        out << p;
    }
    return out;
}

RasterAdvice advice(AdviceLevel level, const RasterFileInfo& f, const QString& message, QList<RasterAction> actions = {})
{
    return {level, f.path, message, std::move(actions)};
}

// Advice on how windows are read: tiling and overviews.
void layoutAdvice(const RasterFileInfo& f, QList<RasterAdvice>& out)
{
    using A = RasterAction;
    if (!RasterAdvisor::isLarge(f)) return;
    if (!f.tiled && f.overviews == 0) {
        out << advice(AdviceLevel::Warning, f,
                      QStringLiteral("striped, no overviews: every zoomed-out request reads the full resolution, and "
                                     "every window reads whole strips %1 pixels wide. Build overviews, or better convert "
                                     "to a tiled GeoTIFF or COG.").arg(f.width),
                      {A::BuildOverviews, A::ConvertToTiledGeoTiff, A::ConvertToCog});
    } else if (!f.tiled) {
        out << advice(AdviceLevel::Warning, f,
                      QStringLiteral("no internal tiling (blocks of %1x%2 pixels): a small window still reads whole "
                                     "strips across the image. A tiled GeoTIFF or COG reads only the tiles it needs.")
                          .arg(f.blockWidth).arg(f.blockHeight),
                      {A::ConvertToTiledGeoTiff, A::ConvertToCog});
    } else if (f.overviews == 0) {
        out << advice(AdviceLevel::Warning, f,
                      QStringLiteral("no overviews: every zoomed-out request reads the full resolution (%1x%2 pixels) "
                                     "and shrinks it.").arg(f.width).arg(f.height),
                      {A::BuildOverviews, A::ConvertToCog});
    } else {
        out << advice(AdviceLevel::Good, f,
                      QStringLiteral("tiled (%1x%2) with %3 overview level%4%5: windows and zoomed-out views read only "
                                     "what they show.")
                          .arg(f.blockWidth).arg(f.blockHeight).arg(f.overviews)
                          .arg(f.overviews == 1 ? QString() : QStringLiteral("s"))
                          .arg(f.externalOverviews ? QStringLiteral(" (external .ovr)") : QString()));
    }
}

}  // namespace

RasterFileInfo RasterAdvisor::inspect(const QString& path)
{
    initEngine();
    RasterFileInfo f;
    f.path = path;
    Dataset ds(GDALOpen(QFile::encodeName(path).constData(), GA_ReadOnly));
    if (!ds || GDALGetRasterCount(ds.get()) < 1) {
        const char* msg = CPLGetLastErrorMsg();
        f.error = msg && *msg ? QString::fromUtf8(msg) : QStringLiteral("cannot open '%1' as a raster").arg(path);
        return f;
    }
    GDALDriverH drv = GDALGetDatasetDriver(ds.get());
    f.driver = QString::fromUtf8(GDALGetDriverShortName(drv));
    f.driverLongName = QString::fromUtf8(GDALGetDriverLongName(drv));
    f.width = GDALGetRasterXSize(ds.get());
    f.height = GDALGetRasterYSize(ds.get());
    f.bands = GDALGetRasterCount(ds.get());
    GDALRasterBandH band = GDALGetRasterBand(ds.get(), 1);
    f.dataType = QString::fromUtf8(GDALGetDataTypeName(GDALGetRasterDataType(band)));
    GDALGetBlockSize(band, &f.blockWidth, &f.blockHeight);
    f.tiled = f.blockWidth < f.width;
    f.overviews = GDALGetOverviewCount(band);
    f.externalOverviews = QFileInfo::exists(path + QStringLiteral(".ovr"));
    f.compression = imageStructure(ds.get(), "COMPRESSION");
    if (f.compression.isEmpty()) f.compression = f.driver.startsWith(QLatin1String("JP2")) ? QStringLiteral("JPEG2000") : QStringLiteral("NONE");
    f.interleave = imageStructure(ds.get(), "INTERLEAVE");
    f.cog = imageStructure(ds.get(), "LAYOUT").compare(QLatin1String("COG"), Qt::CaseInsensitive) == 0;
    const QFileInfo fi(path);
    f.fileBytes = fi.size() + (f.externalOverviews ? QFileInfo(path + QStringLiteral(".ovr")).size() : 0);
    f.writable = fi.isWritable() && QFileInfo(fi.absolutePath()).isWritable();
    return f;
}

bool RasterAdvisor::isLarge(const RasterFileInfo& f) { return std::max(f.width, f.height) > kSmall; }

QList<RasterAdvice> RasterAdvisor::advise(const RasterFileInfo& f)
{
    using A = RasterAction;
    QList<RasterAdvice> out;
    if (!f.ok()) {
        out << advice(AdviceLevel::Warning, f, QStringLiteral("cannot be read: %1").arg(f.error));
        return out;
    }
    if (f.driver.startsWith(QLatin1String("JP2"))) {
        out << advice(AdviceLevel::Warning, f,
                      QStringLiteral("JPEG 2000: decode cost depends on the driver (here %1); wavelet decoding makes "
                                     "every window expensive. A tiled GeoTIFF (JPEG or DEFLATE) or COG serves the same "
                                     "views much faster.").arg(f.driver),
                      {A::ConvertToTiledGeoTiff, A::ConvertToCog});
        return out;
    }
    layoutAdvice(f, out);
    if (f.cog) out << advice(AdviceLevel::Good, f, QStringLiteral("Cloud Optimized GeoTIFF layout."));
    if (f.driver != QLatin1String("GTiff") && std::max(f.width, f.height) > kSmall)
        out << advice(AdviceLevel::Info, f,
                      QStringLiteral("%1 (%2) is not made for windowed reads; GeoTIFF is.").arg(f.driver, f.driverLongName),
                      {A::ConvertToTiledGeoTiff, A::ConvertToCog});
    if (f.compression == QLatin1String("NONE") && f.fileBytes > 64 * 1048576)
        out << advice(AdviceLevel::Info, f,
                      QStringLiteral("uncompressed, %1 on disk: DEFLATE (lossless) or JPEG (lossy, photos) makes the "
                                     "file several times smaller and often faster to read from a cold disk.")
                          .arg(megabytes(f.fileBytes)),
                      {A::ConvertToCog});
    if (f.interleave == QLatin1String("BAND") && f.bands > 1 && std::max(f.width, f.height) > kSmall)
        out << advice(AdviceLevel::Info, f,
                      QStringLiteral("band-interleaved: a window is read once per band (%1 times); pixel interleaving "
                                     "reads it once.").arg(f.bands),
                      {A::ConvertToTiledGeoTiff});
    return out;
}

LayerRasterReport RasterAdvisor::inspectLayer(const MapDef& map, const LayerDef& layer, int maxFiles)
{
    initEngine();
    LayerRasterReport r;
    r.layer = layer.name;
    if (layer.type != LayerType::Raster) {
        r.error = QStringLiteral("not a RASTER layer");
        return r;
    }
    QStringList files;
    if (!layer.tileIndex.isEmpty()) {
        r.tileIndex = true;
        auto tiles = tileFiles(map, layer, &r.error);
        if (!tiles) return r;
        files = *tiles;
        r.tiles = int(files.size());
    } else if (layer.data.isEmpty()) {
        r.error = QStringLiteral("no DATA and no TILEINDEX");
        return r;
    } else {
        files << resolveDataPath(map, layer.data);
    }
    int withoutOverviews = 0;
    for (qsizetype i = 0; i < files.size() && i < maxFiles; ++i) {
        RasterFileInfo f = inspect(files[i]);
        r.totalBytes += f.fileBytes;
        if (f.ok() && f.overviews == 0) ++withoutOverviews;
        r.advice << advise(f);
        r.files << std::move(f);
    }
    if (r.tileIndex && r.tiles > 16 && withoutOverviews == r.files.size()) {
        RasterFileInfo idx;
        idx.path = layer.tileIndex;
        r.advice << advice(AdviceLevel::Warning, idx,
                           QStringLiteral("%1 tiles in the index and none has overviews: a zoomed-out view opens and "
                                          "reads every tile. A mosaic (VRT turned into one COG) or a second, coarser tile "
                                          "set for small scales avoids that.").arg(r.tiles));
    }
    return r;
}

QList<LayerRasterReport> RasterAdvisor::inspectMap(const MapDef& map, int maxFilesPerLayer)
{
    QList<LayerRasterReport> out;
    for (const LayerDef& l : map.layers)
        if (l.type == LayerType::Raster) out << inspectLayer(map, l, maxFilesPerLayer);
    return out;
}

QString RasterAdvisor::actionLabel(RasterAction action)
{
    switch (action) {
    case RasterAction::BuildOverviews: return QStringLiteral("build overviews");
    case RasterAction::ConvertToTiledGeoTiff: return QStringLiteral("convert to tiled GeoTIFF");
    case RasterAction::ConvertToCog: return QStringLiteral("convert to COG");
    }
    return {};
}

QString RasterAdvisor::text(const LayerRasterReport& r)
{
    QString out = QStringLiteral("layer '%1'").arg(r.layer);
    if (r.tileIndex) out += QStringLiteral(": tile index with %1 tile%2").arg(r.tiles).arg(r.tiles == 1 ? "" : "s");
    if (!r.error.isEmpty()) return out + QStringLiteral(": %1\n").arg(r.error);
    out += QStringLiteral(", %1\n").arg(megabytes(r.totalBytes));
    for (const RasterFileInfo& f : r.files) {
        if (!f.ok()) {
            out += QStringLiteral("  %1: %2\n").arg(f.path, f.error);
            continue;
        }
        out += QStringLiteral("  %1\n    %2, %3x%4, %5 band(s) %6, blocks %7x%8 (%9), %10 overview(s)%11, compression %12, "
                              "interleave %13, %14\n")
                   .arg(f.path, f.driver).arg(f.width).arg(f.height).arg(f.bands).arg(f.dataType)
                   .arg(f.blockWidth).arg(f.blockHeight).arg(f.tiled ? QStringLiteral("tiled") : QStringLiteral("strips"))
                   .arg(f.overviews).arg(f.externalOverviews ? QStringLiteral(" in .ovr") : QString())
                   .arg(f.compression, f.interleave.isEmpty() ? QStringLiteral("-") : f.interleave, megabytes(f.fileBytes));
    }
    static const char* const levels[] = {"good", "info", "warning"};
    for (const RasterAdvice& a : r.advice) {
        out += QStringLiteral("  %1: %2: %3\n").arg(QLatin1String(levels[int(a.level)]), QFileInfo(a.path).fileName(), a.message);
        QStringList actions;
        for (RasterAction act : a.actions) actions << actionLabel(act);
        if (!actions.isEmpty()) out += QStringLiteral("    fix: %1\n").arg(actions.join(QStringLiteral(", ")));
    }
    return out;
}

QString RasterAdvisor::convertedPath(RasterAction action, const QString& path, const QString& outDir)
{
    const QFileInfo fi(path);
    const QString dir = outDir.isEmpty() ? fi.absolutePath() : QDir(outDir).absolutePath();
    const QString tag = action == RasterAction::ConvertToCog ? QStringLiteral("cog") : QStringLiteral("tiled");
    return QDir(dir).filePath(QStringLiteral("%1-%2.tif").arg(fi.completeBaseName(), tag));
}

RasterJobResult RasterAdvisor::apply(RasterAction action, const QString& path, const QString& outDir,
                                     const CancelToken& cancel, const RasterProgress& progress)
{
    if (action != RasterAction::BuildOverviews && !outDir.isEmpty() && !QDir().mkpath(outDir)) {
        RasterJobResult r;
        r.error = QStringLiteral("cannot create the directory '%1'").arg(outDir);
        return r;
    }
    if (action == RasterAction::BuildOverviews) return RasterConverter::buildOverviews(path, {}, cancel, progress);
    return convert(action, path, convertedPath(action, path, outDir), cancel, progress);
}

RasterJobResult RasterAdvisor::convert(RasterAction action, const QString& path, const QString& output,
                                       const CancelToken& cancel, const RasterProgress& progress)
{
    RasterJobResult r;
    r.path = output;
    switch (action) {
    case RasterAction::BuildOverviews: r.error = QStringLiteral("building overviews writes no copy"); return r;
    case RasterAction::ConvertToTiledGeoTiff: return RasterConverter::convert(path, output, RasterFormat::GeoTiffTiled, cancel, progress);
    case RasterAction::ConvertToCog: return RasterConverter::convert(path, output, RasterFormat::Cog, cancel, progress);
    }
    return r;
}

}  // namespace maptune
