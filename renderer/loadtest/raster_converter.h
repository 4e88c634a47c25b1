#pragma once
// Raster copies in the formats the field reports compared (GeoTIFF tiled +
// overviews, striped, JPEG-in-TIFF, JPEG 2000, COG) and overview building,
// through GDAL's C API with a progress callback and a CancelToken. A copy is
// written under a temporary name next to its destination and renamed when
// complete, so a cancelled or failed conversion never leaves a partial file
// under the asked name, and the source is never written.

#include "trace/cancel_token.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace maptune {

enum class RasterFormat {
    GeoTiffTiled,   // 256x256 tiles, DEFLATE, internal overviews
    GeoTiffStriped, // strips, no compression, no overviews (the "before" of the reports)
    JpegTiff,       // tiled JPEG-in-TIFF (YCbCr for RGB), internal overviews
    Jpeg2000,       // the JPEG 2000 driver GDAL has (JP2OpenJPEG)
    Cog,            // Cloud Optimized GeoTIFF (tiled, DEFLATE, overviews inside)
};

// Fraction 0..1 of the whole operation and what it is doing ("translating", "overviews").
using RasterProgress = std::function<void(double fraction, const QString& stage)>;

struct RasterJobResult {
    bool ok = false;
    QString path;          // the file written (or the overview file / dataset that got overviews)
    QString error;         // when !ok; says what to do next
    bool cancelled = false;
    bool reused = false;   // an up-to-date copy existed and was kept
};

struct OverviewOptions {
    QString resampling = QStringLiteral("AVERAGE");
    QList<int> levels;     // empty: 2, 4, 8 ... until the smallest side is <= 256 pixels
    bool external = false; // force an external .ovr even when the file could take internal ones
};

class RasterConverter {
public:
    static QList<RasterFormat> allFormats();
    // "gtiff-tiled", "gtiff-striped", "jpeg-tiff", "jp2", "cog"
    static QString key(RasterFormat format);
    static std::optional<RasterFormat> fromKey(const QString& key);
    // A human label: "GeoTIFF tiled + overviews", "JPEG 2000 (JP2OpenJPEG)", ...
    static QString label(RasterFormat format);
    static QString suffix(RasterFormat format);          // ".tif" or ".jp2"
    // The GDAL driver that writes the format; empty when GDAL has none (JPEG 2000).
    static QString driverName(RasterFormat format);
    // Why the source cannot be written in the format (e.g. JPEG needs 8-bit 1 or 3 bands); nullopt when it can.
    static std::optional<QString> unsupportedReason(const QString& source, RasterFormat format);

    // Writes source in format to output (atomically; output must not be the source).
    static RasterJobResult convert(const QString& source, const QString& output, RasterFormat format,
                                   const CancelToken& cancel = {}, const RasterProgress& progress = {});
    // Same, into dir under a name derived from the source's path, mtime and size:
    // an existing copy with that name is reused (reused = true).
    static RasterJobResult convertCached(const QString& source, const QString& dir, RasterFormat format,
                                         const CancelToken& cancel = {}, const RasterProgress& progress = {});
    static QString cachedName(const QString& source, RasterFormat format);

    // Builds overviews: internal for a writable GeoTIFF, else (or when asked) an
    // external path.ovr. A cancelled run removes what it added.
    static RasterJobResult buildOverviews(const QString& path, const OverviewOptions& options = {},
                                          const CancelToken& cancel = {}, const RasterProgress& progress = {});
    static QList<int> defaultOverviewLevels(int width, int height, int smallest = 256);
};

}  // namespace maptune
