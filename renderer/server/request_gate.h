#pragma once
// Admission control for rendering: at most `workers` requests render at once
// and at most `maxAdmitted` are admitted (rendering or waiting for a worker).
// Beyond that a request is refused at once -- the transport answers 503 with
// Retry-After -- instead of queueing without bound while latency grows.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>

namespace maptune {

class RequestGate {
public:
    RequestGate(int workers, int maxAdmitted);
    RequestGate(const RequestGate&) = delete;
    RequestGate& operator=(const RequestGate&) = delete;

    // One admitted request. Releases its admission (and its worker, if it got
    // one) when destroyed. Move-only.
    class Ticket {
    public:
        Ticket(Ticket&& other) noexcept;
        Ticket& operator=(Ticket&&) = delete;
        Ticket(const Ticket&) = delete;
        ~Ticket();
        // Blocks until a worker is free; false when the deadline passed first.
        bool waitForWorker(std::chrono::steady_clock::time_point deadline);

    private:
        friend class RequestGate;
        explicit Ticket(RequestGate* gate) : m_gate(gate) {}
        RequestGate* m_gate;
        bool m_working = false;
    };

    std::optional<Ticket> tryAdmit();

    int workers() const { return m_workers; }
    int maxAdmitted() const { return m_maxAdmitted; }
    int admitted() const;
    int working() const;

private:
    const int m_workers;
    const int m_maxAdmitted;
    mutable std::mutex m_mutex;
    std::condition_variable m_free;
    int m_admitted = 0;
    int m_working = 0;
};

}  // namespace maptune
