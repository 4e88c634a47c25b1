#pragma once
// The byte-table lookup behind Lut::apply for 8-bit input, in a portable form
// and an AVX-512 VBMI form chosen at run time. Internal to the raster module;
// exposed so tests can hold both forms against each other on a VBMI machine.

#include <cstddef>
#include <cstdint>

namespace maptune::lut_kernels {

// out[i] = table[in[i]]; table has at least 256 entries; in and out may alias
// (exactly, or not at all).
void applyScalar(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t count);
// The same, 64 bytes per step with VPERMT2B. Call only when vbmiAvailable().
void applyVbmi(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t count);

// This CPU and OS run applyVbmi (AVX-512 F, BW and VBMI).
bool vbmiAvailable();
// vbmiAvailable() and enabled: by MAPTUNE_LUT_SIMD=1 (off by default, see
// lut_kernels.cpp for the measurement) or by setVbmiEnabled(true).
bool vbmiInUse();
bool vbmiEnabled();
// Test hook: lets a VBMI machine exercise both the SIMD and portable paths.
void setVbmiEnabled(bool enabled);

}  // namespace maptune::lut_kernels
