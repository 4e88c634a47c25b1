#pragma once
// What this CPU can run, looked up once: the encoders' hand-written SIMD
// paths (row conversion, the equal-neighbour count) choose by it at run time.
// Always false off x86-64 with GCC or Clang.

namespace maptune::cpu {

bool hasSsse3();
bool hasAvx2();  // with POPCNT

}  // namespace maptune::cpu
