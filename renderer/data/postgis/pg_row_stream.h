#pragma once
// One SELECT whose rows are read as they arrive (libpq's single-row mode):
// the renderer decodes and draws the first rows while the server is still
// producing and sending the rest, where a whole-result read would wait for
// the last row first. On a pooled connection the statement is prepared once
// and afterwards only executed with new parameters, so the server parses and
// plans it once per connection instead of once per draw.
//
// The stream owns the connection's lease until its last row has been read,
// then returns it to the pool at once. Dropped early (cancelled render, a
// failed layer), it cancels the statement on the server and drains what was
// already sent, so that the connection goes back to the pool idle.

#include "data/postgis/pg_connection_pool.h"
#include "data/postgis/postgis_statement.h"
#include "trace/cancel_token.h"

#include <QDeadlineTimer>

#include <chrono>
#include <functional>

typedef struct pg_result PGresult;

namespace maptune {

class PgRowStream {
public:
    PgRowStream(PgLease lease, CancelToken cancel);
    ~PgRowStream();
    PgRowStream(const PgRowStream&) = delete;
    PgRowStream& operator=(const PgRowStream&) = delete;

    // Sends the statement (parameters typed as PostgisStatement says, results
    // binary) and waits for its first row, its end or its error.
    bool start(const PostgisStatement& st);
    // The next row, valid until the next call; null at the end of the rows,
    // on an error (error()) and once the token is cancelled.
    const PGresult* nextRow();
    // The time spent waiting for rows still on their way since the first
    // one (whileWaiting work included); reading a row already here is not timed.
    std::chrono::steady_clock::duration waited() const { return m_waited; }
    // Called in nextRow() instead of sleeping while the next row is still on
    // its way (FeatureQuery::whileWaiting); each call that did some work is
    // followed by a read of what arrived meanwhile. Never called from the
    // destructor.
    void setWhileWaiting(std::function<bool()> work) { m_whileWaiting = std::move(work); }

    const QString& error() const { return m_error; }
    // A retry on a fresh connection may succeed: this one died, or the
    // statement prepared on it went stale (the table under it changed, or
    // a pooler in transaction mode gave the command another server).
    bool retryable() const { return m_retryable; }
    // The server did not know the statement (a pooler dropped it): its
    // connection key now runs statements unprepared (PgLease::stopPreparing).
    bool stoppedPreparing() const { return m_stoppedPreparing; }
    // The statement ran as one prepared on this connection.
    bool prepared() const { return m_prepared; }
    PgLease& lease() { return m_lease; }

private:
    bool waitForResult(const QDeadlineTimer& deadline = QDeadlineTimer(QDeadlineTimer::Forever), bool work = false);
    bool pollForResult(const QDeadlineTimer& deadline, bool work);
    PGresult* readRow();
    void drain(const QDeadlineTimer& deadline = QDeadlineTimer(QDeadlineTimer::Forever));
    void finish();
    void fail(const PGresult* result);

    PgLease m_lease;
    CancelToken m_cancel;
    std::function<bool()> m_whileWaiting;
    PGresult* m_row = nullptr;
    PGresult* m_pending = nullptr;   // the first row, read by start()
    bool m_busy = false;             // results of the statement are still to be read
    bool m_cancelSent = false;
    bool m_prepared = false;
    bool m_stoppedPreparing = false;
    bool m_retryable = false;
    unsigned m_rowsRead = 0;
    std::chrono::steady_clock::duration m_waited{0};
    QString m_error;
};

}  // namespace maptune
