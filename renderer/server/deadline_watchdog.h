#pragma once
// Cancels the CancelToken of a request that runs over its time limit. One
// thread for all requests; a request registers on admission and unregisters
// when answered (RAII Guard). The thread is woken only by a deadline sooner
// than the one it sleeps until: with one time limit that is never, where a
// wake per request was a context switch that took a core from a render.

#include "trace/cancel_token.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace maptune {

class DeadlineWatchdog {
public:
    using Clock = std::chrono::steady_clock;

    DeadlineWatchdog();
    ~DeadlineWatchdog();
    DeadlineWatchdog(const DeadlineWatchdog&) = delete;
    DeadlineWatchdog& operator=(const DeadlineWatchdog&) = delete;

    class Guard {
    public:
        Guard(DeadlineWatchdog& dog, Clock::time_point deadline, const CancelToken& token);
        ~Guard();
        Guard(const Guard&) = delete;
        Guard& operator=(const Guard&) = delete;

    private:
        DeadlineWatchdog& m_dog;
        std::uint64_t m_id;
    };

    // How often the thread has looked at the watches (tests).
    std::uint64_t passes() const;

private:
    struct Watch {
        Clock::time_point deadline;
        CancelToken token;
    };
    void run();

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::map<std::uint64_t, Watch> m_watches;
    std::uint64_t m_nextId = 1;
    Clock::time_point m_wakeAt = Clock::time_point::min();  // the thread looks again then
    std::uint64_t m_passes = 0;
    bool m_stop = false;
    std::thread m_thread;
};

}  // namespace maptune
