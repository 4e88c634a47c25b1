#include "loadtest/load_runner.h"

#include "loadtest/bbox_sequence.h"
#include "loadtest/cpu_usage.h"
#include "loadtest/latency_stats.h"
#include "loadtest/response_check.h"
#include "loadtest/url_template.h"

#include <httplib.h>

#include <QDateTime>
#include <QUrlQuery>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace maptune {

namespace {

using Clock = std::chrono::steady_clock;

double secondsBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

struct Sample {
    double endS = 0;       // completion, seconds after measuring began
    double latencyS = 0;
    bool ok = false;
    qint64 bytes = 0;
    QString reason;        // why it failed
};

struct Request {
    QByteArray path;
    QString url;
    bool measured = false;
};

constexpr int kMaxErrorExamples = 8;

// State shared by the workers and the thread running LoadRunner::run().
struct Job {
    const LoadOptions& options;
    UrlTemplate urlTemplate;
    HttpTarget target;
    QString expectedKind;
    CancelToken cancel;
    int warmupCount = 0;

    std::mutex mutex;
    std::condition_variable wake;
    BboxSequence warmSequence, measureSequence;
    int warmIssued = 0;
    qint64 measureIssued = 0;
    int workersWarm = 0;             // workers done with the warm-up
    int workersDone = 0;
    bool measuring = false;
    Clock::time_point start;
    std::optional<Clock::time_point> deadline;
    QMap<QString, ErrorExample> examples;

    std::atomic<qint64> done{0}, ok{0}, errors{0};

    Job(const LoadOptions& o, int warmup)
        : options(o), urlTemplate(o.urlTemplate), warmupCount(warmup), warmSequence(o.bbox, BboxSequence::kWarmupSeedOffset),
          measureSequence(o.bbox)
    {
        target = urlTemplate.target().value_or(HttpTarget{});
        const QString first = urlTemplate.fill({0, 0, 1, 1}, 1, 1, 0);
        const QUrlQuery query(first.mid(first.indexOf(QLatin1Char('?')) + 1));
        for (const auto& [key, value] : query.queryItems(QUrl::FullyDecoded))
            if (key.compare(QLatin1String("FORMAT"), Qt::CaseInsensitive) == 0) expectedKind = ResponseCheck::kindOfFormat(value);
    }

    Request makeRequest(const Bbox& b, qint64 seq, bool measured) const
    {
        const QString url = urlTemplate.fill(b, options.bbox.width, options.bbox.height, seq);
        return {UrlTemplate::pathAndQuery(url), url, measured};
    }

    std::optional<Request> nextWarmup()
    {
        std::lock_guard lock(mutex);
        if (cancel.isCancelled() || warmIssued >= warmupCount) return std::nullopt;
        return makeRequest(warmSequence.next(), warmIssued++, false);
    }

    std::optional<Request> nextMeasured()
    {
        std::lock_guard lock(mutex);
        if (cancel.isCancelled() || measureIssued >= options.maxRequests) return std::nullopt;
        if (deadline && Clock::now() >= *deadline) return std::nullopt;
        return makeRequest(measureSequence.next(), measureIssued++, true);
    }

    void waitForMeasuring()
    {
        std::unique_lock lock(mutex);
        ++workersWarm;
        wake.notify_all();
        wake.wait(lock, [this] { return measuring || cancel.isCancelled(); });
    }

    void noteError(const ErrorExample& e)
    {
        std::lock_guard lock(mutex);
        if (!examples.contains(e.reason) && examples.size() < kMaxErrorExamples) examples.insert(e.reason, e);
    }
};

class Worker {
public:
    explicit Worker(Job& job) : m_job(job) {}

    void run()
    {
        while (auto r = m_job.nextWarmup()) perform(*r);
        m_job.waitForMeasuring();
        const double cpu0 = CpuUsage::threadCpuSeconds();
        m_connectionsAtStart = m_connections.load();
        while (auto r = m_job.nextMeasured()) perform(*r);
        m_cpuS = CpuUsage::threadCpuSeconds() - cpu0;
        m_measuredConnections = m_connections.load() - m_connectionsAtStart;
        std::lock_guard lock(m_job.mutex);
        ++m_job.workersDone;
        m_job.wake.notify_all();
    }

    // From another thread: abort the request in flight (cancellation).
    void abort()
    {
        std::lock_guard lock(m_clientMutex);
        if (m_client) m_client->stop();
    }

    const std::vector<Sample>& samples() const { return m_samples; }
    double cpuSeconds() const { return m_cpuS; }
    int measuredConnections() const { return m_measuredConnections; }

private:
    httplib::Client& client()
    {
        std::lock_guard lock(m_clientMutex);
        if (!m_client) {
            const auto& t = m_job.target;
            m_client = std::make_unique<httplib::Client>(t.host.toStdString(), t.port);
            m_client->set_keep_alive(true);
            m_client->set_tcp_nodelay(true);
            m_client->set_decompress(false);
            const auto timeout = std::chrono::milliseconds(qint64(m_job.options.timeoutS * 1000));
            m_client->set_connection_timeout(timeout);
            m_client->set_read_timeout(timeout);
            m_client->set_write_timeout(timeout);
            // Called for every new socket: counts connections (keep-alive check).
            m_client->set_socket_options([this](socket_t) { ++m_connections; });
        }
        return *m_client;
    }

    void perform(const Request& r)
    {
        const httplib::Headers headers{{"Accept", "image/*"}, {"Accept-Encoding", "identity"}};
        const auto t0 = Clock::now();
        int status = 0;
        QByteArray body, contentType;
        QString transportError;
        for (int attempt = 0; attempt < 2; ++attempt) {
            auto res = client().Get(r.path.constData(), headers);
            if (res) {
                status = res->status;
                body = QByteArray::fromStdString(res->body);
                contentType = QByteArray::fromStdString(res->get_header_value("Content-Type"));
                break;
            }
            const httplib::Error e = res.error();
            transportError = QString::fromStdString(httplib::to_string(e));
            if (m_job.cancel.isCancelled()) return;  // aborted by cancel(): not a sample
            // A keep-alive connection the server closed while idle: retry once on a fresh one.
            if (attempt == 0 && (e == httplib::Error::Read || e == httplib::Error::Write)) continue;
            break;
        }
        const auto t1 = Clock::now();
        ResponseVerdict v;
        if (status) {
            v = ResponseCheck::classify(status, contentType, body, m_job.options.bbox.width, m_job.options.bbox.height,
                                        m_job.options.checkSize, m_job.expectedKind);
        } else {
            v.reason = transportError.isEmpty() ? QStringLiteral("no answer") : transportError;
        }
        if (!r.measured) return;
        m_samples.push_back({secondsBetween(m_job.start, t1), secondsBetween(t0, t1), v.ok, v.ok ? body.size() : 0, v.reason});
        ++m_job.done;
        if (v.ok) {
            ++m_job.ok;
        } else {
            ++m_job.errors;
            m_job.noteError({v.reason, status, QString::fromLatin1(contentType), ResponseCheck::preview(body), r.url});
        }
    }

    Job& m_job;
    std::mutex m_clientMutex;
    std::unique_ptr<httplib::Client> m_client;
    std::atomic<int> m_connections{0};
    int m_connectionsAtStart = 0, m_measuredConnections = 0;
    std::vector<Sample> m_samples;
    double m_cpuS = 0;
};

double clampFraction(double v)
{
    return std::clamp(v, 0.0, 1.0);
}

}  // namespace

LoadRunner::LoadRunner(LoadOptions options) : m_options(std::move(options)) {}

void LoadRunner::setProgressCallback(std::function<void(const LoadProgress&)> callback, int intervalMs)
{
    m_progress = std::move(callback);
    m_progressIntervalMs = std::max(10, intervalMs);
}

Status LoadRunner::validate(const LoadOptions& o)
{
    if (Status checked = UrlTemplate(o.urlTemplate).check(o.allowRemote); !checked) return checked;
    if (o.concurrency < 1 || o.concurrency > 256) return Error(QStringLiteral("concurrency must be 1..256"));
    if (o.durationS < 0 || o.maxRequests < 1)
        return Error(QStringLiteral("duration must be >= 0 and the request count >= 1"));
    if (o.durationS <= 0 && o.maxRequests >= 100000)
        return Error(QStringLiteral("unbounded run: give a duration or a request count below 100000"));
    if (o.bbox.mode == BboxSpec::Mode::File && o.bbox.rows.isEmpty())
        return Error(QStringLiteral("the bbox file has no bbox"));
    if (o.timeoutS <= 0) return Error(QStringLiteral("the timeout must be positive"));
    return {};
}

LoadRun LoadRunner::run()
{
    if (const Status valid = validate(m_options); !valid) return {std::nullopt, valid.message()};
    const LoadOptions& o = m_options;
    const int warmup = o.warmup < 0 ? 4 * o.concurrency : o.warmup;
    Job job(o, warmup);
    job.cancel = m_cancel;
    const QString startTime = QDateTime::currentDateTime().toString(Qt::ISODate);

    std::vector<std::unique_ptr<Worker>> workers;
    std::vector<std::thread> threads;
    for (int i = 0; i < o.concurrency; ++i) workers.push_back(std::make_unique<Worker>(job));
    for (auto& w : workers) threads.emplace_back([&w] { w->run(); });

    auto report = [&](LoadProgress::Phase phase) {
        if (!m_progress) return;
        LoadProgress p;
        p.phase = phase;
        p.done = job.done;
        p.ok = job.ok;
        p.errors = job.errors;
        if (phase == LoadProgress::Phase::Measure) {
            p.elapsedS = secondsBetween(job.start, Clock::now());
            p.reqPerMin = p.elapsedS > 0 ? double(p.ok) / p.elapsedS * 60.0 : 0;
            double f = double(p.done) / double(o.maxRequests);
            if (o.durationS > 0) f = std::max(f, p.elapsedS / o.durationS);
            p.fraction = clampFraction(f);
        } else {
            p.fraction = 0;
        }
        m_progress(p);
    };
    bool aborted = false;
    // Waits until pred() (under the job mutex), reporting progress and
    // forwarding a cancellation to the requests in flight.
    auto waitUntil = [&](auto pred, LoadProgress::Phase phase) {
        std::unique_lock lock(job.mutex);
        while (!pred()) {
            job.wake.wait_for(lock, std::chrono::milliseconds(m_progressIntervalMs));
            if (job.cancel.isCancelled() && !aborted) {
                aborted = true;
                job.wake.notify_all();
                lock.unlock();
                for (auto& w : workers) w->abort();
                lock.lock();
            }
            if (pred()) break;
            lock.unlock();
            report(phase);
            lock.lock();
        }
    };
    waitUntil([&] { return job.workersWarm + job.workersDone >= o.concurrency || job.cancel.isCancelled(); },
              LoadProgress::Phase::Warmup);

    const double processCpu0 = CpuUsage::processCpuSeconds();
    const auto host0 = CpuUsage::host();
    const auto server0 = CpuUsage::treeCpuSeconds(o.serverPids);
    {
        std::lock_guard lock(job.mutex);
        job.start = Clock::now();
        if (o.durationS > 0) job.deadline = job.start + std::chrono::microseconds(qint64(o.durationS * 1e6));
        job.measuring = true;
        job.wake.notify_all();
    }
    waitUntil([&] { return job.workersDone >= o.concurrency; }, LoadProgress::Phase::Measure);
    for (auto& t : threads) t.join();
    const double wall = secondsBetween(job.start, Clock::now());
    const double processCpu = CpuUsage::processCpuSeconds() - processCpu0;
    const auto host1 = CpuUsage::host();
    const auto server1 = CpuUsage::treeCpuSeconds(o.serverPids);
    report(LoadProgress::Phase::Measure);

    LoadReport r;
    r.label = o.label;
    r.urlTemplate = o.urlTemplate;
    r.firstUrl = UrlTemplate(o.urlTemplate).fill(BboxSequence::first(o.bbox, 1).value(0), o.bbox.width, o.bbox.height, 0);
    r.width = o.bbox.width;
    r.height = o.bbox.height;
    r.concurrency = o.concurrency;
    r.durationS = wall;
    r.warmupRequests = warmup;
    r.bbox = o.bbox;
    r.time = startTime;
    r.cancelled = job.cancel.isCancelled();
    r.ncpu = CpuUsage::cpuCount();

    QList<double> latencies;
    double clientCpu = 0;
    for (const auto& w : workers) {
        clientCpu += w->cpuSeconds();
        r.connections += w->measuredConnections();
        for (const Sample& s : w->samples()) {
            ++r.requests;
            if (!s.ok) {
                ++r.errorReasons[s.reason];
                continue;
            }
            latencies << s.latencyS * 1000.0;
            r.bytesTotal += s.bytes;
            const auto second = qsizetype(s.endS);
            if (r.okPerSecond.size() <= second) r.okPerSecond.resize(second + 1);
            ++r.okPerSecond[second];
        }
    }
    std::sort(latencies.begin(), latencies.end());
    r.ok = latencies.size();
    r.errors = r.requests - r.ok;
    for (auto it = job.examples.begin(); it != job.examples.end(); ++it) r.errorExamples << it.value();
    r.reqPerS = wall > 0 ? double(r.ok) / wall : 0;
    r.reqPerMin = r.reqPerS * 60.0;
    r.p50Ms = LatencyStats::percentile(latencies, 50);
    r.p90Ms = LatencyStats::percentile(latencies, 90);
    r.p95Ms = LatencyStats::percentile(latencies, 95);
    r.p99Ms = LatencyStats::percentile(latencies, 99);
    r.meanMs = LatencyStats::mean(latencies);
    if (!latencies.isEmpty()) r.maxMs = latencies.last();
    r.bytesMean = r.ok ? double(r.bytesTotal) / double(r.ok) : 0;
    if (wall > 0) {
        r.clientCpuPctOfOneCore = 100.0 * clientCpu / wall;
        r.processCpuPctOfOneCore = 100.0 * processCpu / wall;
    }
    if (r.requests) r.clientCpuMsPerRequest = 1000.0 * clientCpu / double(r.requests);
    r.hostCpuBusyPct = CpuUsage::busyPercent(host0, host1);
    std::optional<double> serverCpu;
    if (server0 && server1) serverCpu = *server1 - *server0;
    else if (o.serverInProcess) serverCpu = std::max(0.0, processCpu - clientCpu);
    if (serverCpu && wall > 0) {
        r.serverCpuPctOfOneCore = 100.0 * *serverCpu / wall;
        if (r.ok) r.serverCpuMsPerRequest = 1000.0 * *serverCpu / double(r.ok);
        if (r.hostCpuBusyPct) {
            const double clientAndServer = 100.0 * (*serverCpu + clientCpu) / wall / r.ncpu;
            r.otherCpuPctOfHost = std::max(0.0, *r.hostCpuBusyPct - clientAndServer);
        }
    }
    return {r, {}};
}

}  // namespace maptune
