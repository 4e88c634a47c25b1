#pragma once

#include "demo_scene.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace maptune::demo {

// Writes the orthophoto as a tiled (256x256) pixel-interleaved RGB GeoTIFF in
// EPSG:3857 with internal AVERAGE overviews 2, 4, 8, 16. Returns an error
// message on failure.
std::optional<std::string> writeOrthoGeoTiff(const DemoScene& scene,
                                             const std::vector<std::uint8_t>& rgb,
                                             const std::filesystem::path& path);

// Lossless JPEG 2000 (reversible 5/3 wavelet) copy of a raster file.
std::optional<std::string> writeJpeg2000Copy(const std::filesystem::path& source,
                                             const std::filesystem::path& path);

} // namespace maptune::demo
