#include "raster/lut_kernels.h"

#include <atomic>
#include <cstdlib>
#include <string_view>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define MAPTUNE_LUT_X86 1
#endif

namespace maptune::lut_kernels {

namespace {
// Off unless MAPTUNE_LUT_SIMD=1. Alone the kernel is 13x the scalar loop, but
// in the server a separate in-place pass made a LUT cost 2-4 % of the CPU per
// request against 0-1 % for the lookups fused into compose (docs/PERFORMANCE.md),
// so compose's fused lookups stay the default.
std::atomic<bool> g_vbmiEnabled{[] {
    const char* v = std::getenv("MAPTUNE_LUT_SIMD");
    return v && std::string_view(v) == "1";
}()};
}  // namespace

void applyScalar(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t count)
{
    for (size_t i = 0; i < count; ++i) out[i] = table[in[i]];
}

#ifdef MAPTUNE_LUT_X86

#define MAPTUNE_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))

namespace {

// VPERMT2B looks 64 bytes up in a 128-entry table (two registers, index bits
// 0..6); one per half of the 256-entry table, and the index's top bit picks
// between their results. (A function, not a lambda: a lambda's body would
// not inherit the target attribute.)
MAPTUNE_VBMI inline __m512i lookup64(__m512i idx, __m512i t0, __m512i t1, __m512i t2, __m512i t3)
{
    const __m512i low = _mm512_permutex2var_epi8(t0, idx, t1);
    const __m512i high = _mm512_permutex2var_epi8(t2, idx, t3);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(idx), low, high);
}

}  // namespace

MAPTUNE_VBMI void applyVbmi(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t count)
{
    const __m512i t0 = _mm512_loadu_si512(table);
    const __m512i t1 = _mm512_loadu_si512(table + 64);
    const __m512i t2 = _mm512_loadu_si512(table + 128);
    const __m512i t3 = _mm512_loadu_si512(table + 192);
    size_t i = 0;
    for (; i + 64 <= count; i += 64)
        _mm512_storeu_si512(out + i, lookup64(_mm512_loadu_si512(in + i), t0, t1, t2, t3));
    if (i < count) {
        // Masked lanes neither fault nor write: the tail needs no scalar loop.
        const __mmask64 m = (uint64_t(1) << (count - i)) - 1;
        _mm512_mask_storeu_epi8(out + i, m, lookup64(_mm512_maskz_loadu_epi8(m, in + i), t0, t1, t2, t3));
    }
}

bool vbmiAvailable()
{
    // __builtin_cpu_supports also checks that the OS saves the ZMM state.
    static const bool available = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
               && __builtin_cpu_supports("avx512vbmi");
    }();
    return available;
}

#else

void applyVbmi(const uint8_t* table, const uint8_t* in, uint8_t* out, size_t count)
{
    applyScalar(table, in, out, count);
}

bool vbmiAvailable() { return false; }

#endif

bool vbmiInUse() { return vbmiAvailable() && g_vbmiEnabled.load(std::memory_order_relaxed); }

bool vbmiEnabled() { return g_vbmiEnabled.load(std::memory_order_relaxed); }

void setVbmiEnabled(bool enabled) { g_vbmiEnabled.store(enabled, std::memory_order_relaxed); }

}  // namespace maptune::lut_kernels
