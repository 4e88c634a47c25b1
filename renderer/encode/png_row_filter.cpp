#include "encode/png_row_filter.h"

#include "encode/cpu_features.h"

#include <array>
#include <cstdlib>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

// AVX2 where the CPU has it (chosen once at load time): twice the bytes per step.
#if defined(__x86_64__) && defined(__GNUC__)
#define MAPTUNE_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define MAPTUNE_AVX2_CLONES
#endif

namespace maptune {
namespace {

// a: the byte one pixel left, b: the byte above, c: above and left.
template <PngFilter F>
[[gnu::always_inline]] inline uint8_t predict(uint8_t a, uint8_t b, uint8_t c)
{
    if constexpr (F == PngFilter::None) return 0;
    else if constexpr (F == PngFilter::Sub) return a;
    else if constexpr (F == PngFilter::Up) return b;
    else if constexpr (F == PngFilter::Average) return uint8_t((unsigned(a) + b) >> 1);
    else {
        // Written without branches so that the compiler vectorises it.
        const int pa = std::abs(int(b) - c), pb = std::abs(int(a) - c), pc = std::abs(int(a) + b - 2 * c);
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
}

// The pixels of the first column have no left neighbour (a = c = 0); the
// rest is one loop without that test, which vectorises.
template <PngFilter F>
[[gnu::always_inline]] inline uint32_t cost(const uint8_t* row, const uint8_t* prior, size_t stride, size_t bpp)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < bpp && i < stride; ++i) sum += std::abs(int(int8_t(row[i] - predict<F>(0, prior[i], 0))));
    for (size_t i = bpp; i < stride; ++i)
        sum += std::abs(int(int8_t(row[i] - predict<F>(row[i - bpp], prior[i], prior[i - bpp]))));
    return sum;
}

template <PngFilter F>
[[gnu::always_inline]] inline void apply(const uint8_t* row, const uint8_t* prior, size_t stride, size_t bpp, uint8_t* out)
{
    for (size_t i = 0; i < bpp && i < stride; ++i) out[i] = uint8_t(row[i] - predict<F>(0, prior[i], 0));
    for (size_t i = bpp; i < stride; ++i) out[i] = uint8_t(row[i] - predict<F>(row[i - bpp], prior[i], prior[i - bpp]));
}

#if defined(__x86_64__) && defined(__GNUC__)
// A bit per byte from one compare, counted at once: the compiler's own
// vectorisation widened every byte to a 64-bit sum.
__attribute__((target("avx2,popcnt"))) size_t countSubZerosAvx2(const uint8_t* row, size_t stride, size_t bpp)
{
    size_t zeros = 0, i = bpp;
    for (; i + 32 <= stride; i += 32) {
        const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + i));
        const __m256i left = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + i - bpp));
        zeros += size_t(_mm_popcnt_u32(unsigned(_mm256_movemask_epi8(_mm256_cmpeq_epi8(here, left)))));
    }
    for (; i < stride; ++i) zeros += row[i] == row[i - bpp];
    return zeros;
}
#endif

}  // namespace

size_t countSubZeros(const uint8_t* row, size_t stride, size_t bpp)
{
    size_t zeros = 0;
    for (size_t i = 0; i < bpp && i < stride; ++i) zeros += row[i] == 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (cpu::hasAvx2()) return stride > bpp ? zeros + countSubZerosAvx2(row, stride, bpp) : zeros;
#endif
    for (size_t i = bpp; i < stride; ++i) zeros += row[i] == row[i - bpp];
    return zeros;
}

MAPTUNE_AVX2_CLONES
void filterRow(PngFilter filter, const uint8_t* row, const uint8_t* prior, size_t stride, size_t bpp, uint8_t* out)
{
    switch (filter) {
    case PngFilter::None: return apply<PngFilter::None>(row, prior, stride, bpp, out);
    case PngFilter::Sub: return apply<PngFilter::Sub>(row, prior, stride, bpp, out);
    case PngFilter::Up: return apply<PngFilter::Up>(row, prior, stride, bpp, out);
    case PngFilter::Average: return apply<PngFilter::Average>(row, prior, stride, bpp, out);
    case PngFilter::Paeth: return apply<PngFilter::Paeth>(row, prior, stride, bpp, out);
    }
}

MAPTUNE_AVX2_CLONES
PngFilter filterRowAdaptive(const uint8_t* row, const uint8_t* prior, size_t stride, size_t bpp, uint8_t* out)
{
    const std::array<uint32_t, 5> costs = {
        cost<PngFilter::None>(row, prior, stride, bpp), cost<PngFilter::Sub>(row, prior, stride, bpp),
        cost<PngFilter::Up>(row, prior, stride, bpp), cost<PngFilter::Average>(row, prior, stride, bpp),
        cost<PngFilter::Paeth>(row, prior, stride, bpp)};
    int best = 0;
    for (int f = 1; f < 5; ++f)
        if (costs[f] < costs[best]) best = f;
    const PngFilter filter = PngFilter(best);
    out[0] = uint8_t(filter);
    filterRow(filter, row, prior, stride, bpp, out + 1);
    return filter;
}

}  // namespace maptune
