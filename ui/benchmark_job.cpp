#include "benchmark_job.h"

#include <QMetaObject>
#include <QtConcurrent>

namespace maptune {

BenchmarkJob::BenchmarkJob(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<maptune::ExperimentProgress>();
    qRegisterMetaType<maptune::LoadReport>();
    qRegisterMetaType<maptune::ExperimentResult>();
}

BenchmarkJob::~BenchmarkJob()
{
    cancel();
    wait();
}

bool BenchmarkJob::start(ExperimentOptions options, Prepare prepare)
{
    if (m_running) return false;
    m_cancel = CancelToken();  // a fresh flag: the last job's cancel must not stop this one
    m_running = true;
    const CancelToken cancel = m_cancel;
    m_future = QtConcurrent::run([this, options = std::move(options), prepare = std::move(prepare), cancel]() mutable {
        ExperimentResult result;
        try {
            if (prepare) {
                result.error = prepare(options, cancel, [this](double fraction, const QString& stage) {
                    QMetaObject::invokeMethod(
                        this, [this, fraction, stage] { Q_EMIT preparing(fraction, stage); }, Qt::QueuedConnection);
                });
            }
            if (result.error.isEmpty() && !cancel.isCancelled()) {
                QStringList labels;
                for (const ExperimentConfig& c : std::as_const(options.configs)) labels << c.label;
                QMetaObject::invokeMethod(this, [this, labels] { Q_EMIT prepared(labels); }, Qt::QueuedConnection);
                Experiment experiment(options);
                experiment.setCancelToken(cancel);
                experiment.setProgressCallback([this](const ExperimentProgress& p) {
                    QMetaObject::invokeMethod(this, [this, p] { Q_EMIT progress(p); }, Qt::QueuedConnection);
                });
                // The runs come back in schedule order: the n-th report is the n-th (round, config).
                const auto order = Experiment::schedule(int(options.configs.size()), options.rounds, options.abba);
                int done = 0;
                experiment.setRunCallback([this, order, &done](const LoadReport& report) {
                    const auto [round, config] = order.value(done++);
                    QMetaObject::invokeMethod(
                        this, [this, report, config = config, round = round] { Q_EMIT runFinished(report, config, round); },
                        Qt::QueuedConnection);
                });
                result = experiment.run();
            }
            result.cancelled = result.cancelled || cancel.isCancelled();
        } catch (const std::exception& e) {
            // Worker entry: nothing may cross the thread boundary as an exception.
            result.error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(
            this,
            [this, result] {
                m_running = false;
                Q_EMIT finished(result);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void BenchmarkJob::cancel()
{
    m_cancel.cancel();
}

void BenchmarkJob::wait()
{
    m_future.waitForFinished();
}

}  // namespace maptune
