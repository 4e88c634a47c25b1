#include "data/postgis/postgis_cached_cursor.h"

#include "data/postgis/pg_result.h"

#include <libpq-fe.h>

namespace maptune {

namespace {

double ms(std::chrono::steady_clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

PostgisCachedCursor::PostgisCachedCursor(PostgisCachedRead read) : m_read(std::move(read))
{
    if (m_read.whileWaiting)
        m_read.ids->setWhileWaiting([this] {
            const Clock::time_point start = Clock::now();
            const bool worked = m_read.whileWaiting();
            m_worked += Clock::now() - start;
            return worked;
        });
}

bool PostgisCachedCursor::fail(const QString& message)
{
    m_error = message;
    if (m_read.trace->error.isEmpty()) m_read.trace->error = message;
    return false;
}

void PostgisCachedCursor::updateFetchMs()
{
    m_read.trace->fetchMs = ms(m_read.ids->waited() - m_worked);
}

const unsigned char* PostgisCachedCursor::row(const PgTupleId& id) const
{
    if (const unsigned char* r = m_read.snapshot->find(id)) return r;
    const auto it = m_fetchedIndex.find(id);
    return it == m_fetchedIndex.end() ? nullptr : m_fetched.rowData(it->second);
}

bool PostgisCachedCursor::next(Feature& f)
{
    DbTrace& t = *m_read.trace;
    if (!m_idsDone) {
        while (const PGresult* r = m_read.ids->nextRow()) {
            ++t.rows;
            PgTupleId id;
            if (!pgTupleIdAt(r, 0, id)) return fail(QStringLiteral("row %1: ctid and xmin unreadable").arg(t.rows - 1));
            t.bytes += PgTupleId::kBinaryBytes;
            if (m_pending.empty()) {
                if (const unsigned char* cached = m_read.snapshot->find(id)) {
                    ++t.cachedRows;
                    if (!PgCachedRow(cached).hasGeometry()) continue;
                    m_features.fill(f, PgCachedRow(cached));
                    return true;
                }
            }
            m_pending.push_back(id);
        }
        m_idsDone = true;
        updateFetchMs();
        if (!m_read.ids->error().isEmpty()) return fail(m_read.ids->error());
        m_read.ids.reset();  // its connection back to the pool before the fetch takes one
        if (m_read.cancel.isCancelled()) return false;
        if (!m_pending.empty() && !fetchMissing()) return false;
        m_read.scope->recordMisses(size_t(t.rows), m_fetched.size());
    }
    while (m_next < m_pending.size()) {
        const unsigned char* r = row(m_pending[m_next++]);
        if (!r) {
            ++t.changedRows;
            continue;
        }
        if (!PgCachedRow(r).hasGeometry()) continue;
        m_features.fill(f, PgCachedRow(r));
        return true;
    }
    return false;
}

bool PostgisCachedCursor::fetchMissing()
{
    QByteArray tids = "{";
    int missing = 0;
    for (const PgTupleId& id : m_pending) {
        if (m_read.snapshot->find(id)) {
            ++m_read.trace->cachedRows;
            continue;
        }
        if (missing++) tids += ',';
        tids += '"' + id.ctidText() + '"';
    }
    tids += '}';
    if (missing == 0) return true;
    PostgisStatement st = m_read.fetch;
    st.params = {QString::fromLatin1(tids)};
    auto trace = std::make_shared<DbTrace>();
    DbTrace& t = *trace;
    t.layer = m_read.trace->layer;
    t.params = {QStringLiteral("%1 tuple ids").arg(missing)};
    Result<std::unique_ptr<PgRowStream>> stream = m_read.run(st, trace);
    if (!stream) return fail(stream.message());
    const Clock::time_point start = Clock::now();
    while (const PGresult* r = (*stream)->nextRow())
        if (!decodeFetched(r, t)) return false;
    t.fetchMs = ms(Clock::now() - start);
    if (!(*stream)->error().isEmpty()) {
        t.error = (*stream)->error();
        return fail(t.error);
    }
    m_read.scope->publish(m_read.snapshot->tableFile(), m_fetched);  // a copy: this draw reads its own
    return true;
}

bool PostgisCachedCursor::decodeFetched(const PGresult* r, DbTrace& t)
{
    ++t.rows;
    const Status read = m_decoder.read(r);
    if (!read) return fail(QStringLiteral("row %1: %2").arg(t.rows - 1).arg(read.message()));
    t.bytes += m_decoder.bytes();
    m_fetchedIndex.emplace(m_decoder.id(), m_fetched.size());
    m_fetched.add(m_decoder.id(), m_decoder.geometry(), m_decoder.values(), m_decoder.fields());
    return true;
}

}  // namespace maptune
