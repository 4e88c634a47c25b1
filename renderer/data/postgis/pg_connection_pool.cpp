#include "data/postgis/pg_connection_pool.h"

#include "data/postgis/pg_conninfo.h"
#include "trace/trace.h"

#include <algorithm>
#include <libpq-fe.h>

#include <QDeadlineTimer>

namespace maptune {

namespace {

// A connection idle for longer than this gets a round trip before reuse; a
// fresher one only a local check (PQconsumeInput notices a closed socket).
constexpr auto kIdleProbe = std::chrono::seconds(10);

QString poolKey(const QString& conninfo)
{
    return pgConnInfoKey(conninfo);
}

}  // namespace

// ---- PgLease ----

PgLease::PgLease(PgLease&& other) noexcept
{
    *this = std::move(other);
}

PgLease& PgLease::operator=(PgLease&& other) noexcept
{
    if (this == &other) return *this;
    release();
    m_pool = other.m_pool;
    m_key = std::move(other.m_key);
    m_conn = other.m_conn;
    m_prepared = std::move(other.m_prepared);
    m_user = other.m_user;
    m_new = other.m_new;
    m_discard = other.m_discard;
    m_waitMs = other.m_waitMs;
    m_connectMs = other.m_connectMs;
    other.m_conn = nullptr;
    other.m_pool = nullptr;
    return *this;
}

PgLease::~PgLease()
{
    release();
}

void PgLease::release()
{
    if (!m_conn) return;
    PGconn* conn = m_conn;
    m_conn = nullptr;
    const bool keep = !m_discard && PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE;
    if (m_pool) m_pool->giveBack(m_key, conn, std::move(m_prepared), m_user, keep);
    else PQfinish(conn);
    m_prepared = {};
}

bool PgLease::mayPrepare() const
{
    if (!m_pool) return false;
    QMutexLocker lock(&m_pool->m_mutex);
    return m_pool->m_preparedStatements && !m_pool->m_slots.value(m_key).unprepared;
}

void PgLease::stopPreparing()
{
    if (!m_pool) return;
    QMutexLocker lock(&m_pool->m_mutex);
    m_pool->m_slots[m_key].unprepared = true;
}

// ---- PgConnectionPool ----

PgConnectionPool::PgConnectionPool(const PgPoolSettings& settings)
    : m_maxPerKey(std::max(1, settings.maxPerKey)),
      m_acquireTimeoutMs(std::max(0, settings.acquireTimeoutMs)),
      m_statementTimeoutMs(std::max(0, settings.statementTimeoutMs)),
      m_connectTimeoutS(std::max(1, settings.connectTimeoutS)),
      m_preparedStatements(settings.preparedStatements)
{
}

PgConnectionPool::~PgConnectionPool()
{
    closeIdle();
}

void PgConnectionPool::setMaxPerKey(int n)
{
    QMutexLocker lock(&m_mutex);
    m_maxPerKey = std::max(1, n);
    m_freed.wakeAll();
}

int PgConnectionPool::maxPerKey() const
{
    QMutexLocker lock(&m_mutex);
    return m_maxPerKey;
}

void PgConnectionPool::setAcquireTimeoutMs(int ms)
{
    QMutexLocker lock(&m_mutex);
    m_acquireTimeoutMs = std::max(0, ms);
}

int PgConnectionPool::acquireTimeoutMs() const
{
    QMutexLocker lock(&m_mutex);
    return m_acquireTimeoutMs;
}

void PgConnectionPool::setStatementTimeoutMs(int ms)
{
    QMutexLocker lock(&m_mutex);
    m_statementTimeoutMs = std::max(0, ms);
}

void PgConnectionPool::setPreparedStatements(bool on)
{
    QMutexLocker lock(&m_mutex);
    m_preparedStatements = on;
}

bool PgConnectionPool::preparesStatements(const QString& conninfo) const
{
    QMutexLocker lock(&m_mutex);
    return m_preparedStatements && !m_slots.value(poolKey(conninfo)).unprepared;
}

void PgConnectionPool::setConnectTimeoutS(int s)
{
    QMutexLocker lock(&m_mutex);
    m_connectTimeoutS = std::max(1, s);
}

Result<PGconn*> PgConnectionPool::connect(const QString& conninfo, double* ms) const
{
    int connectTimeout, statementTimeout;
    {
        QMutexLocker lock(&m_mutex);
        connectTimeout = m_connectTimeoutS;
        statementTimeout = m_statementTimeoutMs;
    }
    Stopwatch clock;
    const QByteArray timeout = QByteArray::number(connectTimeout);
    const QByteArray info = conninfo.toUtf8();
    // Earlier keywords are defaults: a connect_timeout in the string wins.
    const char* keys[] = {"connect_timeout", "fallback_application_name", "dbname", nullptr};
    const char* values[] = {timeout.constData(), "maptune", info.constData(), nullptr};
    PGconn* conn = PQconnectdbParams(keys, values, 1);
    if (PQstatus(conn) != CONNECTION_OK) {
        Error error(QStringLiteral("cannot connect to PostgreSQL (%1): %2")
                        .arg(redactPgConnInfo(conninfo), redactPgConnInfo(QString::fromUtf8(PQerrorMessage(conn)).trimmed())));
        PQfinish(conn);
        return error;
    }
    // Server notices (and the FATAL of a shutdown seen while idle) are not
    // ours to print on stderr; errors reach the caller through results.
    PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
    if (statementTimeout > 0) {
        const QByteArray set = "SET statement_timeout = " + QByteArray::number(statementTimeout);
        PQclear(PQexec(conn, set.constData()));
    }
    if (ms) *ms = clock.elapsedMs();
    return conn;
}

bool PgConnectionPool::healthy(PGconn* conn, std::chrono::steady_clock::time_point idleSince) const
{
    if (PQstatus(conn) != CONNECTION_OK || PQtransactionStatus(conn) != PQTRANS_IDLE) return false;
    // libpq sockets are non-blocking underneath: this only reads what the
    // server already sent (e.g. "terminating connection due to administrator command").
    if (!PQconsumeInput(conn) || PQstatus(conn) != CONNECTION_OK) return false;
    if (std::chrono::steady_clock::now() - idleSince < kIdleProbe) return true;
    PGresult* r = PQexec(conn, "");
    const bool ok = PQresultStatus(r) == PGRES_EMPTY_QUERY;
    PQclear(r);
    return ok;
}

Result<PgLease> PgConnectionPool::acquire(const QString& conninfo)
{
    const QString key = poolKey(conninfo);
    Stopwatch clock;
    PgLease lease;
    lease.m_pool = this;
    lease.m_key = key;
    lease.m_user = std::this_thread::get_id();
    QMutexLocker lock(&m_mutex);
    const QDeadlineTimer deadline(m_acquireTimeoutMs);
    bool waited = false;
    for (;;) {
        Slot* s = &m_slots[key];
        while (!s->idle.empty()) {
            auto mine = std::find_if(s->idle.rbegin(), s->idle.rend(),
                                     [&](const Idle& i) { return i.lastUser == lease.m_user; });
            if (mine == s->idle.rend()) mine = s->idle.rbegin();
            Idle idle = std::move(*mine);
            s->idle.erase(std::next(mine).base());
            lock.unlock();
            const bool ok = healthy(idle.conn, idle.since);
            if (!ok) PQfinish(idle.conn);
            lock.relock();
            s = &m_slots[key];
            if (ok) {
                ++s->reuses;
                lease.m_conn = idle.conn;
                lease.m_prepared = std::move(idle.prepared);
                lease.m_waitMs = clock.elapsedMs();
                return lease;
            }
            --s->open;
        }
        if (s->open < m_maxPerKey) {
            ++s->open;
            lease.m_waitMs = clock.elapsedMs();
            lock.unlock();
            const Result<PGconn*> conn = connect(conninfo, &lease.m_connectMs);
            lock.relock();
            s = &m_slots[key];
            if (!conn) {
                --s->open;
                m_freed.wakeAll();
                return conn.error();
            }
            ++s->connects;
            lease.m_conn = *conn;
            lease.m_new = true;
            return lease;
        }
        if (!waited) ++s->waits;
        waited = true;
        if (!m_freed.wait(&m_mutex, deadline)) {
            ++m_slots[key].timeouts;
            return Error(QStringLiteral("no free PostgreSQL connection (%1) after %2 ms: all %3 pooled connections are in use; "
                                        "raise the pool size (--pg-pool-size; and the server's max_connections) or lower the load")
                             .arg(redactPgConnInfo(conninfo))
                             .arg(m_acquireTimeoutMs)
                             .arg(m_maxPerKey));
        }
    }
}

Result<PgLease> PgConnectionPool::connectUnpooled(const QString& conninfo)
{
    PgLease lease;
    const Result<PGconn*> conn = connect(conninfo, &lease.m_connectMs);
    if (!conn) return conn.error();
    lease.m_conn = *conn;
    lease.m_new = true;
    return lease;
}

void PgConnectionPool::giveBack(const QString& key, PGconn* conn, PgPreparedStatements prepared, std::thread::id user,
                                bool keep)
{
    {
        QMutexLocker lock(&m_mutex);
        Slot& s = m_slots[key];
        if (keep && s.open <= m_maxPerKey) {
            s.idle.push_back({conn, std::chrono::steady_clock::now(), std::move(prepared), user});
            conn = nullptr;
        } else {
            --s.open;
        }
        m_freed.wakeAll();  // waiters of any key share the condition
    }
    if (conn) PQfinish(conn);
}

PgPoolStats PgConnectionPool::stats() const
{
    QMutexLocker lock(&m_mutex);
    PgPoolStats out;
    for (const Slot& s : m_slots) {
        out.open += s.open;
        out.idle += int(s.idle.size());
        out.waits += s.waits;
        out.timeouts += s.timeouts;
        out.connects += s.connects;
        out.reuses += s.reuses;
    }
    out.inUse = out.open - out.idle;
    return out;
}

PgPoolStats PgConnectionPool::stats(const QString& conninfo) const
{
    QMutexLocker lock(&m_mutex);
    PgPoolStats out;
    const auto it = m_slots.constFind(poolKey(conninfo));
    if (it == m_slots.constEnd()) return out;
    out.open = it->open;
    out.idle = int(it->idle.size());
    out.inUse = out.open - out.idle;
    out.waits = it->waits;
    out.timeouts = it->timeouts;
    out.connects = it->connects;
    out.reuses = it->reuses;
    return out;
}

void PgConnectionPool::closeIdle()
{
    std::vector<PGconn*> doomed;
    {
        QMutexLocker lock(&m_mutex);
        for (Slot& s : m_slots) {
            for (const Idle& i : s.idle) doomed.push_back(i.conn);
            s.open -= int(s.idle.size());
            s.idle.clear();
        }
    }
    for (PGconn* c : doomed) PQfinish(c);
}

std::optional<PgSourceInfo> PgConnectionPool::sourceInfo(const QString& conninfo, const QString& source) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_sources.constFind(poolKey(conninfo) + QLatin1Char('\n') + source);
    if (it == m_sources.constEnd()) return std::nullopt;
    return *it;
}

void PgConnectionPool::setSourceInfo(const QString& conninfo, const QString& source, const PgSourceInfo& info)
{
    QMutexLocker lock(&m_mutex);
    m_sources.insert(poolKey(conninfo) + QLatin1Char('\n') + source, info);
}

void PgConnectionPool::forgetSourceInfo(const QString& conninfo, const QString& source)
{
    QMutexLocker lock(&m_mutex);
    m_sources.remove(poolKey(conninfo) + QLatin1Char('\n') + source);
}

}  // namespace maptune
