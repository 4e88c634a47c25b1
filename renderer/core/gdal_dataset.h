#pragma once
// An owned GDAL dataset handle, closed with GDALClose. Header only: the
// modules that include it link GDAL themselves.

#include <gdal.h>

#include <memory>

namespace maptune {

struct GdalDatasetCloser {
    void operator()(void* dataset) const
    {
        if (dataset) GDALClose(dataset);
    }
};
using OwnedDataset = std::unique_ptr<void, GdalDatasetCloser>;

}  // namespace maptune
