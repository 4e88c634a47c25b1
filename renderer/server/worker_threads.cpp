#include "server/worker_threads.h"

namespace maptune {

WorkerThreads::WorkerThreads(int count)
{
    for (int i = 0; i < std::max(1, count); ++i) m_threads.emplace_back([this] { loop(); });
}

WorkerThreads::~WorkerThreads()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_ready.notify_all();
    for (std::thread& t : m_threads) t.join();
}

Response WorkerThreads::run(std::function<Response()> job)
{
    std::packaged_task<Response()> task(std::move(job));
    std::future<Response> result = task.get_future();
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(task));
    }
    m_ready.notify_one();
    return result.get();
}

void WorkerThreads::loop()
{
    for (;;) {
        std::packaged_task<Response()> task;
        {
            std::unique_lock lock(m_mutex);
            m_ready.wait(lock, [this] { return m_stopping || !m_jobs.empty(); });
            if (m_jobs.empty()) return;  // stopping and drained
            task = std::move(m_jobs.front());
            m_jobs.pop_front();
        }
        task();
    }
}

}  // namespace maptune
