#pragma once
// A PostGIS table's every row as of one database snapshot, held in the row
// cache (pg_row_cache.h) so that a draw whose only condition is its box
// needs no scan at all: the rows whose boxes meet the draw's box are found
// here, and the server is asked only whether anything was committed since
// (pg_current_snapshot(): equal snapshots mean that no transaction that
// wrote anything, in any table, ended in between -- its end moves the
// snapshot's xmax or empties its place in the in-progress list -- so every
// row is still the one read).
//
// The box test is the one PostGIS's `&&` makes: both boxes as floats rounded
// outward (BOX2DF), touching edges overlap, an empty geometry meets nothing.
// Rows come in table order (ctid), the order of a sequential or bitmap scan;
// PostgreSQL promises no order to a SELECT without ORDER BY, and MapServer
// sends none.

#include "data/postgis/pg_row_cache.h"

#include <QByteArray>

#include <algorithm>
#include <memory>
#include <vector>

namespace maptune {

// PostGIS's BOX2DF: the index's and `&&`'s box.
struct PgBox2f {
    float xmin = 0, ymin = 0, xmax = 0, ymax = 0;

    // The smallest float box holding the double box (PostGIS's
    // next_float_down / next_float_up, clamped to the float range).
    static PgBox2f outward(double xmin, double ymin, double xmax, double ymax);
    // Overlap with touching edges, as box2df_overlaps.
    bool overlaps(const PgBox2f& o) const
    {
        return !(xmin > o.xmax || o.xmin > xmax || ymin > o.ymax || o.ymin > ymax);
    }
};

class PgWholeTable {
public:
    const QByteArray& dbSnapshot() const { return m_dbSnapshot; }
    quint32 tableFile() const { return m_file; }
    // Rows with a geometry (those a box can meet).
    size_t rows() const { return m_rows.size(); }
    // The first row from number `from` on whose box overlaps `box` (any
    // row when `box` is null), in table order; rows() when none is left.
    size_t nextOverlapping(size_t from, const PgBox2f* box) const
    {
        if (!box) return std::min(from, m_rows.size());
        for (; from < m_rows.size(); ++from)
            if (m_rows[from].box.overlaps(*box)) return from;
        return from;
    }
    PgCachedRow row(size_t i) const { return PgCachedRow(m_block->data() + m_rows[i].offset); }

private:
    friend class PgRowCacheScope;
    struct Row {
        PgBox2f box;
        size_t offset;  // in m_block
    };
    QByteArray m_dbSnapshot;
    quint32 m_file = 0;
    std::shared_ptr<const std::vector<unsigned char>> m_block;  // shared with the scope's row snapshot
    std::vector<Row> m_rows;  // by ctid
};

using PgWholeTablePtr = std::shared_ptr<const PgWholeTable>;

// A table's rows as a full read returns them, for PgRowCacheScope::publishWhole.
class PgWholeTableRows {
public:
    // False (and the table unusable) when a coordinate is infinite or NaN:
    // `&&` on such a box does not follow the float comparisons above. An
    // empty point (one point of NaN, NaN in WKB) has no box.
    bool add(const PgTupleId& id, const Geometry& g, const QByteArrayView* values, int count);
    size_t size() const { return m_batch.size(); }
    size_t bytes() const { return m_batch.bytes(); }

private:
    friend class PgRowCacheScope;
    PgRowBatch m_batch;
    std::vector<std::pair<PgBox2f, size_t>> m_boxes;  // of the rows with a geometry: box, batch row
};

}  // namespace maptune
