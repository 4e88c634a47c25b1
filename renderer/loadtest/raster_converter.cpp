#include "loadtest/raster_converter.h"

#include "core/gdal_dataset.h"
#include "loadtest/gdal_job.h"
#include "render/engine.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cpl_string.h>
#include <gdal.h>
#include <gdal_utils.h>

#include <memory>

namespace maptune {

namespace {

struct FormatInfo {
    RasterFormat format;
    const char* key;
    const char* label;
    const char* driver;
    const char* suffix;
    bool overviewsAfter;   // internal overviews built on the copy (COG builds its own)
};

constexpr FormatInfo kFormats[] = {
    {RasterFormat::GeoTiffTiled, "gtiff-tiled", "GeoTIFF tiled + overviews", "GTiff", ".tif", true},
    {RasterFormat::GeoTiffStriped, "gtiff-striped", "GeoTIFF striped", "GTiff", ".tif", false},
    {RasterFormat::JpegTiff, "jpeg-tiff", "JPEG-in-TIFF + overviews", "GTiff", ".tif", true},
    {RasterFormat::Jpeg2000, "jp2", "JPEG 2000", "JP2OpenJPEG", ".jp2", false},
    {RasterFormat::Cog, "cog", "COG", "COG", ".tif", false},
};

const FormatInfo& info(RasterFormat f)
{
    for (const FormatInfo& i : kFormats)
        if (i.format == f) return i;
    return kFormats[0];
}

using Dataset = OwnedDataset;

Dataset open(const QString& path, GDALAccess access)
{
    return Dataset(GDALOpen(QFile::encodeName(path).constData(), access));
}

struct SourceShape {
    int bands = 0;
    GDALDataType type = GDT_Unknown;
    int width = 0, height = 0;
};

std::optional<SourceShape> shapeOf(const QString& path)
{
    Dataset ds = open(path, GA_ReadOnly);
    if (!ds || GDALGetRasterCount(ds.get()) < 1) return std::nullopt;
    return SourceShape{GDALGetRasterCount(ds.get()), GDALGetRasterDataType(GDALGetRasterBand(ds.get(), 1)),
                       GDALGetRasterXSize(ds.get()), GDALGetRasterYSize(ds.get())};
}

// gdal_translate arguments for a format (the source's shape decides JPEG's photometric and bands).
QStringList translateArgs(RasterFormat f, const SourceShape& s)
{
    QStringList a{QStringLiteral("-of"), QLatin1String(info(f).driver)};
    auto co = [&a](const QString& v) { a << QStringLiteral("-co") << v; };
    switch (f) {
    case RasterFormat::GeoTiffTiled:
        for (const char* v : {"TILED=YES", "BLOCKXSIZE=256", "BLOCKYSIZE=256", "COMPRESS=DEFLATE", "BIGTIFF=IF_SAFER"})
            co(QLatin1String(v));
        break;
    case RasterFormat::GeoTiffStriped:
        for (const char* v : {"TILED=NO", "COMPRESS=NONE", "BIGTIFF=IF_SAFER"}) co(QLatin1String(v));
        break;
    case RasterFormat::JpegTiff:
        for (const char* v : {"TILED=YES", "BLOCKXSIZE=256", "BLOCKYSIZE=256", "COMPRESS=JPEG", "JPEG_QUALITY=85",
                              "BIGTIFF=IF_SAFER"})
            co(QLatin1String(v));
        if (s.bands >= 3) co(QStringLiteral("PHOTOMETRIC=YCBCR"));
        if (s.bands == 4) a << QStringLiteral("-b") << QStringLiteral("1") << QStringLiteral("-b") << QStringLiteral("2")
                            << QStringLiteral("-b") << QStringLiteral("3") << QStringLiteral("-mask") << QStringLiteral("4");
        break;
    case RasterFormat::Jpeg2000:
        co(QStringLiteral("QUALITY=50"));
        break;
    case RasterFormat::Cog:
        for (const char* v : {"COMPRESS=DEFLATE", "BLOCKSIZE=256", "OVERVIEWS=AUTO", "BIGTIFF=IF_SAFER"})
            co(QLatin1String(v));
        break;
    }
    return a;
}

struct CslList {
    char** list = nullptr;
    explicit CslList(const QStringList& items)
    {
        for (const QString& s : items) list = CSLAddString(list, s.toUtf8().constData());
    }
    ~CslList() { CSLDestroy(list); }
};

// gdal_translate source -> dest; false with result.error set on failure.
bool translate(const QString& source, const QString& dest, const QStringList& args, gdaljob::Progress& p,
               RasterJobResult& result)
{
    Dataset src = open(source, GA_ReadOnly);
    if (!src) {
        result.error = gdaljob::lastError(QStringLiteral("cannot open '%1'").arg(source));
        return false;
    }
    CslList argv(args);
    GDALTranslateOptions* opts = GDALTranslateOptionsNew(argv.list, nullptr);
    if (!opts) {
        result.error = gdaljob::lastError(QStringLiteral("bad translate options"));
        return false;
    }
    GDALTranslateOptionsSetProgress(opts, gdaljob::gdalProgress, &p);
    int usageError = 0;
    Dataset out(GDALTranslate(QFile::encodeName(dest).constData(), src.get(), opts, &usageError));
    GDALTranslateOptionsFree(opts);
    if (!out || p.cancel.isCancelled()) {
        result.cancelled = p.cancel.isCancelled();
        result.error = result.cancelled ? QStringLiteral("cancelled")
                                        : gdaljob::lastError(QStringLiteral("GDAL could not write '%1'").arg(dest));
        return false;
    }
    out.reset();  // flush and close before anything else reads it
    return true;
}

// Overviews on an open dataset; on failure or cancel the ones added are removed again.
bool overviewsOn(void* ds, const OverviewOptions& o, gdaljob::Progress& p, RasterJobResult& result)
{
    QList<int> levels = o.levels;
    if (levels.isEmpty()) levels = RasterConverter::defaultOverviewLevels(GDALGetRasterXSize(ds), GDALGetRasterYSize(ds));
    if (levels.isEmpty()) return true;  // already small: nothing to build
    const CPLErr err = GDALBuildOverviews(ds, o.resampling.toUtf8().constData(), int(levels.size()), levels.data(), 0,
                                          nullptr, gdaljob::gdalProgress, &p);
    if (err == CE_None && !p.cancel.isCancelled()) return true;
    result.cancelled = p.cancel.isCancelled();
    result.error = result.cancelled ? QStringLiteral("cancelled") : gdaljob::lastError(QStringLiteral("overviews failed"));
    return false;
}

bool samePath(const QString& a, const QString& b)
{
    const QString ca = QFileInfo(a).canonicalFilePath(), cb = QFileInfo(b).canonicalFilePath();
    return QFileInfo(a).absoluteFilePath() == QFileInfo(b).absoluteFilePath() || (!ca.isEmpty() && ca == cb);
}

}  // namespace

QList<RasterFormat> RasterConverter::allFormats()
{
    QList<RasterFormat> out;
    for (const FormatInfo& i : kFormats) out << i.format;
    return out;
}

QString RasterConverter::key(RasterFormat f) { return QLatin1String(info(f).key); }

std::optional<RasterFormat> RasterConverter::fromKey(const QString& key)
{
    for (const FormatInfo& i : kFormats)
        if (key.compare(QLatin1String(i.key), Qt::CaseInsensitive) == 0) return i.format;
    return std::nullopt;
}

QString RasterConverter::label(RasterFormat f)
{
    if (f == RasterFormat::Jpeg2000 && !driverName(f).isEmpty())
        return QStringLiteral("JPEG 2000 (%1)").arg(driverName(f));
    return QLatin1String(info(f).label);
}

QString RasterConverter::suffix(RasterFormat f) { return QLatin1String(info(f).suffix); }

QString RasterConverter::driverName(RasterFormat f)
{
    initEngine();
    if (f == RasterFormat::Jpeg2000) {
        for (const char* d : {"JP2OpenJPEG", "JP2KAK", "JP2ECW"})
            if (GDALDriverH h = GDALGetDriverByName(d); h && GDALGetMetadataItem(h, GDAL_DCAP_CREATECOPY, nullptr))
                return QLatin1String(d);
        return {};
    }
    return GDALGetDriverByName(info(f).driver) ? QString::fromLatin1(info(f).driver) : QString();
}

std::optional<QString> RasterConverter::unsupportedReason(const QString& source, RasterFormat f)
{
    initEngine();
    if (driverName(f).isEmpty()) return QStringLiteral("GDAL has no driver that writes %1").arg(label(f));
    const auto s = shapeOf(source);
    if (!s) return gdaljob::lastError(QStringLiteral("cannot open '%1' as a raster").arg(source));
    if (f == RasterFormat::JpegTiff && (s->type != GDT_Byte || s->bands == 2 || s->bands > 4))
        return QStringLiteral("JPEG needs 8-bit data with 1, 3 or 4 (RGBA) bands");
    return std::nullopt;
}

QList<int> RasterConverter::defaultOverviewLevels(int width, int height, int smallest)
{
    QList<int> levels;
    for (int f = 2; f < 1 << 20 && std::max(width, height) / (f / 2) > smallest; f *= 2) levels << f;
    return levels;
}

RasterJobResult RasterConverter::convert(const QString& source, const QString& output, RasterFormat format,
                                         const CancelToken& cancel, const RasterProgress& progress)
{
    initEngine();
    RasterJobResult result;
    result.path = output;
    if (samePath(source, output)) {
        result.error = QStringLiteral("the copy would overwrite its source '%1'; choose another name").arg(source);
        return result;
    }
    if (auto why = unsupportedReason(source, format)) {
        result.error = *why;
        return result;
    }
    const SourceShape shape = *shapeOf(source);
    QStringList args = translateArgs(format, shape);
    args[1] = driverName(format);
    const bool overviews = info(format).overviewsAfter;
    const QString tmp = gdaljob::temporaryPath(output);
    CPLErrorReset();
    gdaljob::Progress p{cancel, progress, 0, overviews ? 0.5 : 1.0, QStringLiteral("%1: writing").arg(label(format))};
    bool ok = translate(source, tmp, args, p, result);
    if (ok && overviews) {
        Dataset ds = open(tmp, GA_Update);
        p = {cancel, progress, 0.5, 0.5, QStringLiteral("%1: overviews").arg(label(format))};
        ok = ds && overviewsOn(ds.get(), OverviewOptions{}, p, result);
        if (!ds) result.error = gdaljob::lastError(QStringLiteral("cannot reopen '%1'").arg(tmp));
    }
    if (ok) {
        if (const Status published = gdaljob::publish(tmp, output); !published) {
            result.error = published.message();
            return result;
        }
        if (progress) progress(1.0, QStringLiteral("%1: done").arg(label(format)));
        result.ok = true;
        return result;
    }
    gdaljob::removeWithSideFiles(tmp);
    return result;
}

QString RasterConverter::cachedName(const QString& source, RasterFormat format)
{
    const QFileInfo fi(source);
    const QByteArray stamp = (fi.absoluteFilePath() + QLatin1Char('|') + QString::number(fi.lastModified().toMSecsSinceEpoch()) +
                              QLatin1Char('|') + QString::number(fi.size()))
                                 .toUtf8();
    const QString hash = QString::fromLatin1(QCryptographicHash::hash(stamp, QCryptographicHash::Sha1).toHex().left(10));
    return QStringLiteral("%1-%2-%3%4").arg(fi.completeBaseName(), key(format), hash, suffix(format));
}

RasterJobResult RasterConverter::convertCached(const QString& source, const QString& dir, RasterFormat format,
                                               const CancelToken& cancel, const RasterProgress& progress)
{
    if (!QDir().mkpath(dir)) {
        RasterJobResult r;
        r.error = QStringLiteral("cannot create the directory '%1'").arg(dir);
        return r;
    }
    const QString path = QDir(dir).absoluteFilePath(cachedName(source, format));
    if (QFileInfo::exists(path)) {  // published by rename: complete
        RasterJobResult r;
        r.ok = r.reused = true;
        r.path = path;
        if (progress) progress(1.0, QStringLiteral("%1: reused").arg(label(format)));
        return r;
    }
    return convert(source, path, format, cancel, progress);
}

RasterJobResult RasterConverter::buildOverviews(const QString& path, const OverviewOptions& options,
                                                const CancelToken& cancel, const RasterProgress& progress)
{
    initEngine();
    RasterJobResult result;
    result.path = path;
    const QFileInfo fi(path);
    Dataset probe = open(path, GA_ReadOnly);
    if (!probe) {
        result.error = gdaljob::lastError(QStringLiteral("cannot open '%1' as a raster").arg(path));
        return result;
    }
    const bool gtiff = QLatin1String(GDALGetDriverShortName(GDALGetDatasetDriver(probe.get()))) == QLatin1String("GTiff");
    const bool hadOverviews = GDALGetOverviewCount(GDALGetRasterBand(probe.get(), 1)) > 0;
    probe.reset();
    const bool internal = gtiff && !options.external && fi.isWritable() && QFileInfo(fi.absolutePath()).isWritable();
    const QString ovr = path + QStringLiteral(".ovr");
    const bool ovrExisted = QFileInfo::exists(ovr);
    if (!internal && !QFileInfo(fi.absolutePath()).isWritable()) {
        result.error = QStringLiteral("cannot write '%1': the directory is read-only; convert the file into a writable "
                                      "directory instead").arg(ovr);
        return result;
    }
    CPLErrorReset();
    // Read-only opening makes GDAL write an external .ovr.
    Dataset ds = open(path, internal ? GA_Update : GA_ReadOnly);
    gdaljob::Progress p{cancel, progress, 0, 1, QStringLiteral("overviews")};
    if (ds && overviewsOn(ds.get(), options, p, result)) {
        result.ok = true;
        if (!internal) result.path = ovr;
        return result;
    }
    if (!ds) result.error = gdaljob::lastError(QStringLiteral("cannot open '%1' for writing").arg(path));
    // Cleared only when there were none before: existing levels are the user's.
    if (ds && internal && !hadOverviews)
        [[maybe_unused]] const CPLErr cleared = GDALBuildOverviews(ds.get(), "NONE", 0, nullptr, 0, nullptr, nullptr, nullptr);
    ds.reset();
    if (!internal && !ovrExisted) QFile::remove(ovr);
    return result;
}

}  // namespace maptune
