#pragma once
// The fixed threads that render. Connection threads (many, owned by the HTTP
// library) hand their admitted request to one of these and wait: GDAL and OGR
// handles, PROJ contexts and their caches are per thread, so rendering on a
// few long-lived threads keeps them warm — on connection threads every new
// thread re-opened and re-decoded the same JPEG 2000 tiles. For the same
// reason a job goes to the worker that became idle last (its caches are the
// warmest): one client at a time is served by one thread, as a FastCGI
// server hands requests to its first idle process, instead of alternating
// between threads that each decode the same tiles. Of the idle workers, a
// client thread gets the one that ran its last job: that worker last ran on
// the client's core, where the kernel then wakes it, instead of beside
// another request while this core idles.

#include "wms/response.h"

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
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
    int count() const { return int(m_workers.size()); }
    // Which worker ran each job so far, in order (for tests).
    std::vector<int> history() const;

private:
    struct Job {
        std::function<Response()> work;
        std::promise<Response> result;
        std::thread::id client;
    };
    struct Worker {
        std::condition_variable wake;
        std::optional<Job> job;  // handed over while idle
        bool listedIdle = false;
        std::thread::id lastClient;
        std::thread thread;
    };
    void loop(int index);
    std::optional<Job> nextJob(Worker& self, int index, std::unique_lock<std::mutex>& lock);

    std::vector<std::unique_ptr<Worker>> m_workers;
    mutable std::mutex m_mutex;
    std::vector<int> m_idle;  // a stack: the last worker to become idle is on top
    std::deque<Job> m_jobs;   // waiting while every worker is busy
    std::condition_variable m_listed;  // a worker put itself on the idle stack
    std::vector<int> m_history;
    bool m_stopping = false;
};

}  // namespace maptune
