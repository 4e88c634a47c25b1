#include "loadtest/experiment_report.h"

#include "io/atomic_write.h"
#include "loadtest/report_charts.h"

#include <algorithm>

namespace maptune {

namespace {

QString num(double v, int digits) { return QString::number(v, 'f', digits); }
QString num(const std::optional<double>& v, int digits) { return v ? num(*v, digits) : QString(); }

QString csvLine(const QStringList& fields)
{
    QStringList out;
    for (const QString& f : fields) out << ExperimentReport::csvField(f);
    return out.join(QLatin1Char(',')) + QStringLiteral("\r\n");
}

QStringList summaryRow(const ConfigSummary& s)
{
    return {s.label, num(s.reqPerMin, 1), num(s.reqPerMin / 60.0, 2), num(s.p50Ms, 2), num(s.p90Ms, 2),
            num(s.p99Ms, 2), num(s.maxMs, 2), num(s.bytesMean, 0), QString::number(s.errors),
            num(s.ratioToBaseline, 3), num(s.serverCpuMsPerRequest, 2)};
}

QString cell(const QString& text, bool numeric = false)
{
    return QStringLiteral("<td%1>%2</td>").arg(numeric ? QStringLiteral(" class=\"n\"") : QString(), ExperimentReport::xmlEscape(text));
}

QString summaryTable(const ExperimentResult& r, const ReportInfo& info)
{
    QString h = QStringLiteral("<table><thead><tr>");
    for (const char* c : {"configuration", "req/min", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "bytes",
                          "errors", "ratio", "server CPU ms/req", "what differs"})
        h += QStringLiteral("<th>%1</th>").arg(QLatin1String(c));
    h += QStringLiteral("</tr></thead><tbody>");
    for (qsizetype i = 0; i < r.summary.size(); ++i) {
        const QStringList row = summaryRow(r.summary[i]);
        h += QStringLiteral("<tr>") + cell(row[0]);
        for (qsizetype k = 1; k < row.size(); ++k) h += cell(row[k].isEmpty() ? QStringLiteral("n/a") : row[k], true);
        h += cell(info.descriptions.value(i)) + QStringLiteral("</tr>");
    }
    return h + QStringLiteral("</tbody></table>");
}

QStringList runRow(const ExperimentResult& result, qsizetype i)
{
    const LoadReport& r = result.runs[i];
    return {QString::number(i + 1), QString::number(result.runRound.value(i) + 1),
            result.summary.value(result.runConfig.value(i)).label, r.label, QString::number(r.requests),
            QString::number(r.ok), QString::number(r.errors), num(r.durationS, 3), num(r.reqPerMin, 1),
            num(r.reqPerS, 2), num(r.p50Ms, 2), num(r.p90Ms, 2), num(r.p99Ms, 2), num(r.maxMs, 2),
            num(r.bytesMean, 0), num(r.serverCpuMsPerRequest, 2)};
}

QString runsTable(const ExperimentResult& r)
{
    QString h = QStringLiteral("<table><thead><tr>");
    for (const QString& c : ExperimentReport::runsColumns()) h += QStringLiteral("<th>%1</th>").arg(ExperimentReport::xmlEscape(c));
    h += QStringLiteral("</tr></thead><tbody>");
    for (qsizetype i = 0; i < r.runs.size(); ++i) {
        const QStringList row = runRow(r, i);
        h += QStringLiteral("<tr>");
        for (qsizetype k = 0; k < row.size(); ++k) h += cell(row[k], k != 2 && k != 3);
        h += QStringLiteral("</tr>");
    }
    return h + QStringLiteral("</tbody></table>");
}

}  // namespace

QStringList ExperimentReport::summaryColumns()
{
    return {QStringLiteral("label"), QStringLiteral("req_per_min"), QStringLiteral("req_per_s"), QStringLiteral("p50_ms"),
            QStringLiteral("p90_ms"), QStringLiteral("p99_ms"), QStringLiteral("max_ms"), QStringLiteral("bytes_mean"),
            QStringLiteral("errors"), QStringLiteral("ratio_to_baseline"), QStringLiteral("server_cpu_ms_per_request")};
}

QStringList ExperimentReport::runsColumns()
{
    return {QStringLiteral("run"), QStringLiteral("round"), QStringLiteral("config"), QStringLiteral("label"),
            QStringLiteral("requests"), QStringLiteral("ok"), QStringLiteral("errors"), QStringLiteral("duration_s"),
            QStringLiteral("req_per_min"), QStringLiteral("req_per_s"), QStringLiteral("p50_ms"), QStringLiteral("p90_ms"),
            QStringLiteral("p99_ms"), QStringLiteral("max_ms"), QStringLiteral("bytes_mean"),
            QStringLiteral("server_cpu_ms_per_request")};
}

QString ExperimentReport::csvField(const QString& text)
{
    static const QString special = QStringLiteral(",\"\r\n");
    if (!std::any_of(text.begin(), text.end(), [](QChar c) { return special.contains(c); })) return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString ExperimentReport::summaryCsv(const ExperimentResult& result)
{
    QString out = csvLine(summaryColumns());
    for (const ConfigSummary& s : result.summary) out += csvLine(summaryRow(s));
    return out;
}

QString ExperimentReport::runsCsv(const ExperimentResult& result)
{
    QString out = csvLine(runsColumns());
    for (qsizetype i = 0; i < result.runs.size(); ++i) out += csvLine(runRow(result, i));
    return out;
}

QString ExperimentReport::xmlEscape(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        const char16_t u = c.unicode();
        if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            out += c;
            out += text[++i];
            continue;
        }
        if (c.isSurrogate() || u == 0xFFFE || u == 0xFFFF || (u < 0x20 && u != '\t' && u != '\n' && u != '\r')) continue;
        switch (u) {
        case '&': out += QLatin1String("&amp;"); break;
        case '<': out += QLatin1String("&lt;"); break;
        case '>': out += QLatin1String("&gt;"); break;
        case '"': out += QLatin1String("&quot;"); break;
        case '\'': out += QLatin1String("&#39;"); break;
        default: out += c;
        }
    }
    return out;
}

QString ExperimentReport::html(const ExperimentResult& result, const ReportInfo& info)
{
    QString h = QStringLiteral("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                               "<meta charset=\"utf-8\"/>\n<title>%1</title>\n<style>\n"
                               "body{font-family:sans-serif;margin:2em;color:#222}"
                               "table{border-collapse:collapse;margin:1em 0}"
                               "th,td{border:1px solid #ccc;padding:3px 8px}th{background:#f0f0f0}"
                               "td.n{text-align:right;font-variant-numeric:tabular-nums}"
                               ".warn{color:#a40}svg{display:block;margin:1em 0}\n"
                               "</style>\n</head>\n<body>\n<h1>%1</h1>\n")
                    .arg(xmlEscape(info.title));
    for (const QString& n : info.notes) h += QStringLiteral("<p>%1</p>\n").arg(xmlEscape(n));
    if (result.cancelled) h += QStringLiteral("<p class=\"warn\">The experiment was cancelled: the figures are partial.</p>\n");
    if (!result.error.isEmpty()) h += QStringLiteral("<p class=\"warn\">%1</p>\n").arg(xmlEscape(result.error));
    h += QStringLiteral("<h2>Throughput</h2>\n") + ReportCharts::throughputSvg(result.summary) + QLatin1Char('\n');
    h += QStringLiteral("<h2>Latency</h2>\n") + ReportCharts::latencySvg(result.summary) + QLatin1Char('\n');
    h += QStringLiteral("<h2>Summary (medians over rounds)</h2>\n") + summaryTable(result, info) + QLatin1Char('\n');
    h += QStringLiteral("<h2>Runs, in the order they ran</h2>\n") + runsTable(result) + QLatin1Char('\n');
    return h + QStringLiteral("</body>\n</html>\n");
}

Status ExperimentReport::writeFile(const QString& path, const QString& text)
{
    return writeFileAtomically(path, text.toUtf8());
}

}  // namespace maptune
