#include "data/postgis/pg_row_cache.h"

#include "data/postgis/pg_whole_table.h"

#include <QMutexLocker>
#include <QtEndian>

#include <algorithm>

namespace maptune {

namespace {

// Reading draws that found fewer than this share of their rows here: their
// area moved, and rows no draw asks for may give way to theirs.
constexpr double kRefillMissRatio = 0.5;

}  // namespace

bool PgTupleId::fromBinary(const char* tid, int tidLength, const char* xid, int xidLength, PgTupleId& out)
{
    if (tidLength != 6 || xidLength != 4) return false;
    out.block = qFromBigEndian<quint32>(tid);
    out.offset = qFromBigEndian<quint16>(tid + 4);
    out.xmin = qFromBigEndian<quint32>(xid);
    return out.offset > 0;
}

QByteArray PgTupleId::ctidText() const
{
    return '(' + QByteArray::number(block) + ',' + QByteArray::number(offset) + ')';
}

void PgCachedRow::geometryInto(Geometry& g) const
{
    const Header& h = header();
    const auto* xy = reinterpret_cast<const double*>(m_data + sizeof(Header));
    const auto* parts = reinterpret_cast<const int*>(xy + size_t(h.points) * 2);
    g.type = Geometry::Type(h.type);
    g.xy.assign(xy, xy + size_t(h.points) * 2);
    g.partStart.assign(parts, parts + h.parts);
}

void PgRowBatch::add(const PgTupleId& id, const Geometry& g, const QByteArrayView* values, int count)
{
    using Header = PgCachedRow::Header;
    const size_t start = m_bytes.size();
    size_t n = sizeof(Header) + g.xy.size() * sizeof(double) + g.partStart.size() * sizeof(int);
    for (int i = 0; i < count; ++i) n += sizeof(qint32) + size_t(std::max<qsizetype>(values[i].size(), 0));
    m_bytes.resize(start + ((n + 7) & ~size_t(7)));
    unsigned char* p = m_bytes.data() + start;
    const Header h{quint32(g.type), quint32(g.xy.size() / 2), quint32(g.partStart.size()), quint32(std::max(count, 0))};
    std::memcpy(p, &h, sizeof h);
    p += sizeof h;
    if (!g.xy.empty()) std::memcpy(p, g.xy.data(), g.xy.size() * sizeof(double));
    p += g.xy.size() * sizeof(double);
    if (!g.partStart.empty()) std::memcpy(p, g.partStart.data(), g.partStart.size() * sizeof(int));
    p += g.partStart.size() * sizeof(int);
    for (int i = 0; i < count; ++i) {
        const qint32 len = values[i].data() ? qint32(values[i].size()) : -1;
        std::memcpy(p, &len, sizeof len);
        p += sizeof len;
        if (len > 0) std::memcpy(p, values[i].data(), size_t(len));
        if (len > 0) p += len;
    }
    m_rows.emplace_back(id, start);
}

std::shared_ptr<PgRowCacheScope> PgRowCache::scope(const QString& conninfo, const QString& shape)
{
    const QString key = conninfo + QLatin1Char('\n') + shape;
    QMutexLocker lock(&m_mutex);
    std::shared_ptr<PgRowCacheScope>& s = m_scopes[key];
    if (!s) s = std::make_shared<PgRowCacheScope>(*this);
    return s;
}

bool PgRowCache::exchange(size_t held, size_t n)
{
    size_t used = m_bytes.load(std::memory_order_relaxed);
    do {
        if (used - held + n > m_budget) return false;
    } while (!m_bytes.compare_exchange_weak(used, used - held + n, std::memory_order_relaxed));
    return true;
}

bool PgRowCache::reserve(size_t n)
{
    size_t used = m_bytes.load(std::memory_order_relaxed);
    do {
        if (used + n > m_budget) return false;
    } while (!m_bytes.compare_exchange_weak(used, used + n, std::memory_order_relaxed));
    return true;
}

PgRowCacheScope::~PgRowCacheScope()
{
    if (m_snapshot) m_cache.release(m_snapshot->m_bytes);
    m_cache.release(m_wholeBytes);
}

PgRowCacheSnapshotPtr PgRowCacheScope::snapshot() const
{
    QMutexLocker lock(&m_mutex);
    return m_snapshot;
}

void PgRowCacheScope::clear()
{
    QMutexLocker lock(&m_mutex);
    if (m_snapshot) m_cache.release(m_snapshot->m_bytes);
    m_snapshot.reset();
    releaseWhole();
}

void PgRowCacheScope::recordMisses(size_t rows, size_t misses)
{
    m_missRatio.store(rows ? double(misses) / double(rows) : 0.0, std::memory_order_relaxed);
}

size_t PgRowCacheScope::publish(quint32 file, PgRowBatch rows)
{
    constexpr size_t kSlotBytes = sizeof(PgRowCacheSnapshot::Slot);
    const size_t wanted = rows.bytes() + rows.size() * kSlotBytes;

    QMutexLocker lock(&m_mutex);
    const auto now = std::chrono::steady_clock::now();
    bool keep = m_snapshot && m_snapshot->m_file == file;
    if (keep && m_cache.bytes() + wanted > m_cache.budgetBytes() && missRatio() > kRefillMissRatio &&
        now - m_lastRefill >= kRefillInterval) {
        keep = false;
        m_lastRefill = now;
    }
    auto next = std::make_shared<PgRowCacheSnapshot>();
    next->m_file = file;
    if (keep) {
        next->m_pages = m_snapshot->m_pages;
        next->m_blocks = m_snapshot->m_blocks;
        next->m_rows = m_snapshot->m_rows;
        next->m_bytes = m_snapshot->m_bytes;
    } else {
        if (m_snapshot) m_cache.release(m_snapshot->m_bytes);
        releaseWhole();
    }
    // All of the batch's bytes are reserved or none: its rows share one block.
    size_t held = 0;
    if (rows.size() > 0 && m_cache.reserve(wanted)) {
        auto block = std::make_shared<const std::vector<unsigned char>>(std::move(rows.m_bytes));
        next->m_blocks.push_back(block);
        next->m_bytes += wanted;
        held = place(*next, block->data(), rows.m_rows);
    }
    m_snapshot = std::move(next);
    return held;
}

size_t PgRowCacheScope::place(PgRowCacheSnapshot& next, const unsigned char* block,
                              const std::vector<std::pair<PgTupleId, size_t>>& rows)
{
    using Page = PgRowCacheSnapshot::Page;
    // Pages this call copied (and may change); the rest stay shared.
    std::vector<std::shared_ptr<Page>> copied;
    size_t held = 0;
    for (const auto& [id, offset] : rows) {
        if (id.offset == 0) continue;
        if (id.block >= next.m_pages.size()) next.m_pages.resize(size_t(id.block) + 1);
        if (id.block >= copied.size()) copied.resize(next.m_pages.size());
        std::shared_ptr<Page>& page = copied[id.block];
        if (!page) {
            const auto& old = next.m_pages[id.block];
            page = old ? std::make_shared<Page>(*old) : std::make_shared<Page>();
            next.m_pages[id.block] = page;
        }
        if (page->size() < id.offset) page->resize(id.offset);
        PgRowCacheSnapshot::Slot& slot = (*page)[size_t(id.offset) - 1];
        ++held;
        if (slot.row && slot.xmin == id.xmin) continue;  // another draw put it here first
        if (!slot.row) ++next.m_rows;
        slot.xmin = id.xmin;
        slot.row = block + offset;
    }
    return held;
}

PgWholeTablePtr PgRowCacheScope::wholeTable() const
{
    QMutexLocker lock(&m_mutex);
    return m_whole;
}

bool PgRowCacheScope::beginWholeRead()
{
    QMutexLocker lock(&m_mutex);
    const auto now = std::chrono::steady_clock::now();
    if (m_whole || m_readingWhole || now < m_nextWholeRead) return false;
    m_readingWhole = true;
    m_nextWholeRead = now + m_wholeReadInterval;
    return true;
}

void PgRowCacheScope::endWholeRead(std::chrono::seconds nextNotBefore)
{
    QMutexLocker lock(&m_mutex);
    m_readingWhole = false;
    m_nextWholeRead = std::max(m_nextWholeRead, std::chrono::steady_clock::now() + nextNotBefore);
}

void PgRowCacheScope::endWholeReadOutdated()
{
    QMutexLocker lock(&m_mutex);
    m_readingWhole = false;
    putOffWholeRead(std::chrono::steady_clock::now());
}

void PgRowCacheScope::putOffWholeRead(std::chrono::steady_clock::time_point since)
{
    // A table that lasted several waits was worth its read; one that did not
    // means a database changing about as often as it is read.
    const bool lasted = std::chrono::steady_clock::now() - since >= 4 * m_wholeReadInterval;
    m_wholeReadInterval = lasted ? kRefillInterval : std::min(m_wholeReadInterval * 2, kMaxWholeReadInterval);
    m_nextWholeRead = since + m_wholeReadInterval;
}

void PgRowCacheScope::releaseWhole()
{
    m_cache.release(m_wholeBytes);
    m_wholeBytes = 0;
    m_whole.reset();
}

PgWholeTablePtr PgRowCacheScope::publishWhole(quint32 file, QByteArray dbSnapshot, PgWholeTableRows rows)
{
    PgRowBatch& batch = rows.m_batch;
    const size_t rowBytes = batch.bytes() + batch.size() * sizeof(PgRowCacheSnapshot::Slot);
    const size_t indexBytes = rows.m_boxes.size() * sizeof(PgWholeTable::Row);
    if (rowBytes + indexBytes > m_cache.wholeTableBytes()) {
        endWholeRead();
        return nullptr;
    }
    // Built before the lock, which draws take for their snapshots.
    auto block = std::make_shared<const std::vector<unsigned char>>(std::move(batch.m_bytes));
    auto next = std::make_shared<PgRowCacheSnapshot>();
    next->m_file = file;
    next->m_blocks.push_back(block);
    next->m_bytes = rowBytes;
    place(*next, block->data(), batch.m_rows);
    auto whole = std::make_shared<PgWholeTable>();
    whole->m_dbSnapshot = std::move(dbSnapshot);
    whole->m_file = file;
    whole->m_block = block;
    std::sort(rows.m_boxes.begin(), rows.m_boxes.end(), [&](const auto& a, const auto& b) {
        const PgTupleId& x = batch.m_rows[a.second].first;
        const PgTupleId& y = batch.m_rows[b.second].first;
        return x.block != y.block ? x.block < y.block : x.offset < y.offset;
    });
    whole->m_rows.reserve(rows.m_boxes.size());
    for (const auto& [box, i] : rows.m_boxes) whole->m_rows.push_back({box, batch.m_rows[i].second});

    QMutexLocker lock(&m_mutex);
    m_readingWhole = false;
    // The scope starts over with these, every row of the table: its bytes
    // are exchanged for theirs, or it stays as it was when they do not fit.
    const size_t held = (m_snapshot ? m_snapshot->m_bytes : 0) + m_wholeBytes;
    if (!m_cache.exchange(held, rowBytes + indexBytes)) return nullptr;
    m_snapshot = std::move(next);
    m_whole = whole;
    m_wholeBytes = indexBytes;
    m_wholeSince = std::chrono::steady_clock::now();
    return whole;
}

void PgRowCacheScope::dropWhole(const PgWholeTable* table)
{
    QMutexLocker lock(&m_mutex);
    if (m_whole.get() != table) return;
    putOffWholeRead(m_wholeSince);
    releaseWhole();
}

}  // namespace maptune
