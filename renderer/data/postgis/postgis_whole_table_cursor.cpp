#include "data/postgis/postgis_whole_table_cursor.h"

namespace maptune {

PostgisWholeTableCursor::PostgisWholeTableCursor(PgWholeTablePtr table, const Rect& box, QStringList fields,
                                                 std::shared_ptr<DbTrace> trace)
    : m_table(std::move(table)), m_fields(std::move(fields)), m_trace(std::move(trace)), m_features(int(m_fields.size()))
{
    if (box.isValid()) m_box = PgBox2f::outward(box.minx, box.miny, box.maxx, box.maxy);
}

bool PostgisWholeTableCursor::next(Feature& f)
{
    m_next = m_table->nextOverlapping(m_next, m_box ? &*m_box : nullptr);
    if (m_next >= m_table->rows()) return false;
    m_features.fill(f, m_table->row(m_next++));
    ++m_trace->rows;
    ++m_trace->cachedRows;
    return true;
}

}  // namespace maptune
