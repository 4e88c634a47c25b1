#include "data/postgis/pg_row_decoder.h"

#include "data/postgis/pg_result.h"

#include <libpq-fe.h>

namespace maptune {

Status PgRowDecoder::read(const PGresult* r)
{
    const int geomCol = m_fields, idCol = m_fields + 1;
    if (!pgTupleIdAt(r, idCol, m_id)) return Error(QStringLiteral("ctid and xmin unreadable"));
    m_geometry.clear();
    m_bytes = 0;
    if (!PQgetisnull(r, 0, geomCol)) {
        const int len = PQgetlength(r, 0, geomCol);
        m_bytes += len;
        const Status decoded = decodeWkb(reinterpret_cast<const unsigned char*>(PQgetvalue(r, 0, geomCol)), size_t(len), m_geometry);
        if (!decoded) return Error(QStringLiteral("bad WKB from PostGIS: %1").arg(decoded.message()));
    }
    pgRawValues(r, m_fields, m_values);
    for (const QByteArrayView& v : m_values) m_bytes += v.size();
    return {};
}

}  // namespace maptune
