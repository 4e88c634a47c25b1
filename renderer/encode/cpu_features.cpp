#include "encode/cpu_features.h"

namespace maptune::cpu {

namespace {

#if defined(__x86_64__) && defined(__GNUC__)
struct Features {
    bool ssse3, avx2;
    Features()
    {
        // Static initialisers may run before libgcc has looked at the CPU.
        __builtin_cpu_init();
        ssse3 = __builtin_cpu_supports("ssse3");
        avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    }
};
#else
struct Features {
    bool ssse3 = false, avx2 = false;
};
#endif

const Features& features()
{
    static const Features f;
    return f;
}

}  // namespace

bool hasSsse3() { return features().ssse3; }
bool hasAvx2() { return features().avx2; }

}  // namespace maptune::cpu
