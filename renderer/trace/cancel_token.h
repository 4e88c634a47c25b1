#pragma once
// Cooperative cancellation: the canvas cancels the render in flight when the
// user pans again; long loops poll isCancelled().

#include <atomic>
#include <memory>

namespace maptune {

class CancelToken {
public:
    CancelToken() : m_flag(std::make_shared<std::atomic_bool>(false)) {}
    void cancel() const { m_flag->store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_flag->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic_bool> m_flag;  // copies share the flag
};

}  // namespace maptune
