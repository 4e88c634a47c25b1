#pragma once
// An A/B experiment: configurations run interleaved in rounds (A B A B ...,
// or A B B A ... with abba) on the same request sequence, so that slow drift
// of the machine affects every configuration alike; the summary gives per
// configuration the median throughput and latencies and the ratio to the
// first configuration (the baseline). As ../shared/bench/compare does.

#include "loadtest/load_runner.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

namespace maptune {

struct ExperimentConfig {
    QString label;
    QString urlTemplate;
    QList<qint64> serverPids;       // whose CPU counts as this configuration's server
    bool serverInProcess = false;
};

struct ExperimentOptions {
    QList<ExperimentConfig> configs;    // the first is the baseline
    LoadOptions load;                   // everything but the template, label and server pids
    int rounds = 3;                     // 1..20
    bool abba = false;                  // reverse the order every other round
};

struct ConfigSummary {
    QString label;
    double reqPerMin = 0;               // median over rounds
    QList<double> runsReqPerMin;
    std::optional<double> p50Ms, p90Ms, p95Ms, p99Ms, maxMs, serverCpuMsPerRequest;   // medians over rounds
    double bytesMean = 0;               // median
    qint64 errors = 0;                  // all rounds
    std::optional<double> ratioToBaseline;                              // req/min
    std::optional<double> cpuRatioToBaseline;                           // server CPU-ms per request
};

struct ExperimentResult {
    QList<LoadReport> runs;             // in the order they ran
    QList<int> runConfig, runRound;     // per run: index into the configs, round (0-based)
    QList<ConfigSummary> summary;       // in the order of the configs
    bool cancelled = false;
    QString error;                      // set when a run could not start

    QJsonObject toJson() const;
    QString table() const;              // a plain-text table for terminals
};

struct ExperimentProgress {
    int run = 0, runs = 0;              // the run in progress (0-based) and the total
    int round = 0;
    QString label;
    LoadProgress load;
};

class Experiment {
public:
    explicit Experiment(ExperimentOptions options);

    void setCancelToken(const CancelToken& token) { m_cancel = token; }
    void setProgressCallback(std::function<void(const ExperimentProgress&)> callback, int intervalMs = 250);
    // Called after every run (for logs and live tables).
    void setRunCallback(std::function<void(const LoadReport&)> callback) { m_runDone = std::move(callback); }

    // The (round, config index) order of the runs.
    static QList<std::pair<int, int>> schedule(int configs, int rounds, bool abba);
    static QList<ConfigSummary> summarize(const QList<ExperimentConfig>& configs, const QList<LoadReport>& runs,
                                         const QList<int>& runConfig);

    ExperimentResult run();

private:
    ExperimentOptions m_options;
    CancelToken m_cancel;
    std::function<void(const ExperimentProgress&)> m_progress;
    std::function<void(const LoadReport&)> m_runDone;
    int m_progressIntervalMs = 250;
};

}  // namespace maptune
