#pragma once
// One bounded load run against a URL template: C worker threads, each with
// one HTTP/1.1 keep-alive connection, first a warm-up (unmeasured, its own
// bbox sequence), then the measured requests until the duration or the request
// count is reached. Same rules and figures as ../shared/bench/load: a
// response is good only if it is HTTP 200 with an image of the asked size;
// throughput counts good responses over wall time.

#include "core/result.h"
#include "loadtest/bbox_spec.h"
#include "loadtest/load_report.h"
#include "trace/cancel_token.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>

namespace maptune {

struct LoadOptions {
    QString urlTemplate;
    BboxSpec bbox;
    int concurrency = 1;          // 1..256
    double durationS = 30;        // measuring time; 0: until maxRequests
    qint64 maxRequests = 100000;
    int warmup = -1;              // unmeasured requests; -1: 4 x concurrency
    double timeoutS = 60;         // per request
    bool checkSize = true;        // PNG IHDR must match WIDTH x HEIGHT
    bool allowRemote = false;     // default: loopback targets only
    QList<qint64> serverPids;     // process trees whose CPU is the server's
    bool serverInProcess = false; // server in this process: its CPU = process - client threads
    QString label;
};

struct LoadProgress {
    enum class Phase { Warmup, Measure };
    Phase phase = Phase::Warmup;
    qint64 done = 0, ok = 0, errors = 0;   // measured requests so far
    double elapsedS = 0;                   // since measuring began
    double fraction = 0;                   // 0..1 of the duration or count, whichever ends first
    double reqPerMin = 0;                  // so far
};

struct LoadRun {
    std::optional<LoadReport> result;      // also when cancelled (partial, cancelled = true)
    QString error;                         // set when nothing could be run
};

class LoadRunner {
public:
    explicit LoadRunner(LoadOptions options);

    void setCancelToken(const CancelToken& token) { m_cancel = token; }
    // Called on the thread running run(), every intervalMs and once at the end.
    void setProgressCallback(std::function<void(const LoadProgress&)> callback, int intervalMs = 250);

    // Blocks until the run is over or cancelled.
    LoadRun run();

    static Status validate(const LoadOptions& options);

private:
    LoadOptions m_options;
    CancelToken m_cancel;
    std::function<void(const LoadProgress&)> m_progress;
    int m_progressIntervalMs = 250;
};

}  // namespace maptune
