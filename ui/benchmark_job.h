#pragma once
// One A/B experiment run off the GUI thread: the Experiment blocks a pool
// thread while its progress and finished runs come back as queued signals, so
// the panel and its charts stay live. Cancel() trips the CancelToken the load
// runners poll; the destructor cancels and waits, so no callback outlives us.

#include "loadtest/experiment.h"

#include <QFuture>
#include <QObject>

#include <functional>

namespace maptune {

class BenchmarkJob : public QObject {
    Q_OBJECT
public:
    // Reports a preparation step's progress: fraction 0..1 and what it does.
    using PrepareProgress = std::function<void(double fraction, const QString& stage)>;
    // Runs before the experiment, on the same worker thread (e.g. making map
    // variants with GDAL); it may adjust the options. A non-empty return is an
    // error that ends the job without running anything.
    using Prepare = std::function<QString(ExperimentOptions& options, const CancelToken& cancel,
                                          const PrepareProgress& progress)>;

    explicit BenchmarkJob(QObject* parent = nullptr);
    ~BenchmarkJob() override;

    // False when a job is already running.
    bool start(ExperimentOptions options, Prepare prepare = {});
    void cancel();
    bool isRunning() const { return m_running; }
    // Blocks until the job is over (tests, shutdown); the finished signal is still queued.
    void wait();
    CancelToken cancelToken() const { return m_cancel; }

Q_SIGNALS:
    void preparing(double fraction, const QString& stage);
    // The configurations' labels, once prepared (before the first run).
    void prepared(const QStringList& labels);
    void progress(const maptune::ExperimentProgress& progress);
    // One run (configuration k, 0-based round) is over.
    void runFinished(const maptune::LoadReport& report, int config, int round);
    void finished(const maptune::ExperimentResult& result);

private:
    QFuture<void> m_future;
    CancelToken m_cancel;
    bool m_running = false;
};

}  // namespace maptune
