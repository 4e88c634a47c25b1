#include "fuzz_targets.h"

#include <cstdio>
#include <cstdlib>

namespace maptune::fuzz {

void check(bool condition, const char* what)
{
    if (condition) return;
    std::fprintf(stderr, "fuzz invariant failed: %s\n", what);
    std::abort();
}

}  // namespace maptune::fuzz
