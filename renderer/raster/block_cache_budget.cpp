#include "raster/block_cache_budget.h"

#include <cpl_conv.h>
#include <gdal.h>

#include <atomic>

namespace maptune {

namespace {

std::atomic<bool> g_adaptive{false};
std::atomic<qint64> g_large{0};

}  // namespace

void BlockCacheBudget::setFixed(qint64 bytes)
{
    g_adaptive = false;
    GDALSetCacheMax64(bytes);
}

void BlockCacheBudget::startAdaptive()
{
    if (CPLGetConfigOption("GDAL_CACHEMAX", nullptr)) return;
    const qint64 large = GDALGetCacheMax64();
    if (large <= kSmallBytes) return;
    g_large = large;
    GDALSetCacheMax64(kSmallBytes);
    g_adaptive = true;
}

void BlockCacheBudget::noteOpened(GDALDatasetH dataset)
{
    if (!g_adaptive.load(std::memory_order_relaxed) || !dataset) return;
    GDALDriverH driver = GDALGetDatasetDriver(dataset);
    if (!driver || !costlyToDecode(QString::fromLatin1(GDALGetDriverShortName(driver)))) return;
    if (g_adaptive.exchange(false)) GDALSetCacheMax64(g_large);
}

bool BlockCacheBudget::costlyToDecode(const QString& driver)
{
    static const char* const wavelet[] = {"JP2OpenJPEG", "JP2KAK", "JP2ECW", "JP2MrSID", "JPEG2000", "ECW", "MrSID", "JP2Lura"};
    for (const char* name : wavelet)
        if (driver.compare(QLatin1String(name), Qt::CaseInsensitive) == 0) return true;
    return false;
}

}  // namespace maptune
