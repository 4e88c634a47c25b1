#include "data/postgis/postgis_cursor.h"

#include "data/postgis/pg_result.h"

#include <libpq-fe.h>

#include <charconv>

namespace maptune {

qint64 postgisUniqueId(const char* text, int length, qint64 row)
{
    qint64 id = 0;
    const auto [end, ec] = std::from_chars(text, text + length, id);
    return ec == std::errc() && end == text + length ? id : row;
}

PostgisCursor::PostgisCursor(std::unique_ptr<PgRowStream> stream, QStringList fields, bool hasUid,
                             std::shared_ptr<DbTrace> trace, std::function<bool()> whileWaiting)
    : m_stream(std::move(stream)), m_fields(std::move(fields)), m_hasUid(hasUid), m_trace(std::move(trace)),
      m_whileWaiting(std::move(whileWaiting))
{
    if (m_whileWaiting)
        m_stream->setWhileWaiting([this] {
            const Clock::time_point start = Clock::now();
            const bool worked = m_whileWaiting();
            m_worked += Clock::now() - start;
            return worked;
        });
}

PostgisCursor::~PostgisCursor() = default;

void PostgisCursor::keepRowsIn(std::shared_ptr<PgRowCacheScope> scope, quint32 file)
{
    m_keepIn = std::move(scope);
    m_keepFile = file;
}

bool PostgisCursor::next(Feature& f)
{
    const bool sampled = m_calls++ % kSampleEvery == 0;
    const Clock::duration waitedBefore = m_stream->waited();
    const Clock::time_point start = sampled ? Clock::now() : Clock::time_point();
    const bool ok = advance(f);
    if (sampled) {
        m_decoded += Clock::now() - start - (m_stream->waited() - waitedBefore);
        ++m_samples;
    }
    const double decodedMs = std::chrono::duration<double, std::milli>(m_decoded).count() * double(m_calls) / double(m_samples);
    m_trace->fetchMs = std::chrono::duration<double, std::milli>(m_stream->waited() - m_worked).count() + decodedMs;
    if (!ok && m_trace->error.isEmpty()) m_trace->error = error();
    if (!ok && m_keepIn) {
        // Only a statement read to its end says which rows its box holds.
        if (error().isEmpty()) {
            // The next draw nearby finds these rows, unless the budget left them out.
            const size_t read = m_kept.size();
            const size_t held = m_keepIn->publish(m_keepFile, std::move(m_kept));
            m_keepIn->recordMisses(read, read - held);
        }
        m_keepIn.reset();
    }
    return ok;
}

bool PostgisCursor::advance(Feature& f)
{
    const int nFields = int(m_fields.size());
    const int geomCol = nFields;
    const int idCol = geomCol + (m_hasUid ? 2 : 1);
    while (const PGresult* r = m_stream->nextRow()) {
        const qint64 row = m_trace->rows++;
        if (PQgetisnull(r, 0, geomCol)) {
            if (m_keepIn && !keep(r, idCol, nullptr)) return false;
            continue;
        }
        const int len = PQgetlength(r, 0, geomCol);
        m_trace->bytes += len;
        const Status decoded =
            decodeWkb(reinterpret_cast<const unsigned char*>(PQgetvalue(r, 0, geomCol)), size_t(len), f.geometry);
        if (!decoded) {
            m_error = QStringLiteral("row %1: bad WKB from PostGIS: %2").arg(row).arg(decoded.message());
            return false;
        }
        if (f.geometry.isEmpty()) {
            if (m_keepIn && !keep(r, idCol, nullptr)) return false;
            continue;
        }
        f.values.resize(nFields);
        for (int i = 0; i < nFields; ++i) {
            const int n = PQgetlength(r, 0, i);
            m_trace->bytes += n;
            f.values[i] = PQgetisnull(r, 0, i) ? QString()
                                               : m_values.value(i, QByteArrayView(PQgetvalue(r, 0, i), n),
                                                                [](QByteArrayView raw) { return QString::fromUtf8(raw); });
        }
        f.id = m_hasUid ? postgisUniqueId(PQgetvalue(r, 0, geomCol + 1), PQgetlength(r, 0, geomCol + 1), row) : row;
        if (m_keepIn && !keep(r, idCol, &f)) return false;
        return true;
    }
    return false;
}

// A row without geometry is kept too (empty), so that its tuple id is found
// next time instead of fetched again.
bool PostgisCursor::keep(const PGresult* r, int column, const Feature* f)
{
    PgTupleId id;
    if (!pgTupleIdAt(r, column, id)) {
        m_error = QStringLiteral("row %1: ctid and xmin unreadable").arg(m_trace->rows - 1);
        return false;
    }
    if (!f) {
        m_kept.add(id, Geometry(), nullptr, 0);
        return true;
    }
    const int n = int(m_fields.size());
    pgRawValues(r, n, m_rawValues);
    m_kept.add(id, f->geometry, m_rawValues.data(), n);
    return true;
}

}  // namespace maptune
