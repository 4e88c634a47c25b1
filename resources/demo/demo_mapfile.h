#pragma once

#include "demo_scene.h"

#include <string>

namespace maptune::demo {

// The LUT the demo map applies to the orthophoto (MapServer RFC 21 point list).
inline constexpr const char* kDemoLut = "0:0,64:50,128:140,192:220,255:255";

// demo.map: a MapServer 8 mapfile over the files in the same folder, in EPSG:3857.
// With `postgis` (a libpq connection string) the roads come from the PostGIS
// table "roads" (loaded by scripts/demo) and the shapefile layer is "roads_shp".
std::string demoMapfileText(const DemoScene& scene, const std::string& postgis = {});

// ortho.curves: the same kind of correction as a GIMP curves file (old format),
// for the LUT editor and for PROCESSING "LUT=ortho.curves".
std::string gimpCurvesText();

// fonts.txt: the FONTSET the labels use (Debian's fonts-dejavu-core).
std::string fontsetText();

} // namespace maptune::demo
