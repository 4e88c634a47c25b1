#include "data/postgis/postgis_fallback_cursor.h"

namespace maptune {

PostgisFallbackCursor::PostgisFallbackCursor(std::unique_ptr<FeatureCursor> guarded, std::function<qint64()> rowsRead,
                                             Open plain, std::function<void()> stale)
    : m_current(std::move(guarded)), m_rowsRead(std::move(rowsRead)), m_plain(std::move(plain)), m_stale(std::move(stale))
{
}

bool PostgisFallbackCursor::next(Feature& f)
{
    if (m_current->next(f)) return true;
    if (m_fellBack || !m_current->error().isEmpty() || m_rowsRead() != 0) return false;
    m_fellBack = true;
    Result<std::unique_ptr<FeatureCursor>> plain = m_plain();
    if (!plain) {
        m_error = plain.message();
        return false;
    }
    m_current = std::move(*plain);
    if (!m_current->next(f)) return false;
    m_stale();
    return true;
}

}  // namespace maptune
