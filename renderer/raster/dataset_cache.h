#pragma once
// Open GDAL datasets, cached per thread: GDAL handles must not be shared
// between threads, and opening a file (reading its header, overviews, world
// file) costs far more than a window read. Bounded LRU per thread.

#include "core/result.h"

#include <QString>
#include <QStringList>

#include <memory>

typedef void* GDALDatasetH;

namespace maptune {

class DatasetCache {
public:
    static constexpr int kCapacity = 64;

    // The dataset at `path` (absolute), opened read-only with GDAL open
    // options ("KEY=VALUE"); never null when ok. The handle stays valid
    // until this thread opens kCapacity other datasets or calls clear().
    static Result<GDALDatasetH> open(const QString& path, const QStringList& openOptions);
    // Closes this thread's datasets (e.g. after a file changed on disk).
    static void clear();
    static int size();
};

}  // namespace maptune
