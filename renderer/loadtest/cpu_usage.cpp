#include "loadtest/cpu_usage.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QSet>

#include <sys/resource.h>
#include <unistd.h>

#include <thread>

namespace maptune {

namespace {

double seconds(const rusage& r)
{
    return double(r.ru_utime.tv_sec) + r.ru_utime.tv_usec / 1e6 + double(r.ru_stime.tv_sec) + r.ru_stime.tv_usec / 1e6;
}

// Fields after the ")" that closes the command name (which may hold blanks):
// [0] is the state (field 3 of proc(5)), [1] the ppid, [11..14] utime stime cutime cstime.
QList<QByteArray> statFields(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray s = f.readAll();
    const qsizetype close = s.lastIndexOf(')');
    if (close < 0) return {};
    return s.mid(close + 2).simplified().split(' ');
}

}  // namespace

double CpuUsage::threadCpuSeconds()
{
    rusage r{};
    getrusage(RUSAGE_THREAD, &r);
    return seconds(r);
}

double CpuUsage::processCpuSeconds()
{
    rusage r{};
    getrusage(RUSAGE_SELF, &r);
    return seconds(r);
}

std::optional<CpuUsage::HostSnapshot> CpuUsage::host()
{
    QFile f(QStringLiteral("/proc/stat"));
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QList<QByteArray> v = f.readLine().simplified().split(' ');
    if (v.size() < 5) return std::nullopt;
    HostSnapshot s;
    for (qsizetype i = 1; i < v.size() && i <= 8; ++i) s.total += v[i].toLongLong();
    s.idle = v[4].toLongLong() + (v.size() > 5 ? v[5].toLongLong() : 0);  // idle + iowait
    return s;
}

std::optional<double> CpuUsage::busyPercent(const std::optional<HostSnapshot>& a, const std::optional<HostSnapshot>& b)
{
    if (!a || !b || b->total <= a->total) return std::nullopt;
    return 100.0 * (1.0 - double(b->idle - a->idle) / double(b->total - a->total));
}

std::optional<double> CpuUsage::treeCpuSeconds(const QList<qint64>& rootPids)
{
    if (rootPids.isEmpty()) return std::nullopt;
    QHash<qint64, QList<qint64>> children;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& e : entries) {
        bool ok = false;
        const qint64 pid = e.toLongLong(&ok);
        if (!ok) continue;
        const QList<QByteArray> f = statFields(pid);
        if (f.size() > 1) children[f[1].toLongLong()] << pid;
    }
    const double tick = double(sysconf(_SC_CLK_TCK));
    qint64 total = 0;
    QList<qint64> todo = rootPids;
    QSet<qint64> seen;
    while (!todo.isEmpty()) {
        const qint64 pid = todo.takeLast();
        if (seen.contains(pid)) continue;
        seen.insert(pid);
        const QList<QByteArray> f = statFields(pid);
        if (f.size() < 15) continue;
        total += f[11].toLongLong() + f[12].toLongLong() + f[13].toLongLong() + f[14].toLongLong();
        todo << children.value(pid);
    }
    return double(total) / tick;
}

int CpuUsage::cpuCount()
{
    const unsigned n = std::thread::hardware_concurrency();
    return n ? int(n) : 1;
}

}  // namespace maptune
