#include "render/draw_item.h"

#include <vector>

namespace maptune {

namespace {

// Waking consumers for every item costs more than it saves.
constexpr qsizetype kNotifyEvery = 32;

// A thread's spare blocks: enough for the features of a typical map layer,
// and the points their parts may keep (4 MB); an item with more than
// kItemPoints frees them.
constexpr size_t kPooledBlocks = 8;
constexpr qsizetype kPooledPoints = qsizetype(1) << 18;
constexpr qsizetype kItemPoints = 1024;

using Block = std::unique_ptr<DrawItem[]>;

std::vector<Block>& sparePool()
{
    thread_local std::vector<Block> pool;
    return pool;
}

// Keeps the parts' buffers within `budget` points, drops whatever else an
// item holds on to.
void empty(DrawItem& item, qsizetype& budget)
{
    qsizetype points = 0;
    for (const QPolygonF& part : std::as_const(item.parts)) points += part.capacity();
    if (points > kItemPoints || points > budget) item.parts = {};
    else budget -= points;
    item.values = {};
    item.text = {};
    item.ownStyles.reset();
    item.ownLabels.reset();
}

}  // namespace

DrawItemQueue::DrawItemQueue() : m_blocks(std::make_unique<std::unique_ptr<DrawItem[]>[]>(MaxBlocks)) {}

DrawItemQueue::~DrawItemQueue()
{
    std::vector<Block>& pool = sparePool();
    const qsizetype used = m_size.load(std::memory_order_relaxed);
    qsizetype budget = kPooledPoints;
    for (qsizetype b = 0; b < MaxBlocks && m_blocks[b] && pool.size() < kPooledBlocks; ++b) {
        // Items past `used` were emptied when their block last came back.
        for (qsizetype i = 0; i < BlockSize && b * BlockSize + i <= used; ++i) empty(m_blocks[b][i], budget);
        pool.push_back(std::move(m_blocks[b]));
    }
}

DrawItem* DrawItemQueue::next()
{
    const qsizetype i = m_size.load(std::memory_order_relaxed);
    const qsizetype block = i / BlockSize;
    if (block >= MaxBlocks) return nullptr;
    if (!m_blocks[block]) {
        std::vector<Block>& pool = sparePool();
        if (pool.empty()) {
            m_blocks[block] = std::make_unique<DrawItem[]>(BlockSize);
        } else {
            m_blocks[block] = std::move(pool.back());
            pool.pop_back();
        }
    }
    DrawItem& item = m_blocks[block][i % BlockSize];
    item.cls = -1;
    item.type = Geometry::Type::None;
    item.top = item.bottom = 0;
    return &item;
}

void DrawItemQueue::publish()
{
    const qsizetype i = m_size.load(std::memory_order_relaxed);
    m_size.store(i + 1, std::memory_order_release);
    if ((i + 1) % kNotifyEvery == 0) {
        const std::lock_guard lock(m_mutex);
        m_published.notify_all();
    }
}

bool DrawItemQueue::push(DrawItem&& item)
{
    DrawItem* slot = next();
    if (!slot) return false;
    *slot = std::move(item);
    publish();
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
