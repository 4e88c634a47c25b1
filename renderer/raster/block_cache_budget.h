#pragma once
// How much of GDAL's one raster block cache a server keeps. Decoded
// GeoTIFF blocks are cheap to read again (the file stays in the OS page
// cache), so a server starts with a small budget; JPEG 2000 and the other
// wavelet formats cost ten times more to decode than to keep, so the first
// such dataset opened raises the budget to GDAL's default (GDAL_CACHEMAX,
// else 5 % of RAM), where MapServer's processes keep theirs.

#include <QString>

typedef void* GDALDatasetH;

namespace maptune {

class BlockCacheBudget {
public:
    static constexpr qint64 kSmallBytes = 256LL * 1024 * 1024;

    // A fixed limit (serve --gdal-cache-mb); stays as given.
    static void setFixed(qint64 bytes);
    // The small budget, grown once a wavelet-coded dataset is opened. Does
    // nothing when GDAL_CACHEMAX is set: the administrator's choice stands.
    static void startAdaptive();
    // Called for each dataset the process opens.
    static void noteOpened(GDALDatasetH dataset);
    // Whether re-decoding this driver's blocks is costly enough to keep them.
    static bool costlyToDecode(const QString& driverShortName);
};

}  // namespace maptune
