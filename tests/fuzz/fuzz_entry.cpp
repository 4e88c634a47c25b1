// libFuzzer's entry point for one target, chosen at compile time with
// -DMAPTUNE_FUZZ_TARGET=<function in maptune::fuzz> (see CMakeLists.txt).

#include "fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    return maptune::fuzz::MAPTUNE_FUZZ_TARGET(data, size);
}
