#include "server/deadline_watchdog.h"

namespace maptune {

DeadlineWatchdog::DeadlineWatchdog() : m_thread([this] { run(); }) {}

DeadlineWatchdog::~DeadlineWatchdog()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void DeadlineWatchdog::run()
{
    std::unique_lock lock(m_mutex);
    while (!m_stop) {
        ++m_passes;
        Clock::time_point next = Clock::time_point::max();
        const Clock::time_point now = Clock::now();
        for (auto it = m_watches.begin(); it != m_watches.end();) {
            if (it->second.deadline <= now) {
                it->second.token.cancel();
                it = m_watches.erase(it);
            } else {
                next = std::min(next, it->second.deadline);
                ++it;
            }
        }
        m_wakeAt = next;
        if (next == Clock::time_point::max())
            m_wake.wait(lock);
        else
            m_wake.wait_until(lock, next);
    }
}

std::uint64_t DeadlineWatchdog::passes() const
{
    std::lock_guard lock(m_mutex);
    return m_passes;
}

DeadlineWatchdog::Guard::Guard(DeadlineWatchdog& dog, Clock::time_point deadline, const CancelToken& token) : m_dog(dog)
{
    bool sooner;
    {
        std::lock_guard lock(dog.m_mutex);
        m_id = dog.m_nextId++;
        dog.m_watches.emplace(m_id, Watch{deadline, token});
        sooner = deadline < dog.m_wakeAt;
        if (sooner) dog.m_wakeAt = deadline;
    }
    if (sooner) dog.m_wake.notify_all();
}

DeadlineWatchdog::Guard::~Guard()
{
    std::lock_guard lock(m_dog.m_mutex);
    m_dog.m_watches.erase(m_id);
}

}  // namespace maptune
