// 8-bit LUT application (Google Benchmark): the portable loop against the
// AVX-512 VBMI form, in place on three 512x512 planes as the raster composer
// does. Not part of the test suite: run build/bench/raster/bench_lut.

#include "raster/lut.h"
#include "raster/lut_kernels.h"

#include <benchmark/benchmark.h>

#include <vector>

using namespace maptune;

namespace {

constexpr size_t kPlane = 512 * 512;

template <void (*Kernel)(const uint8_t*, const uint8_t*, uint8_t*, size_t)>
void BM_LutApplyRgb(benchmark::State& state)
{
    if (Kernel == lut_kernels::applyVbmi && !lut_kernels::vbmiAvailable()) {
        state.SkipWithError("this CPU has no AVX-512 VBMI");
        return;
    }
    const Lut lut = Lut::fromPoints("100:30,160:128,210:200");
    std::vector<uint8_t> planes(3 * kPlane);
    for (size_t i = 0; i < planes.size(); ++i) planes[i] = uint8_t(i * 2654435761u >> 24);
    for (auto _ : state) {
        for (int p = 0; p < 3; ++p) {
            uint8_t* plane = planes.data() + size_t(p) * kPlane;
            Kernel(lut.data(), plane, plane, kPlane);
        }
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(planes.size()));
}
BENCHMARK_TEMPLATE(BM_LutApplyRgb, lut_kernels::applyScalar)->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_LutApplyRgb, lut_kernels::applyVbmi)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
