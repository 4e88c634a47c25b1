#include "loadtest/report_charts.h"

#include "loadtest/experiment_report.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

constexpr int kWidth = 760, kLabelWidth = 190, kPlotWidth = 420, kTop = 24, kBottom = 28;
const char* const kPercentileColors[] = {"#4c78a8", "#f58518", "#e45756"};

QString esc(const QString& s) { return ExperimentReport::xmlEscape(s); }

QString svgOpen(int height, const QString& title)
{
    return QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\" "
                          "font-family=\"sans-serif\" font-size=\"12\" role=\"img\"><title>%3</title>")
        .arg(kWidth).arg(height).arg(esc(title));
}

// Vertical grid lines and their values along the bottom.
QString axis(double max, int height, const QString& unit)
{
    QString s;
    for (int k = 0; k <= 4; ++k) {
        const double x = kLabelWidth + kPlotWidth * k / 4.0;
        s += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\" stroke=\"#ddd\"/>")
                 .arg(x, 0, 'f', 1).arg(kTop - 4).arg(height - kBottom + 4);
        s += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"middle\" fill=\"#555\">%3</text>")
                 .arg(x, 0, 'f', 1).arg(height - kBottom + 18).arg(esc(QString::number(max * k / 4.0, 'g', 4)));
    }
    s += QStringLiteral("<text x=\"%1\" y=\"%2\" fill=\"#555\">%3</text>").arg(kLabelWidth + kPlotWidth + 8).arg(height - kBottom + 18).arg(esc(unit));
    return s;
}

QString label(const QString& text, double y)
{
    const QString shown = text.size() > 28 ? text.left(27) + QChar(0x2026) : text;
    return QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"end\">%3</text>").arg(kLabelWidth - 8).arg(y, 0, 'f', 1).arg(esc(shown));
}

QString bar(double y, double h, double value, double max, const char* color)
{
    const double w = max > 0 ? std::max(0.0, kPlotWidth * value / max) : 0;
    return QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\"/>")
        .arg(kLabelWidth).arg(y, 0, 'f', 1).arg(w, 0, 'f', 1).arg(h, 0, 'f', 1).arg(QLatin1String(color));
}

}  // namespace

double ReportCharts::niceMax(double v)
{
    if (!(v > 0) || !std::isfinite(v)) return 1;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= v * (1 - 1e-12)) return m * p;
    return 10 * p;
}

QString ReportCharts::throughputSvg(const QList<ConfigSummary>& summary)
{
    constexpr int row = 30;
    const int height = kTop + row * int(summary.size()) + kBottom;
    double top = 0;
    for (const ConfigSummary& s : summary) top = std::max(top, s.reqPerMin);
    const double max = niceMax(top);
    QString svg = svgOpen(height, QStringLiteral("Throughput per configuration (requests per minute, median over rounds)"));
    svg += axis(max, height, QStringLiteral("req/min"));
    for (qsizetype i = 0; i < summary.size(); ++i) {
        const ConfigSummary& s = summary[i];
        const double y = kTop + row * double(i);
        svg += label(s.label, y + 17);
        svg += bar(y + 4, row - 8, s.reqPerMin, max, i == 0 ? "#888888" : kPercentileColors[0]);
        const QString ratio = s.ratioToBaseline ? QStringLiteral(" (%1x)").arg(*s.ratioToBaseline, 0, 'f', 2) : QString();
        const double x = kLabelWidth + (max > 0 ? kPlotWidth * s.reqPerMin / max : 0) + 6;
        svg += QStringLiteral("<text x=\"%1\" y=\"%2\">%3</text>")
                   .arg(x, 0, 'f', 1).arg(y + 17, 0, 'f', 1).arg(esc(QString::number(s.reqPerMin, 'f', 0) + ratio));
    }
    return svg + QStringLiteral("</svg>");
}

QString ReportCharts::latencySvg(const QList<ConfigSummary>& summary)
{
    constexpr int barH = 9, row = 3 * barH + 12;
    const int height = kTop + row * int(summary.size()) + kBottom;
    double top = 0;
    for (const ConfigSummary& s : summary)
        for (const auto& v : {s.p50Ms, s.p90Ms, s.p99Ms})
            if (v) top = std::max(top, *v);
    const double max = niceMax(top);
    QString svg = svgOpen(height, QStringLiteral("Latency percentiles per configuration (ms, median over rounds)"));
    const char* names[] = {"p50", "p90", "p99"};
    for (int k = 0; k < 3; ++k)
        svg += QStringLiteral("<rect x=\"%1\" y=\"4\" width=\"10\" height=\"10\" fill=\"%2\"/><text x=\"%3\" y=\"13\">%4</text>")
                   .arg(kLabelWidth + 70 * k).arg(QLatin1String(kPercentileColors[k])).arg(kLabelWidth + 70 * k + 14).arg(QLatin1String(names[k]));
    svg += axis(max, height, QStringLiteral("ms"));
    for (qsizetype i = 0; i < summary.size(); ++i) {
        const ConfigSummary& s = summary[i];
        const double y = kTop + row * double(i) + 4;
        svg += label(s.label, y + 1.5 * barH + 4);
        const std::optional<double> values[] = {s.p50Ms, s.p90Ms, s.p99Ms};
        for (int k = 0; k < 3; ++k) {
            if (!values[k]) continue;
            svg += bar(y + k * barH, barH - 1, *values[k], max, kPercentileColors[k]);
            const double x = kLabelWidth + (max > 0 ? kPlotWidth * *values[k] / max : 0) + 4;
            svg += QStringLiteral("<text x=\"%1\" y=\"%2\" font-size=\"9\">%3</text>")
                       .arg(x, 0, 'f', 1).arg(y + k * barH + barH - 1, 0, 'f', 1).arg(esc(QString::number(*values[k], 'f', 1)));
        }
    }
    return svg + QStringLiteral("</svg>");
}

}  // namespace maptune
