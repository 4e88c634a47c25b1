#include "render/engine.h"

#include <QtGlobal>

#include <cpl_conv.h>
#include <gdal.h>
#include <geos_c.h>
#include <libpq-fe.h>
#include <proj.h>

#include <mutex>

namespace maptune {

void initEngine()
{
    static std::once_flag once;
    std::call_once(once, [] {
        GDALAllRegister();
        // Shapefiles without .cpg are Latin-1 in MapServer's world: do not let
        // OGR re-encode them behind our back.
        CPLSetConfigOption("SHAPE_ENCODING", "");
        CPLSetConfigOption("GDAL_PAM_ENABLED", "NO");  // never write .aux.xml next to user data
    });
}

QString engineVersions()
{
    const PJ_INFO proj = proj_info();
    return QStringLiteral("Qt %1, GDAL %2, PROJ %3, GEOS %4, libpq %5")
        .arg(QLatin1String(qVersion()), QLatin1String(GDALVersionInfo("RELEASE_NAME")), QLatin1String(proj.version),
             QLatin1String(GEOSversion()), QString::number(PQlibVersion() / 10000));
}

}  // namespace maptune
