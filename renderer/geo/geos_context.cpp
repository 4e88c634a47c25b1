#include "geo/geos_context.h"

namespace maptune {

namespace {

struct GeosContext {
    GEOSContextHandle_t handle = GEOS_init_r();
    ~GeosContext() { GEOS_finish_r(handle); }
};

}  // namespace

GEOSContextHandle_t geosForThread()
{
    thread_local GeosContext ctx;
    return ctx.handle;
}

void GeosGeometryDeleter::operator()(GEOSGeometry* g) const
{
    if (g) GEOSGeom_destroy_r(geosForThread(), g);
}

}  // namespace maptune
