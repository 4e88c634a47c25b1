#pragma once
// The fixed threads that render. Connection threads (many, owned by the HTTP
// library) hand their admitted request to one of these and wait: GDAL and OGR
// handles, PROJ contexts and their caches are per thread, so rendering on a
// few long-lived threads keeps them warm — on connection threads every new
// thread re-opened and re-decoded the same JPEG 2000 tiles.

#include "wms/response.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

namespace maptune {

class WorkerThreads {
public:
    explicit WorkerThreads(int count);
    ~WorkerThreads();  // finishes queued jobs, then joins
    WorkerThreads(const WorkerThreads&) = delete;
    WorkerThreads& operator=(const WorkerThreads&) = delete;

    // Runs `job` on a worker thread and returns its result; an exception
    // thrown by the job is rethrown here, on the caller's thread.
    Response run(std::function<Response()> job);
    int count() const { return int(m_threads.size()); }

private:
    void loop();

    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<std::packaged_task<Response()>> m_jobs;
    bool m_stopping = false;
};

}  // namespace maptune
