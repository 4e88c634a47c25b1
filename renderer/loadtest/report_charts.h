#pragma once
// The inline SVG charts of the HTML experiment report: horizontal bars of
// throughput per configuration (with the ratio to the baseline) and of the
// latency percentiles p50/p90/p99. Plain SVG 1.1, no scripts; labels escaped.

#include "loadtest/experiment.h"

#include <QList>
#include <QString>

namespace maptune {

class ReportCharts {
public:
    static QString throughputSvg(const QList<ConfigSummary>& summary);
    static QString latencySvg(const QList<ConfigSummary>& summary);
    // A "nice" axis maximum >= v: 1, 2 or 5 times a power of ten.
    static double niceMax(double v);
};

}  // namespace maptune
