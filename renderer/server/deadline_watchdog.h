#pragma once
// Cancels the CancelToken of a request that runs over its time limit. One
// thread for all requests; a request registers on admission and unregisters
// when answered (RAII Guard).

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

private:
    struct Watch {
        Clock::time_point deadline;
        CancelToken token;
    };
    void run();

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::map<std::uint64_t, Watch> m_watches;
    std::uint64_t m_nextId = 1;
    bool m_stop = false;
    std::thread m_thread;
};

}  // namespace maptune
