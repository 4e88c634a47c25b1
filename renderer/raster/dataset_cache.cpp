#include "raster/dataset_cache.h"

#include "raster/block_cache_budget.h"

#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>

#include <list>
#include <vector>

namespace maptune {

namespace {

struct Entry {
    QString key;
    GDALDatasetH handle = nullptr;
};

struct ThreadCache {
    std::list<Entry> entries;  // most recently used first
    ~ThreadCache()
    {
        for (Entry& e : entries) GDALClose(e.handle);
    }
};

ThreadCache& threadCache()
{
    thread_local ThreadCache cache;
    return cache;
}

}  // namespace

Result<GDALDatasetH> DatasetCache::open(const QString& path, const QStringList& openOptions)
{
    const QString key = openOptions.isEmpty() ? path : path + QLatin1Char('\n') + openOptions.join(QLatin1Char('\n'));
    ThreadCache& cache = threadCache();
    for (auto it = cache.entries.begin(); it != cache.entries.end(); ++it) {
        if (it->key == key) {
            cache.entries.splice(cache.entries.begin(), cache.entries, it);
            return it->handle;
        }
    }
    std::vector<QByteArray> optionBytes;
    std::vector<const char*> options;
    for (const QString& o : openOptions) optionBytes.push_back(o.toUtf8());
    for (const QByteArray& o : optionBytes) options.push_back(o.constData());
    options.push_back(nullptr);

    CPLErrorReset();
    const QByteArray file = path.toUtf8();
    GDALDatasetH ds = GDALOpenEx(file.constData(), GDAL_OF_RASTER | GDAL_OF_READONLY, nullptr,
                                 openOptions.isEmpty() ? nullptr : options.data(), nullptr);
    if (!ds) {
        const QString msg = QString::fromUtf8(CPLGetLastErrorMsg());
        return Error(msg.isEmpty() ? QStringLiteral("not a raster GDAL can read") : msg);
    }
    BlockCacheBudget::noteOpened(ds);
    cache.entries.push_front({key, ds});
    while (int(cache.entries.size()) > kCapacity) {
        GDALClose(cache.entries.back().handle);
        cache.entries.pop_back();
    }
    return ds;
}

void DatasetCache::clear()
{
    ThreadCache& cache = threadCache();
    for (Entry& e : cache.entries) GDALClose(e.handle);
    cache.entries.clear();
}

int DatasetCache::size() { return int(threadCache().entries.size()); }

}  // namespace maptune
