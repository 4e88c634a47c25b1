#pragma once
// CPU accounting for load runs, as ../shared/bench/benchlib.py does it: the
// generator's own CPU (per worker thread, so that a server running in the
// same process is not counted as client), the host's busy share from
// /proc/stat, and a server's whole process tree from /proc/<pid>/stat
// (including reaped children: mapserv under lighttpd, PostgreSQL backends).

#include <QList>

#include <optional>

namespace maptune {

class CpuUsage {
public:
    static double threadCpuSeconds();    // the calling thread, user + system
    static double processCpuSeconds();   // this process, user + system

    struct HostSnapshot {
        qint64 total = 0, idle = 0;      // jiffies over all CPUs
    };
    static std::optional<HostSnapshot> host();
    // Busy share of all CPUs between two snapshots, 0..100.
    static std::optional<double> busyPercent(const std::optional<HostSnapshot>& a, const std::optional<HostSnapshot>& b);

    // CPU seconds of the process trees rooted at pids; nullopt when none is given
    static std::optional<double> treeCpuSeconds(const QList<qint64>& rootPids);

    static int cpuCount();
};

}  // namespace maptune
