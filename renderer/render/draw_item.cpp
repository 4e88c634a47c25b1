#include "render/draw_item.h"

namespace maptune {

namespace {
// Waking consumers for every item costs more than it saves.
constexpr qsizetype kNotifyEvery = 32;
}

DrawItemQueue::DrawItemQueue() : m_blocks(std::make_unique<std::unique_ptr<DrawItem[]>[]>(MaxBlocks)) {}

DrawItemQueue::~DrawItemQueue() = default;

bool DrawItemQueue::push(DrawItem&& item)
{
    const qsizetype i = m_size.load(std::memory_order_relaxed);
    const qsizetype block = i / BlockSize;
    if (block >= MaxBlocks) return false;
    if (!m_blocks[block]) m_blocks[block] = std::make_unique<DrawItem[]>(BlockSize);
    m_blocks[block][i % BlockSize] = std::move(item);
    m_size.store(i + 1, std::memory_order_release);
    if ((i + 1) % kNotifyEvery == 0) {
        const std::lock_guard lock(m_mutex);
        m_published.notify_all();
    }
    return true;
}

void DrawItemQueue::close()
{
    const std::lock_guard lock(m_mutex);
    m_closed = true;
    m_published.notify_all();
    m_closedCv.notify_all();
}

void DrawItemQueue::waitClosed() const
{
    std::unique_lock lock(m_mutex);
    m_closedCv.wait(lock, [&] { return m_closed; });
}

bool DrawItemQueue::waitFor(qsizetype i) const
{
    if (i < size()) return true;
    std::unique_lock lock(m_mutex);
    m_published.wait(lock, [&] { return i < size() || m_closed; });
    return i < size();
}

}  // namespace maptune
