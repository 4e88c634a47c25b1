#pragma once
// Experiment results as files: a CSV with one row per configuration, a CSV
// with one row per run, and a self-contained XHTML report (inline SVG charts:
// throughput per configuration with its ratio to the baseline, latency
// percentiles; no scripts, no external resources; every label escaped).
// JSON is ExperimentResult::toJson().

#include "core/result.h"
#include "loadtest/experiment.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace maptune {

struct ReportInfo {
    QString title = QStringLiteral("MapTune experiment");
    QStringList notes;        // shown under the title (preset, layer, map, options)
    QStringList descriptions; // per configuration, in order: what differs (may be shorter)
};

class ExperimentReport {
public:
    // Columns: label, req_per_min, req_per_s, p50_ms, p90_ms, p99_ms, max_ms,
    // bytes_mean, errors, ratio_to_baseline, server_cpu_ms_per_request.
    static QString summaryCsv(const ExperimentResult& result);
    // Columns: run, round, config, label, requests, ok, errors, duration_s,
    // req_per_min, req_per_s, p50_ms, p90_ms, p99_ms, max_ms, bytes_mean, server_cpu_ms_per_request.
    static QString runsCsv(const ExperimentResult& result);
    static QString html(const ExperimentResult& result, const ReportInfo& info = {});

    static QStringList summaryColumns();
    static QStringList runsColumns();
    // One CSV field (RFC 4180 quoting when needed).
    static QString csvField(const QString& text);
    // &, <, >, " and ' as entities; characters XML cannot carry dropped.
    static QString xmlEscape(const QString& text);
    // Writes text (UTF-8) atomically; an error message instead.
    static Status writeFile(const QString& path, const QString& text);
};

}  // namespace maptune
