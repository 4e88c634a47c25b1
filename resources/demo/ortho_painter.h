#pragma once

#include "demo_scene.h"

#include <cstdint>
#include <vector>

namespace maptune::demo {

// Paints a photo-like orthophoto of the scene: RGB, 8 bits, pixel-interleaved,
// scene.pixels x scene.pixels, north up. Texture and sensor noise make it
// compress like aerial imagery rather than like a flat-colour map.
std::vector<std::uint8_t> paintOrtho(const DemoScene& scene);

} // namespace maptune::demo
