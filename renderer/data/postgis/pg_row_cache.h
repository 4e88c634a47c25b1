#pragma once
// Decoded rows of PostGIS tables, kept between draws and keyed by the tuple
// version they came from: (table file, ctid, xmin). PostgreSQL never changes
// a tuple version in place -- an UPDATE writes a new one at a new ctid with
// a new xmin, VACUUM FULL / CLUSTER / TRUNCATE move rows into a new file --
// so a row found under its key is byte for byte the row the database holds
// under that key, and a draw can ask the server only which tuples are in its
// box ("SELECT ctid, xmin ... WHERE geom && box": the scan without the WKB)
// and take their geometries from here. Every draw still sees exactly the
// rows its statement saw; only their decoding is saved.
//
// One cache per EngineContext, bounded in bytes; within it a scope per
// connection string and row shape (DATA, columns). Readers take an immutable
// snapshot once per draw and look rows up without a lock; writers publish a
// new snapshot that shares every page they did not touch.

#include "data/geometry.h"

#include <QHash>
#include <QMutex>
#include <QByteArrayView>
#include <QStringList>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace maptune {

// A tuple version: ctid (block, line pointer offset from 1) and xmin.
struct PgTupleId {
    quint32 block = 0;
    quint16 offset = 0;
    quint32 xmin = 0;

    // From binary result columns: tid (6 bytes) and xid (4 bytes), network order.
    static constexpr int kBinaryBytes = 10;
    static bool fromBinary(const char* tid, int tidLength, const char* xid, int xidLength, PgTupleId& out);
    // "(block,offset)", the tid's text form, for a tid[] parameter.
    QByteArray ctidText() const;
    bool operator==(const PgTupleId&) const = default;
};

// One cached row: its geometry and its attribute columns' text, packed in
// one run of bytes (rows read together lie together, so a draw walks memory
// in order; the text stays UTF-8, so each reader decodes its own QStrings and
// threads never share a reference count).
class PgCachedRow {
public:
    explicit PgCachedRow(const unsigned char* data) : m_data(data) {}
    bool hasGeometry() const { return header().points > 0; }
    void geometryInto(Geometry& g) const;
    // Calls f(index, value) per column; a NULL has a null data().
    template <class F>
    void forEachValue(F&& f) const
    {
        const Header& h = header();
        const unsigned char* p = m_data + sizeof(Header) + size_t(h.points) * 2 * sizeof(double) + size_t(h.parts) * sizeof(int);
        for (quint32 i = 0; i < h.values; ++i) {
            qint32 n;
            std::memcpy(&n, p, sizeof n);
            p += sizeof n;
            f(int(i), n < 0 ? QByteArrayView() : QByteArrayView(reinterpret_cast<const char*>(p), n));
            if (n > 0) p += n;
        }
    }

private:
    friend class PgRowBatch;
    struct Header {
        quint32 type;
        quint32 points;
        quint32 parts;
        quint32 values;
    };
    const Header& header() const { return *reinterpret_cast<const Header*>(m_data); }
    const unsigned char* m_data;
};

// Rows read by one draw, packed for the cache (PgRowCacheScope::publish).
class PgRowBatch {
public:
    // `values`: the attribute columns' bytes; a NULL as a view with null data.
    void add(const PgTupleId& id, const Geometry& g, const QByteArrayView* values, int count);
    size_t size() const { return m_rows.size(); }
    size_t bytes() const { return m_bytes.size(); }
    // The row added as number `i`, valid while the batch lives and is not added to.
    const unsigned char* rowData(size_t i) const { return m_bytes.data() + m_rows[i].second; }

private:
    friend class PgRowCacheScope;
    std::vector<unsigned char> m_bytes;  // rows at 8-byte aligned offsets
    std::vector<std::pair<PgTupleId, size_t>> m_rows;
};

class PgRowCacheScope;
class PgWholeTable;
class PgWholeTableRows;
using PgWholeTablePtr = std::shared_ptr<const PgWholeTable>;

class PgRowCache {
public:
    // `wholeTableBytes`: the largest table read whole (pg_whole_table.h);
    // by default a quarter of the budget, 0 never.
    explicit PgRowCache(size_t budgetBytes, std::optional<size_t> wholeTableBytes = std::nullopt)
        : m_budget(budgetBytes), m_wholeTable(wholeTableBytes.value_or(budgetBytes / 4))
    {
    }
    PgRowCache(const PgRowCache&) = delete;
    PgRowCache& operator=(const PgRowCache&) = delete;

    size_t budgetBytes() const { return m_budget; }
    size_t wholeTableBytes() const { return m_wholeTable; }
    size_t bytes() const { return m_bytes.load(std::memory_order_relaxed); }
    // The scope of one connection string and row shape (the SQL of the
    // statement that reads the full rows); made on first use, kept for the
    // cache's life.
    std::shared_ptr<PgRowCacheScope> scope(const QString& conninfo, const QString& shape);

private:
    friend class PgRowCacheScope;
    // Reserves `n` bytes of the budget; false (nothing reserved) when they do not fit.
    bool reserve(size_t n);
    void release(size_t n) { m_bytes.fetch_sub(n, std::memory_order_relaxed); }
    // Gives back `held` reserved bytes for `n` new ones in one step; false
    // (nothing changed) when the budget cannot hold the n.
    bool exchange(size_t held, size_t n);

    const size_t m_budget;
    const size_t m_wholeTable;
    std::atomic<size_t> m_bytes{0};
    QMutex m_mutex;
    QHash<QString, std::shared_ptr<PgRowCacheScope>> m_scopes;
};

// One scope's rows as of one moment; never changes once published. A row
// replaced by a newer version keeps its bytes until the scope starts over.
class PgRowCacheSnapshot {
public:
    quint32 tableFile() const { return m_file; }
    size_t rows() const { return m_rows; }
    // The row of tuple `id`, or null when this tuple version is not here.
    const unsigned char* find(const PgTupleId& id) const
    {
        if (id.block >= m_pages.size() || !m_pages[id.block]) return nullptr;
        const Page& page = *m_pages[id.block];
        const size_t slot = size_t(id.offset) - 1;
        if (slot >= page.size() || page[slot].xmin != id.xmin) return nullptr;
        return page[slot].row;
    }

private:
    friend class PgRowCacheScope;
    struct Slot {
        quint32 xmin = 0;
        const unsigned char* row = nullptr;  // in one of m_blocks
    };
    using Page = std::vector<Slot>;  // by line pointer offset - 1
    quint32 m_file = 0;
    size_t m_rows = 0;
    size_t m_bytes = 0;
    std::vector<std::shared_ptr<const Page>> m_pages;  // by block number
    std::vector<std::shared_ptr<const std::vector<unsigned char>>> m_blocks;  // the published batches' bytes
};

using PgRowCacheSnapshotPtr = std::shared_ptr<const PgRowCacheSnapshot>;

class PgRowCacheScope {
public:
    explicit PgRowCacheScope(PgRowCache& cache) : m_cache(cache) {}
    ~PgRowCacheScope();

    PgRowCacheSnapshotPtr snapshot() const;
    // Adds rows read from table file `file`. A scope whose file changed
    // starts over. Rows that do not fit the cache's budget are left out; a
    // scope that keeps missing (the last draws' rows mostly not here) is
    // emptied first, at most once per kRefillInterval, so that it follows
    // the draws' current area instead of holding rows no draw asks for.
    // Returns how many of `rows` the scope holds now.
    size_t publish(quint32 file, PgRowBatch rows);
    void clear();

    // What the last draw found: the share of its rows that had to be read
    // in full. Decides whether the next one asks for tuple ids first.
    void recordMisses(size_t rows, size_t misses);
    double missRatio() const { return m_missRatio.load(std::memory_order_relaxed); }

    // The table read whole, while it answers draws; null otherwise.
    PgWholeTablePtr wholeTable() const;
    // True when the caller is to read the whole table now: none is held or
    // being read, and the last read began long enough ago -- kRefillInterval,
    // twice as long after each table that went stale (or read outdated)
    // within four such waits (up to kMaxWholeReadInterval: a database that
    // keeps changing), back to kRefillInterval after one that lasted. Every true is followed by
    // publishWhole() or endWholeRead(), which can put the next read off
    // longer (a table that did not fit).
    bool beginWholeRead();
    void endWholeRead(std::chrono::seconds nextNotBefore = kRefillInterval);
    // A read that something committed during: as a table gone stale at once.
    void endWholeReadOutdated();
    // The table `rows` (every row of file `file` as of `dbSnapshot`): the
    // scope starts over with them. Null when they do not fit the budget.
    PgWholeTablePtr publishWhole(quint32 file, QByteArray dbSnapshot, PgWholeTableRows rows);
    // The database moved on from `table`'s snapshot: it answers no more
    // draws. Its rows stay, found by their tuple versions.
    void dropWhole(const PgWholeTable* table);

    static constexpr std::chrono::seconds kRefillInterval{10};
    static constexpr std::chrono::seconds kMaxWholeReadInterval{320};

private:
    // Points `next`'s pages at `rows` (tuple id, offset in `block`).
    static size_t place(PgRowCacheSnapshot& next, const unsigned char* block,
                        const std::vector<std::pair<PgTupleId, size_t>>& rows);
    void releaseWhole();
    // After a table that went stale (or a read outdated) at `since`.
    void putOffWholeRead(std::chrono::steady_clock::time_point since);

    PgRowCache& m_cache;
    mutable QMutex m_mutex;
    PgRowCacheSnapshotPtr m_snapshot;
    PgWholeTablePtr m_whole;
    size_t m_wholeBytes = 0;  // m_whole's own, besides its rows' (in m_snapshot)
    bool m_readingWhole = false;
    std::chrono::steady_clock::time_point m_nextWholeRead{};
    std::chrono::steady_clock::time_point m_wholeSince{};  // m_whole's publication
    std::chrono::seconds m_wholeReadInterval = kRefillInterval;
    std::chrono::steady_clock::time_point m_lastRefill{};
    std::atomic<double> m_missRatio{1.0};
};

}  // namespace maptune
