#pragma once
// CPU time of the whole process (user + system, every thread), for
// benchmarks whose code uses helper threads: Google Benchmark's CPU column
// counts only the calling thread.

#include <sys/resource.h>

namespace maptune::bench {

inline double processCpuMs()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto ms = [](const timeval& t) { return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3; };
    return ms(u.ru_utime) + ms(u.ru_stime);
}

}  // namespace maptune::bench
