#include "loadtest/latency_stats.h"

#include "trace/percentile.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace maptune {

std::optional<double> LatencyStats::percentile(const QList<double>& sorted, double p)
{
    return percentileOfSorted(sorted, p);
}

std::optional<double> LatencyStats::median(QList<double> values)
{
    if (values.isEmpty()) return std::nullopt;
    std::sort(values.begin(), values.end());
    const qsizetype n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

std::optional<double> LatencyStats::mean(const QList<double>& values)
{
    if (values.isEmpty()) return std::nullopt;
    return std::accumulate(values.begin(), values.end(), 0.0) / double(values.size());
}

}  // namespace maptune
