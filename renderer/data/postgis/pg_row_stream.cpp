#include "data/postgis/pg_row_stream.h"

#include "data/postgis/pg_result.h"

#include <libpq-fe.h>

#include <QRandomGenerator>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

#include <poll.h>

namespace maptune {

namespace {

constexpr Oid kFloat8Oid = 701;
// Statements a pooled connection keeps prepared; past this (a map whose SQL
// changes per request, which bound parameters should prevent) the rest run
// unnamed, planned per draw as before.
constexpr int kMaxPreparedPerConnection = 32;
// How long a dropped stream waits for the server to stop sending after its
// cancel before the connection is closed instead of pooled.
constexpr int kDrainTimeoutMs = 2000;

void cancelOnServer(PGconn* conn)
{
    PGcancel* c = PQgetCancel(conn);
    if (!c) return;
    char message[256];
    PQcancel(c, message, sizeof message);
    PQfreeCancel(c);
}

bool hasSqlState(const PGresult* result, const char* code)
{
    const char* state = PQresultErrorField(result, PG_DIAG_SQLSTATE);
    return state && std::strcmp(state, code) == 0;
}

// "prepared statement ... does not exist"
bool unknownStatement(const PGresult* result) { return hasSqlState(result, "26000"); }

// SQLSTATEs after which the statement prepared on this connection is no
// longer usable: it was dropped, or the table under it changed shape
// ("cached plan must not change result type").
bool staleStatement(const PGresult* result) { return unknownStatement(result) || hasSqlState(result, "0A000"); }

// A name no other process or connection uses: behind a pooler in
// transaction mode a server connection is shared, and a name of ours must
// never run another client's statement (it then fails as unknown instead).
QByteArray uniqueStatementName()
{
    static const QByteArray process = QByteArray::number(QRandomGenerator::system()->generate64(), 36);
    static std::atomic<quint64> counter{0};
    return "maptune_" + process + '_' + QByteArray::number(++counter);
}

}  // namespace

PgRowStream::PgRowStream(PgLease lease, CancelToken cancel) : m_lease(std::move(lease)), m_cancel(std::move(cancel)) {}

PgRowStream::~PgRowStream()
{
    PQclear(m_row);
    PQclear(m_pending);
    if (!m_busy) return;
    cancelOnServer(m_lease.conn());
    m_cancelSent = true;
    drain(QDeadlineTimer(kDrainTimeoutMs));
}

bool PgRowStream::start(const PostgisStatement& st)
{
    PGconn* conn = m_lease.conn();
    const QByteArray sql = st.sql.toUtf8();
    const PgParams params(st.params);
    const int n = params.count();
    std::vector<Oid> types(size_t(n), 0);
    for (int i = 0; i < n && i < st.float8Params; ++i) types[size_t(i)] = kFloat8Oid;

    QByteArray name;
    if (m_lease.mayPrepare()) {
        PgPreparedStatements& statements = m_lease.preparedStatements();
        name = statements.value(sql);
        if (name.isEmpty() && statements.size() < kMaxPreparedPerConnection) {
            const QByteArray candidate = uniqueStatementName();
            const PgResult made(PQprepare(conn, candidate.constData(), sql.constData(), n, types.data()));
            if (PQresultStatus(made.get()) != PGRES_COMMAND_OK) {
                fail(made.get());
                return false;
            }
            statements.insert(sql, candidate);
            name = candidate;
        }
    }
    m_prepared = !name.isEmpty();
    const int sent = m_prepared ? PQsendQueryPrepared(conn, name.constData(), n, params.data(), nullptr, nullptr, 1)
                                : PQsendQueryParams(conn, sql.constData(), n, types.data(), params.data(), nullptr, nullptr, 1);
    if (!sent) {
        fail(nullptr);
        return false;
    }
    m_busy = true;
    if (!PQsetSingleRowMode(conn)) {
        m_error = QStringLiteral("PostgreSQL: could not read the rows as they arrive (single-row mode)");
        return false;
    }
    m_pending = readRow();
    m_waited = {};  // the wait for the first row is the statement's, not the rows'
    return m_error.isEmpty();
}

const PGresult* PgRowStream::nextRow()
{
    PQclear(m_row);
    m_row = nullptr;
    if (m_pending) std::swap(m_row, m_pending);
    else if (m_busy && ((++m_rowsRead & 255) != 0 || !m_cancel.isCancelled())) m_row = readRow();
    return m_row;
}

// The next row's result; null at the end or on an error.
PGresult* PgRowStream::readRow()
{
    if (!waitForResult(QDeadlineTimer(QDeadlineTimer::Forever), true)) {
        fail(nullptr);
        finish();
        return nullptr;
    }
    PGresult* r = PQgetResult(m_lease.conn());
    if (PQresultStatus(r) == PGRES_SINGLE_TUPLE) return r;
    // PGRES_TUPLES_OK: the empty result that ends the rows. An error is
    // judged after the drain: a server that shut down sends its message
    // before the connection closes.
    const bool failed = PQresultStatus(r) != PGRES_TUPLES_OK;
    drain();
    if (failed) fail(r);
    PQclear(r);
    finish();
    return nullptr;
}

// Reads from the socket until a result is ready, sending the server a cancel
// once the token is cancelled; false when the connection broke or the
// deadline passed. With `work`, the whileWaiting work runs before each sleep.
bool PgRowStream::waitForResult(const QDeadlineTimer& deadline, bool work)
{
    // Only a read that has to wait is timed: a row already here costs no clock read.
    if (!PQisBusy(m_lease.conn())) return true;
    const auto start = std::chrono::steady_clock::now();
    const bool ok = pollForResult(deadline, work && m_whileWaiting);
    m_waited += std::chrono::steady_clock::now() - start;
    return ok;
}

bool PgRowStream::pollForResult(const QDeadlineTimer& deadline, bool work)
{
    PGconn* conn = m_lease.conn();
    while (PQisBusy(conn)) {
        if (!m_cancelSent && m_cancel.isCancelled()) {
            m_cancelSent = true;
            cancelOnServer(conn);
        }
        if (deadline.hasExpired()) return false;
        if (work) {
            // What has arrived first (never blocks: libpq's socket is
            // non-blocking), so that work never delays a row already here.
            if (!PQconsumeInput(conn)) return false;
            if (!PQisBusy(conn)) break;
            if (m_whileWaiting()) continue;
        }
        pollfd fd{PQsocket(conn), POLLIN, 0};
        const int waitMs = deadline.isForever() ? 50 : int(std::min<qint64>(50, deadline.remainingTime()));
        if (::poll(&fd, 1, waitMs) < 0 && errno != EINTR) return false;
        if (!PQconsumeInput(conn)) return false;
    }
    return true;
}

// Reads what is left of the statement, up to its final null result; a
// connection that broke or did not answer in time is closed, not pooled.
void PgRowStream::drain(const QDeadlineTimer& deadline)
{
    PGconn* conn = m_lease.conn();
    for (;;) {
        if (!waitForResult(deadline)) {
            m_lease.discard();
            return;
        }
        PGresult* r = PQgetResult(conn);
        if (!r) return;
        PQclear(r);
    }
}

// Gives the connection back to the pool (closed instead when it broke).
void PgRowStream::finish()
{
    m_busy = false;
    m_lease.release();
}

void PgRowStream::fail(const PGresult* result)
{
    PGconn* conn = m_lease.conn();
    if (m_error.isEmpty()) m_error = pgErrorMessage(conn, result);
    m_retryable = PQstatus(conn) == CONNECTION_BAD;
    if (result && staleStatement(result)) {
        // Its name stays taken on the server: close the connection, and a
        // fresh one prepares the statement anew (a table that changed shape).
        m_lease.discard();
        m_retryable = true;
        // Our names are unique and never deallocated by us: one the server
        // does not know was dropped between us and it -- a pooler in
        // transaction mode, whose next command may reach another server.
        if (unknownStatement(result)) {
            m_lease.stopPreparing();
            m_stoppedPreparing = true;
        }
    }
}

}  // namespace maptune
