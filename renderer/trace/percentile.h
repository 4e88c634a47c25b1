#pragma once
// The project's one percentile definition -- the Timings panel, the load
// generator's reports and the shared bench harness agree on it: linear
// interpolation between closest ranks (numpy's default).

#include <QList>

#include <optional>

namespace maptune {

// p in 0..100 of ascending values; nullopt when empty.
std::optional<double> percentileOfSorted(const QList<double>& sorted, double p);
// The same of values in any order; 0 when empty.
double percentile(QList<double> values, double p);

}  // namespace maptune
