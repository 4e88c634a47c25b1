#pragma once

#include "demo_scene.h"

#include <filesystem>
#include <optional>
#include <string>

namespace maptune::demo {

// Writes the scene's roads and buildings in EPSG:4326 as roads.shp and
// buildings.shp (with .prj, .cpg and a .qix spatial index) and as the two
// layers of demo.gpkg. Returns an error message on failure.
std::optional<std::string> writeVectorFiles(const DemoScene& scene, const std::filesystem::path& dir);

} // namespace maptune::demo
