#include "trace/percentile.h"

#include <algorithm>
#include <cmath>

namespace maptune {

std::optional<double> percentileOfSorted(const QList<double>& sorted, double p)
{
    if (sorted.isEmpty()) return std::nullopt;
    const double k = double(sorted.size() - 1) * std::clamp(p, 0.0, 100.0) / 100.0;
    const auto f = qsizetype(std::floor(k));
    const qsizetype c = std::min(f + 1, sorted.size() - 1);
    return sorted[f] + (sorted[c] - sorted[f]) * (k - double(f));
}

double percentile(QList<double> values, double p)
{
    std::sort(values.begin(), values.end());
    return percentileOfSorted(values, p).value_or(0);
}

}  // namespace maptune
