#pragma once
// PNG's five row filters (PNG spec, 9.2) and the adaptive choice between
// them: the filter whose output bytes, read as signed, sum to the least
// magnitude (the PNG spec's suggested heuristic, libpng's default).

#include <cstddef>
#include <cstdint>

namespace maptune {

enum class PngFilter : uint8_t { None = 0, Sub = 1, Up = 2, Average = 3, Paeth = 4 };

// Filters `row` (`stride` bytes, `bpp` bytes per pixel) against `prior`, the
// unfiltered row above (all zeros for the first row), into out[0] = the
// filter type and out[1 .. stride] = the filtered bytes. Returns the filter.
PngFilter filterRowAdaptive(const uint8_t* row, const uint8_t* prior, size_t stride, size_t bpp, uint8_t* out);

// How many bytes the Sub filter turns into 0, i.e. equal to the byte one
// pixel to the left: high on flat map rows, low on photos.
size_t countSubZeros(const uint8_t* row, size_t stride, size_t bpp);

// Writes one given filter of `row` to out (stride bytes, no type byte).
void filterRow(PngFilter filter, const uint8_t* row, const uint8_t* prior, size_t stride, size_t bpp, uint8_t* out);

}  // namespace maptune
