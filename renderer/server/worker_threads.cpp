#include "server/worker_threads.h"

#include <algorithm>

namespace maptune {

namespace {
// Enough to show how jobs are spread, bounded for a long-running server.
constexpr size_t kHistoryLimit = 256;
}

WorkerThreads::WorkerThreads(int count)
{
    const int n = std::max(1, count);
    for (int i = 0; i < n; ++i) m_workers.push_back(std::make_unique<Worker>());
    for (int i = 0; i < n; ++i) m_workers[i]->thread = std::thread([this, i] { loop(i); });
    // Ready when every worker waits: the first jobs then find a stable stack.
    std::unique_lock lock(m_mutex);
    m_listed.wait(lock, [&] { return int(m_idle.size()) == n; });
}

WorkerThreads::~WorkerThreads()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    for (auto& w : m_workers) w->wake.notify_all();
    for (auto& w : m_workers) w->thread.join();
}

Response WorkerThreads::run(std::function<Response()> work)
{
    Job job{std::move(work), {}, std::this_thread::get_id()};
    std::future<Response> result = job.result.get_future();
    {
        std::lock_guard lock(m_mutex);
        if (!m_idle.empty()) {
            auto pick = std::find_if(m_idle.rbegin(), m_idle.rend(),
                                     [&](int i) { return m_workers[i]->lastClient == job.client; });
            if (pick == m_idle.rend()) pick = m_idle.rbegin();
            Worker& w = *m_workers[*pick];
            m_idle.erase(std::next(pick).base());
            w.listedIdle = false;
            w.job = std::move(job);
            w.wake.notify_one();
        } else {
            m_jobs.push_back(std::move(job));
        }
    }
    return result.get();
}

std::vector<int> WorkerThreads::history() const
{
    std::lock_guard lock(m_mutex);
    return m_history;
}

// The job handed to this worker, else the oldest queued one, else waits idle
// on top of the stack. Nothing when stopping with no work left.
std::optional<WorkerThreads::Job> WorkerThreads::nextJob(Worker& self, int index, std::unique_lock<std::mutex>& lock)
{
    for (;;) {
        if (self.job) {
            std::optional<Job> job = std::move(self.job);
            self.job.reset();
            return job;
        }
        if (!m_jobs.empty()) {
            if (self.listedIdle) std::erase(m_idle, index), self.listedIdle = false;
            Job job = std::move(m_jobs.front());
            m_jobs.pop_front();
            return job;
        }
        if (m_stopping) {
            if (self.listedIdle) std::erase(m_idle, index), self.listedIdle = false;
            return std::nullopt;
        }
        if (!self.listedIdle) {
            m_idle.push_back(index), self.listedIdle = true;
            m_listed.notify_all();
        }
        self.wake.wait(lock, [&] { return self.job.has_value() || m_stopping || !m_jobs.empty(); });
    }
}

void WorkerThreads::loop(int index)
{
    Worker& self = *m_workers[index];
    std::unique_lock lock(m_mutex);
    while (std::optional<Job> job = nextJob(self, index, lock)) {
        if (m_history.size() < kHistoryLimit) m_history.push_back(index);
        self.lastClient = job->client;
        lock.unlock();
        std::optional<Response> response;
        std::exception_ptr error;
        try {
            response = job->work();
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        // Back on the idle stack before the client has its answer, so that
        // the client's next request finds this (warm) worker on top.
        if (m_jobs.empty() && !m_stopping) m_idle.push_back(index), self.listedIdle = true;
        lock.unlock();
        if (error) job->result.set_exception(error);
        else job->result.set_value(std::move(*response));
        lock.lock();
    }
}

}  // namespace maptune
