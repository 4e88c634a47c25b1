#include "cli/allocator.h"

#ifdef MAPTUNE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

namespace maptune::cli {

QString allocatorVersion()
{
#ifdef MAPTUNE_JEMALLOC
    const char* version = nullptr;
    size_t size = sizeof version;
    if (mallctl("version", &version, &size, nullptr, 0) == 0 && version)
        return QStringLiteral("jemalloc ") + QString::fromLatin1(version).section(QLatin1Char('-'), 0, 0);
    return QStringLiteral("jemalloc");
#else
    return QStringLiteral("glibc malloc");
#endif
}

}  // namespace maptune::cli
