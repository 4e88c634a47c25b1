#pragma once
// The fuzz targets' entry points. Each fuzz_<what>.cpp defines one; the
// libFuzzer executables call it from LLVMFuzzerTestOneInput (fuzz_entry.cpp)
// and fuzz_regressions replays the kept inputs through the same functions, so
// a fixed crash stays fixed in every build, fuzzing or not.
//
// Rules for targets: deterministic, no files written (or read, beyond what the
// process loads once), no leaks, and a crash only for a real engine bug.

#include <cstddef>
#include <cstdint>

namespace maptune::fuzz {

int mapfile(const uint8_t* data, size_t size);     // parseMapText, validateMap, writeMapFile
int expr(const uint8_t* data, size_t size);        // Expression::compile/bind/evaluate
int wmsRequest(const uint8_t* data, size_t size);  // WmsRequest::fromQueryString, loadGetMapParams
int lut(const uint8_t* data, size_t size);         // Lut point lists and GIMP curves
int wkb(const uint8_t* data, size_t size);         // decodeWkb and the point queries on its result
int qix(const uint8_t* data, size_t size);         // QixIndex::fromBytes and search
int shp(const uint8_t* data, size_t size);         // ShpFile over an in-memory .shx + .shp
int queryTemplate(const uint8_t* data, size_t size);  // mapserv's template language over fixed query results
int geomTransform(const uint8_t* data, size_t size);  // GEOMTRANSFORM expressions parsed and evaluated on fixed shapes
int text(const uint8_t* data, size_t size);           // label text: runs, font fallback, shaping, drawing
int ogrStyle(const uint8_t* data, size_t size);       // OGR style strings (STYLEITEM AUTO), CHART/KERNELDENSITY/IDW PROCESSING

// Aborts (so libFuzzer reports the input) when an invariant does not hold.
void check(bool condition, const char* what);

}  // namespace maptune::fuzz
