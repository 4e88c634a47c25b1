#pragma once
// Process-wide start-up of the engine's libraries. Call once from main()
// (and from tests) before any rendering; safe to call again.

#include <QString>

namespace maptune {

void initEngine();

// "MapTune 0.1.0 (Qt 6.4.2, GDAL 3.6.2, PROJ 9.1.1, GEOS 3.11.1, libpq 15)".
QString engineVersions();

}  // namespace maptune
