#pragma once
// The figures of one load run, named as ../shared/bench/load names them in
// its JSON line (req_per_min, p50_ms, errors, client CPU...), so results of
// both tools can be put side by side.

#include "loadtest/bbox_spec.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace maptune {

struct ErrorExample {
    QString reason;
    int status = 0;           // 0: no HTTP answer (refused, timeout, reset)
    QString contentType;
    QString firstBytes;       // ResponseCheck::preview of the body
    QString url;
};

struct LoadReport {
    QString label;
    QString urlTemplate;
    QString firstUrl;
    int width = 0, height = 0;
    int concurrency = 1;
    double durationS = 0;     // measured wall time
    qint64 requests = 0, ok = 0, errors = 0;
    QMap<QString, qint64> errorReasons;
    QList<ErrorExample> errorExamples;    // the first few, one per reason
    double reqPerMin = 0, reqPerS = 0;
    std::optional<double> p50Ms, p90Ms, p95Ms, p99Ms, meanMs, maxMs;
    double bytesMean = 0;
    qint64 bytesTotal = 0;
    int warmupRequests = 0;
    int connections = 0;      // TCP connections opened while measuring (keep-alive: = concurrency)
    QList<int> okPerSecond;   // throughput over time, one bucket per second of the run
    std::optional<double> clientCpuPctOfOneCore, clientCpuMsPerRequest, processCpuPctOfOneCore;
    std::optional<double> hostCpuBusyPct, serverCpuPctOfOneCore, serverCpuMsPerRequest, otherCpuPctOfHost;
    int ncpu = 1;
    BboxSpec bbox;
    QString time;             // ISO 8601 start time
    bool cancelled = false;

    QJsonObject toJson() const;
    QString humanLine() const;   // one line like benchlib.human()
};

}  // namespace maptune
