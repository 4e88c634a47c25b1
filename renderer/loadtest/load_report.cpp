#include "loadtest/load_report.h"

#include <QJsonArray>

#include <cmath>

namespace maptune {

namespace {

double rounded(double v, int digits)
{
    const double f = std::pow(10.0, digits);
    return std::round(v * f) / f;
}

QJsonValue opt(const std::optional<double>& v, int digits = 2)
{
    return v ? QJsonValue(rounded(*v, digits)) : QJsonValue(QJsonValue::Null);
}

}  // namespace

QJsonObject LoadReport::toJson() const
{
    QJsonObject reasons;
    for (auto it = errorReasons.begin(); it != errorReasons.end(); ++it) reasons.insert(it.key(), double(it.value()));
    QJsonArray examples;
    for (const ErrorExample& e : errorExamples)
        examples.append(QJsonObject{{QStringLiteral("reason"), e.reason},
                                    {QStringLiteral("status"), e.status},
                                    {QStringLiteral("content_type"), e.contentType},
                                    {QStringLiteral("first_bytes"), e.firstBytes},
                                    {QStringLiteral("url"), e.url}});
    QJsonArray perSecond;
    for (int n : okPerSecond) perSecond.append(n);
    return QJsonObject{
        {QStringLiteral("tool"), QStringLiteral("maptune-cli bench")},
        {QStringLiteral("label"), label.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(label)},
        {QStringLiteral("url_template"), urlTemplate},
        {QStringLiteral("first_url"), firstUrl},
        {QStringLiteral("width"), width},
        {QStringLiteral("height"), height},
        {QStringLiteral("concurrency"), concurrency},
        {QStringLiteral("duration_s"), rounded(durationS, 3)},
        {QStringLiteral("requests"), double(requests)},
        {QStringLiteral("ok"), double(ok)},
        {QStringLiteral("errors"), double(errors)},
        {QStringLiteral("error_reasons"), reasons},
        {QStringLiteral("error_examples"), examples},
        {QStringLiteral("req_per_min"), rounded(reqPerMin, 1)},
        {QStringLiteral("req_per_s"), rounded(reqPerS, 3)},
        {QStringLiteral("p50_ms"), opt(p50Ms)},
        {QStringLiteral("p90_ms"), opt(p90Ms)},
        {QStringLiteral("p95_ms"), opt(p95Ms)},
        {QStringLiteral("p99_ms"), opt(p99Ms)},
        {QStringLiteral("mean_ms"), opt(meanMs)},
        {QStringLiteral("max_ms"), opt(maxMs)},
        {QStringLiteral("bytes_mean"), std::round(bytesMean)},
        {QStringLiteral("bytes_total"), double(bytesTotal)},
        {QStringLiteral("warmup_requests"), warmupRequests},
        {QStringLiteral("connections"), connections},
        {QStringLiteral("ok_per_second"), perSecond},
        {QStringLiteral("client_cpu_pct_of_one_core"), opt(clientCpuPctOfOneCore, 1)},
        {QStringLiteral("client_cpu_ms_per_request"), opt(clientCpuMsPerRequest, 3)},
        {QStringLiteral("process_cpu_pct_of_one_core"), opt(processCpuPctOfOneCore, 1)},
        {QStringLiteral("host_cpu_busy_pct"), opt(hostCpuBusyPct, 1)},
        {QStringLiteral("server_cpu_pct_of_one_core"), opt(serverCpuPctOfOneCore, 1)},
        {QStringLiteral("server_cpu_ms_per_request"), opt(serverCpuMsPerRequest)},
        {QStringLiteral("other_cpu_pct_of_host"), opt(otherCpuPctOfHost, 1)},
        {QStringLiteral("ncpu"), ncpu},
        {QStringLiteral("bbox"), bbox.toJson()},
        {QStringLiteral("time"), time},
        {QStringLiteral("cancelled"), cancelled},
    };
}

QString LoadReport::humanLine() const
{
    QString s = label.isEmpty() ? QString() : label + QLatin1Char(' ');
    s += QStringLiteral("c=%1 %2x%3: %4 req/min (%5 req/s), p50 %6 ms, p95 %7 ms, p99 %8 ms, %9 ok / %10 err in %11s")
             .arg(concurrency)
             .arg(width)
             .arg(height)
             .arg(reqPerMin, 0, 'f', 1)
             .arg(reqPerS, 0, 'f', 2)
             .arg(p50Ms.value_or(0), 0, 'f', 1)
             .arg(p95Ms.value_or(0), 0, 'f', 1)
             .arg(p99Ms.value_or(0), 0, 'f', 1)
             .arg(ok)
             .arg(errors)
             .arg(durationS, 0, 'f', 1);
    s += QStringLiteral("  [client %1% of a core, %2 CPU-ms/req, host busy %3%")
             .arg(clientCpuPctOfOneCore.value_or(0), 0, 'f', 1)
             .arg(clientCpuMsPerRequest.value_or(0), 0, 'f', 2)
             .arg(hostCpuBusyPct.value_or(0), 0, 'f', 0);
    if (serverCpuMsPerRequest) s += QStringLiteral(", server %1 CPU-ms/req").arg(*serverCpuMsPerRequest, 0, 'f', 1);
    if (otherCpuPctOfHost) {
        s += QStringLiteral(", other procs %1%").arg(*otherCpuPctOfHost, 0, 'f', 0);
        if (*otherCpuPctOfHost > 10) s += QStringLiteral(" (NOISY: foreign load)");
    }
    s += QLatin1Char(']');
    if (cancelled) s += QStringLiteral("  CANCELLED");
    if (errors) {
        QStringList parts;
        for (auto it = errorReasons.begin(); it != errorReasons.end(); ++it)
            parts << QStringLiteral("%1: %2").arg(it.key()).arg(it.value());
        s += QStringLiteral("  ERRORS %1 {%2}").arg(errors).arg(parts.join(QStringLiteral(", ")));
    }
    return s;
}

}  // namespace maptune
