#pragma once
// The raster advisor: what a raster layer's files are (driver, size, block
// layout, overviews, compression, interleave, bytes; a TILEINDEX expanded to
// its tiles) and what that costs a WMS, in plain words, with the actions that
// fix it (build overviews, convert to tiled GeoTIFF / COG: RasterConverter).

#include "loadtest/raster_converter.h"
#include "mapfile/map_def.h"
#include "trace/cancel_token.h"

#include <QList>
#include <QString>

namespace maptune {

struct RasterFileInfo {
    QString path;
    QString error;                 // could not be opened: the rest is empty
    QString driver;                // GDAL short name: GTiff, JP2OpenJPEG, COG files read as GTiff
    QString driverLongName;
    int width = 0, height = 0, bands = 0;
    QString dataType;              // Byte, UInt16, ...
    int blockWidth = 0, blockHeight = 0;   // of band 1
    bool tiled = false;            // blocks narrower than the image (not strips or one block)
    int overviews = 0;             // of band 1, internal and external
    bool externalOverviews = false;// a .ovr next to the file
    QString compression;           // NONE, DEFLATE, JPEG, LZW, ... (IMAGE_STRUCTURE COMPRESSION)
    QString interleave;            // PIXEL, BAND
    bool cog = false;              // LAYOUT=COG in IMAGE_STRUCTURE
    qint64 fileBytes = 0;
    bool writable = false;         // the file (and its directory) can be written
    bool ok() const { return error.isEmpty(); }
};

enum class AdviceLevel { Good, Info, Warning };
enum class RasterAction { BuildOverviews, ConvertToTiledGeoTiff, ConvertToCog };

struct RasterAdvice {
    AdviceLevel level = AdviceLevel::Info;
    QString path;                  // the file it is about
    QString message;               // plain language, one or two sentences
    QList<RasterAction> actions;   // what would fix it
};

struct LayerRasterReport {
    QString layer;
    QString error;                 // not a raster layer, no DATA, tile index unreadable
    bool tileIndex = false;
    int tiles = 0;                 // tile index: all tiles listed
    QList<RasterFileInfo> files;   // a tile index: the first maxFiles tiles
    QList<RasterAdvice> advice;    // per file, then for the layer (e.g. "many small tiles")
    qint64 totalBytes = 0;
};

class RasterAdvisor {
public:
    static RasterFileInfo inspect(const QString& path);
    static QList<RasterAdvice> advise(const RasterFileInfo& file);
    // Big enough for its layout to matter (smaller files are read whole anyway).
    static bool isLarge(const RasterFileInfo& file);
    static LayerRasterReport inspectLayer(const MapDef& map, const LayerDef& layer, int maxFiles = 200);
    // Every RASTER layer of the map.
    static QList<LayerRasterReport> inspectMap(const MapDef& map, int maxFilesPerLayer = 200);
    // A text report for terminals (maptune-cli advise).
    static QString text(const LayerRasterReport& report);
    static QString actionLabel(RasterAction action);   // "build overviews", ...

    // Runs an action on a file: BuildOverviews adds overviews (internal to a
    // writable GeoTIFF, else path.ovr); conversions write a new file into
    // outDir (empty: next to the source) named <base>-tiled.tif / <base>-cog.tif,
    // never overwriting the source. result.path is what was written.
    static RasterJobResult apply(RasterAction action, const QString& path, const QString& outDir = {},
                                 const CancelToken& cancel = {}, const RasterProgress& progress = {});
    static QString convertedPath(RasterAction action, const QString& path, const QString& outDir = {});
    // A conversion action into the file output (atomically; never the source),
    // for a name the user chose. An error for BuildOverviews, which writes no copy.
    static RasterJobResult convert(RasterAction action, const QString& path, const QString& output,
                                   const CancelToken& cancel = {}, const RasterProgress& progress = {});
};

}  // namespace maptune
