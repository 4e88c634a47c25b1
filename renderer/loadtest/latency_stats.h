#pragma once
// Order statistics of a load run, with benchlib.py's definitions: the
// project's percentile (trace/percentile.h), median of a list.

#include <QList>

#include <optional>

namespace maptune {

class LatencyStats {
public:
    // p in 0..100 of ascending values; nullopt when empty.
    static std::optional<double> percentile(const QList<double>& sorted, double p);
    static std::optional<double> median(QList<double> values);
    static std::optional<double> mean(const QList<double>& values);
};

}  // namespace maptune
