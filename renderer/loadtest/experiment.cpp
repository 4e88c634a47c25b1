#include "loadtest/experiment.h"

#include "loadtest/latency_stats.h"

#include <QJsonArray>

#include <cmath>

namespace maptune {

namespace {

std::optional<double> medianOf(const QList<LoadReport>& runs, std::optional<double> LoadReport::*field)
{
    QList<double> v;
    for (const LoadReport& r : runs)
        if ((r.*field)) v << *(r.*field);
    return LatencyStats::median(v);
}

QJsonValue opt(const std::optional<double>& v, int digits)
{
    if (!v) return QJsonValue(QJsonValue::Null);
    const double f = std::pow(10.0, digits);
    return std::round(*v * f) / f;
}

}  // namespace

Experiment::Experiment(ExperimentOptions options) : m_options(std::move(options)) {}

void Experiment::setProgressCallback(std::function<void(const ExperimentProgress&)> callback, int intervalMs)
{
    m_progress = std::move(callback);
    m_progressIntervalMs = intervalMs;
}

QList<std::pair<int, int>> Experiment::schedule(int configs, int rounds, bool abba)
{
    QList<std::pair<int, int>> order;
    for (int round = 0; round < rounds; ++round)
        for (int k = 0; k < configs; ++k) order << std::pair{round, (abba && round % 2) ? configs - 1 - k : k};
    return order;
}

QList<ConfigSummary> Experiment::summarize(const QList<ExperimentConfig>& configs, const QList<LoadReport>& runs,
                                           const QList<int>& runConfig)
{
    QList<ConfigSummary> out;
    for (int k = 0; k < configs.size(); ++k) {
        QList<LoadReport> mine;
        for (qsizetype i = 0; i < runs.size() && i < runConfig.size(); ++i)
            if (runConfig[i] == k) mine << runs[i];
        ConfigSummary s;
        s.label = configs[k].label;
        QList<double> bytes;
        for (const LoadReport& r : mine) {
            s.runsReqPerMin << r.reqPerMin;
            bytes << r.bytesMean;
            s.errors += r.errors;
        }
        s.reqPerMin = LatencyStats::median(s.runsReqPerMin).value_or(0);
        s.bytesMean = LatencyStats::median(bytes).value_or(0);
        s.p50Ms = medianOf(mine, &LoadReport::p50Ms);
        s.p90Ms = medianOf(mine, &LoadReport::p90Ms);
        s.p95Ms = medianOf(mine, &LoadReport::p95Ms);
        s.p99Ms = medianOf(mine, &LoadReport::p99Ms);
        s.maxMs = medianOf(mine, &LoadReport::maxMs);
        s.serverCpuMsPerRequest = medianOf(mine, &LoadReport::serverCpuMsPerRequest);
        out << s;
    }
    for (ConfigSummary& s : out) {
        const ConfigSummary& base = out.first();
        if (base.reqPerMin > 0 && !s.runsReqPerMin.isEmpty()) s.ratioToBaseline = s.reqPerMin / base.reqPerMin;
        if (base.serverCpuMsPerRequest && s.serverCpuMsPerRequest && *base.serverCpuMsPerRequest > 0)
            s.cpuRatioToBaseline = *s.serverCpuMsPerRequest / *base.serverCpuMsPerRequest;
    }
    return out;
}

ExperimentResult Experiment::run()
{
    ExperimentResult result;
    const auto& configs = m_options.configs;
    if (configs.isEmpty()) {
        result.error = QStringLiteral("an experiment needs at least one configuration");
        return result;
    }
    if (m_options.rounds < 1 || m_options.rounds > 20) {
        result.error = QStringLiteral("rounds must be 1..20");
        return result;
    }
    for (const ExperimentConfig& c : configs) {
        LoadOptions o = m_options.load;
        o.urlTemplate = c.urlTemplate;
        if (const Status valid = LoadRunner::validate(o); !valid) {
            result.error = QStringLiteral("%1: %2").arg(c.label, valid.message());
            return result;
        }
    }
    const auto order = schedule(int(configs.size()), m_options.rounds, m_options.abba);
    for (qsizetype i = 0; i < order.size() && !m_cancel.isCancelled(); ++i) {
        const auto [round, k] = order[i];
        const ExperimentConfig& c = configs[k];
        LoadOptions o = m_options.load;
        o.urlTemplate = c.urlTemplate;
        o.serverPids = c.serverPids;
        o.serverInProcess = c.serverInProcess;
        o.label = order.size() == 1 ? c.label : QStringLiteral("%1 round %2").arg(c.label).arg(round + 1);
        LoadRunner runner(o);
        runner.setCancelToken(m_cancel);
        if (m_progress) {
            runner.setProgressCallback(
                [&, i, round = round](const LoadProgress& p) {  // clang 14 cannot capture a structured binding itself
                    m_progress({int(i), int(order.size()), round, c.label, p});
                },
                m_progressIntervalMs);
        }
        LoadRun run = runner.run();
        if (!run.result) {
            result.error = run.error;
            break;
        }
        if (m_runDone) m_runDone(*run.result);
        result.runs << *run.result;
        result.runConfig << k;
        result.runRound << round;
    }
    result.cancelled = m_cancel.isCancelled();
    result.summary = summarize(configs, result.runs, result.runConfig);
    return result;
}

QJsonObject ExperimentResult::toJson() const
{
    QJsonArray runsJson, summaryJson;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        QJsonObject r = runs[i].toJson();
        r.insert(QStringLiteral("config"), runConfig.value(i));
        r.insert(QStringLiteral("round"), runRound.value(i) + 1);
        runsJson.append(r);
    }
    for (const ConfigSummary& s : summary) {
        QJsonArray each;
        for (double v : s.runsReqPerMin) each.append(std::round(v * 10) / 10);
        summaryJson.append(QJsonObject{
            {QStringLiteral("label"), s.label},
            {QStringLiteral("req_per_min"), std::round(s.reqPerMin * 10) / 10},
            {QStringLiteral("runs_req_per_min"), each},
            {QStringLiteral("p50_ms"), opt(s.p50Ms, 2)},
            {QStringLiteral("p90_ms"), opt(s.p90Ms, 2)},
            {QStringLiteral("p95_ms"), opt(s.p95Ms, 2)},
            {QStringLiteral("p99_ms"), opt(s.p99Ms, 2)},
            {QStringLiteral("max_ms"), opt(s.maxMs, 2)},
            {QStringLiteral("bytes_mean"), std::round(s.bytesMean)},
            {QStringLiteral("server_cpu_ms_per_request"), opt(s.serverCpuMsPerRequest, 2)},
            {QStringLiteral("errors"), double(s.errors)},
            {QStringLiteral("ratio_to_baseline"), opt(s.ratioToBaseline, 3)},
            {QStringLiteral("cpu_ratio_to_baseline"), opt(s.cpuRatioToBaseline, 3)},
        });
    }
    QJsonObject o{{QStringLiteral("type"), QStringLiteral("experiment")},
                  {QStringLiteral("summary"), summaryJson},
                  {QStringLiteral("runs"), runsJson},
                  {QStringLiteral("cancelled"), cancelled}};
    if (!error.isEmpty()) o.insert(QStringLiteral("error"), error);
    return o;
}

QString ExperimentResult::table() const
{
    QString out = QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                      .arg(QStringLiteral("config"), -24)
                      .arg(QStringLiteral("req/min"), 10)
                      .arg(QStringLiteral("p50 ms"), 9)
                      .arg(QStringLiteral("p95 ms"), 9)
                      .arg(QStringLiteral("bytes"), 9)
                      .arg(QStringLiteral("errors"), 7)
                      .arg(QStringLiteral("ratio"), 7);
    for (const ConfigSummary& s : summary) {
        out += QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n")
                   .arg(s.label.left(24), -24)
                   .arg(s.reqPerMin, 10, 'f', 1)
                   .arg(s.p50Ms.value_or(0), 9, 'f', 1)
                   .arg(s.p95Ms.value_or(0), 9, 'f', 1)
                   .arg(s.bytesMean, 9, 'f', 0)
                   .arg(s.errors, 7)
                   .arg(s.ratioToBaseline ? QString::number(*s.ratioToBaseline, 'f', 3) : QStringLiteral("n/a"), 7);
    }
    return out;
}

}  // namespace maptune
