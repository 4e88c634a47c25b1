#pragma once
// GEOS through its reentrant API: one context per thread, and geometries
// owned RAII-style so that no early return leaks one.

#include <geos_c.h>

#include <memory>

namespace maptune {

// This thread's GEOS context, made on first use and finished with the thread.
GEOSContextHandle_t geosForThread();

struct GeosGeometryDeleter {
    void operator()(GEOSGeometry* g) const;
};
using GeosGeometry = std::unique_ptr<GEOSGeometry, GeosGeometryDeleter>;

}  // namespace maptune
