#include "server/request_gate.h"

#include <algorithm>

namespace maptune {

RequestGate::RequestGate(int workers, int maxAdmitted)
    : m_workers(std::max(1, workers)), m_maxAdmitted(std::max(m_workers, maxAdmitted))
{
}

std::optional<RequestGate::Ticket> RequestGate::tryAdmit()
{
    std::lock_guard lock(m_mutex);
    if (m_admitted >= m_maxAdmitted) return std::nullopt;
    m_admitted++;
    return Ticket(this);
}

int RequestGate::admitted() const
{
    std::lock_guard lock(m_mutex);
    return m_admitted;
}

int RequestGate::working() const
{
    std::lock_guard lock(m_mutex);
    return m_working;
}

RequestGate::Ticket::Ticket(Ticket&& other) noexcept : m_gate(other.m_gate), m_working(other.m_working)
{
    other.m_gate = nullptr;
    other.m_working = false;
}

RequestGate::Ticket::~Ticket()
{
    if (!m_gate) return;
    {
        std::lock_guard lock(m_gate->m_mutex);
        m_gate->m_admitted--;
        if (m_working) m_gate->m_working--;
    }
    if (m_working) m_gate->m_free.notify_one();
}

bool RequestGate::Ticket::waitForWorker(std::chrono::steady_clock::time_point deadline)
{
    if (m_working) return true;
    std::unique_lock lock(m_gate->m_mutex);
    if (!m_gate->m_free.wait_until(lock, deadline, [this] { return m_gate->m_working < m_gate->m_workers; }))
        return false;
    m_gate->m_working++;
    m_working = true;
    return true;
}

}  // namespace maptune
