#pragma once
// A binary row whose columns are the attributes' text, the WKB, then ctid
// and xmin (PostgisStatement::select with tupleIds, rowsByTupleId,
// wholeTable), decoded for the row cache.

#include "core/result.h"
#include "data/geometry.h"
#include "data/postgis/pg_row_cache.h"

#include <QByteArrayView>

#include <vector>

typedef struct pg_result PGresult;

namespace maptune {

class PgRowDecoder {
public:
    explicit PgRowDecoder(int fields) : m_fields(fields) {}

    // Reads row `r`; the error says what was unreadable.
    Status read(const PGresult* r);
    const PgTupleId& id() const { return m_id; }
    const Geometry& geometry() const { return m_geometry; }
    const QByteArrayView* values() const { return m_values.data(); }
    int fields() const { return m_fields; }
    // The row's geometry and attribute bytes, as they came.
    qint64 bytes() const { return m_bytes; }

private:
    int m_fields;
    PgTupleId m_id;
    Geometry m_geometry;
    std::vector<QByteArrayView> m_values;
    qint64 m_bytes = 0;
};

}  // namespace maptune
