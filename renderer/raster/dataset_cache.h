#pragma once
// Open GDAL datasets, cached per thread: GDAL handles must not be shared
// between threads, and opening a file (reading its header, overviews, world
// file) costs far more than a window read. Bounded LRU per thread.

#include <QString>
#include <QStringList>

#include <memory>

typedef void* GDALDatasetH;

namespace maptune {

class DatasetCache {
public:
    static constexpr int kCapacity = 64;

    // The dataset at `path` (absolute), opened read-only with GDAL open
    // options ("KEY=VALUE"), or nullptr with *error set. The handle stays
    // valid until this thread opens kCapacity other datasets or calls clear().
    static GDALDatasetH open(const QString& path, const QStringList& openOptions, QString* error);
    // Closes this thread's datasets (e.g. after a file changed on disk).
    static void clear();
    static int size();
};

}  // namespace maptune
