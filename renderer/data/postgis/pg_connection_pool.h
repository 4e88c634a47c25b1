#pragma once
// A pool of libpq connections, keyed by the parsed connection string
// (pgConnInfoKey: case kept, so different credentials never share a
// connection -- MapServer's case-insensitive match would), shared by every
// layer of every request of the maps prepared with one EngineContext (the
// program makes one; data/engine_context.h). Unlike MapServer's CLOSE_CONNECTION=DEFER cache it is
// bounded: at most maxPerKey() connections per key, and a caller that finds
// them all in use waits (timed) instead of opening one more -- so a load
// spike can never exhaust the server's max_connections.
//
// A PGconn is never shared: a lease owns it until it is destroyed. Checkout
// checks the connection's health (PQstatus, plus a round trip after it sat
// idle) and the feature source retries once on a fresh connection when a
// pooled one turns out dead, so the pool recovers from a server restart.

#include "core/result.h"
#include "data/postgis/postgis_metadata.h"

#include <QHash>
#include <QMutex>
#include <QString>
#include <QStringList>
#include <QWaitCondition>

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <thread>

typedef struct pg_conn PGconn;

namespace maptune {

class PgConnectionPool;

// What this program prepared on one connection: SQL text -> statement name.
// It travels with the connection through the pool (a statement is planned
// once per connection, not once per draw).
using PgPreparedStatements = QHash<QByteArray, QByteArray>;

// The RAII loan of one connection. Returned to the pool on destruction unless
// discarded or broken (then closed). Move-only.
class PgLease {
public:
    PgLease() = default;
    PgLease(PgLease&& other) noexcept;
    PgLease& operator=(PgLease&& other) noexcept;
    PgLease(const PgLease&) = delete;
    PgLease& operator=(const PgLease&) = delete;
    ~PgLease();

    PGconn* conn() const { return m_conn; }
    explicit operator bool() const { return m_conn != nullptr; }
    bool isNew() const { return m_new; }          // connected for this lease
    double waitMs() const { return m_waitMs; }     // time blocked on a full pool
    double connectMs() const { return m_connectMs; }
    // Statements prepared on this connection; empty and unused for an
    // unpooled lease, whose connection ends with it.
    PgPreparedStatements& preparedStatements() { return m_prepared; }
    bool pooled() const { return m_pool != nullptr; }
    // Whether draws may prepare statements on this connection: pooled, and
    // neither the settings nor an earlier lease of its key said otherwise.
    bool mayPrepare() const;
    // A statement prepared on this connection was gone at a later command:
    // the server behind it changes between transactions (PgBouncer in
    // transaction mode). Its key runs statements unprepared from now on.
    void stopPreparing();
    // Close instead of returning (the connection is suspect).
    void discard() { m_discard = true; }
    // Return now (before destruction).
    void release();

private:
    friend class PgConnectionPool;
    PgConnectionPool* m_pool = nullptr;  // null: not pooled (CLOSE_CONNECTION=ALWAYS)
    QString m_key;
    PGconn* m_conn = nullptr;
    PgPreparedStatements m_prepared;
    std::thread::id m_user;  // the thread that acquired it
    bool m_new = false;
    bool m_discard = false;
    double m_waitMs = 0;
    double m_connectMs = 0;
};

struct PgPoolStats {
    int open = 0;           // connections held by the pool (idle + in use)
    int idle = 0;
    int inUse = 0;
    qint64 waits = 0;       // acquires that had to wait for a free connection
    qint64 timeouts = 0;    // acquires that gave up
    qint64 connects = 0;    // connections opened, ever
    qint64 reuses = 0;      // acquires served by an idle connection
};

// What a source learned from the database once (SRID, columns), cached per
// connection key + DATA so that draws make no metadata round trips.
// The pool's sizes and timeouts, as the program sets them (maptune-cli serve
// --pg-pool-size ...).
struct PgPoolSettings {
    int maxPerKey = 8;             // connections per connection string
    int acquireTimeoutMs = 5000;   // how long a layer waits for a free one
    int statementTimeoutMs = 0;    // 0: none
    int connectTimeoutS = 5;       // unless the CONNECTION string sets connect_timeout
    // Named prepared statements on pooled connections (off behind a pooler
    // in transaction mode; detected there anyway, see PgLease::stopPreparing).
    bool preparedStatements = true;
};

struct PgSourceInfo {
    int srid = 0;
    QStringList columns;    // all columns of the source, for "*" attribute requests
    // The table's oid and file, for the row cache; nothing until looked up.
    std::optional<PgTableVersion> table;
};

class PgConnectionPool {
public:
    explicit PgConnectionPool(const PgPoolSettings& settings = {});
    ~PgConnectionPool();
    PgConnectionPool(const PgConnectionPool&) = delete;
    PgConnectionPool& operator=(const PgConnectionPool&) = delete;

    void setMaxPerKey(int n);
    int maxPerKey() const;
    void setAcquireTimeoutMs(int ms);
    int acquireTimeoutMs() const;
    void setStatementTimeoutMs(int ms);
    void setConnectTimeoutS(int s);
    void setPreparedStatements(bool on);
    // Whether draws on `conninfo`'s connections prepare their statements.
    bool preparesStatements(const QString& conninfo) const;

    // Blocks until a connection is free, up to acquireTimeoutMs(). Errors
    // (timeout, connection refused) come back with the password removed; a
    // lease returned is never empty.
    Result<PgLease> acquire(const QString& conninfo);
    // A fresh connection that is closed when the lease ends (CLOSE_CONNECTION=ALWAYS).
    Result<PgLease> connectUnpooled(const QString& conninfo);

    PgPoolStats stats() const;
    PgPoolStats stats(const QString& conninfo) const;
    // Closes idle connections (tests; after a configuration change).
    void closeIdle();

    std::optional<PgSourceInfo> sourceInfo(const QString& conninfo, const QString& source) const;
    void setSourceInfo(const QString& conninfo, const QString& source, const PgSourceInfo& info);
    void forgetSourceInfo(const QString& conninfo, const QString& source);

private:
    friend class PgLease;
    struct Idle {
        PGconn* conn;
        std::chrono::steady_clock::time_point since;
        PgPreparedStatements prepared;
        // The thread that used it last gets it back first: the server
        // process it wakes last ran on that thread's core, so the kernel
        // keeps the two on one core instead of placing the server beside
        // another request while this core idles (bench roads at c=2: idle 6 % -> 1 %).
        std::thread::id lastUser;
    };
    struct Slot {
        std::deque<Idle> idle;  // most recently used at the back
        int open = 0;
        qint64 waits = 0, timeouts = 0, connects = 0, reuses = 0;
        bool unprepared = false;  // a statement vanished between two commands
    };
    Result<PGconn*> connect(const QString& conninfo, double* ms) const;
    bool healthy(PGconn* conn, std::chrono::steady_clock::time_point idleSince) const;
    void giveBack(const QString& key, PGconn* conn, PgPreparedStatements prepared, std::thread::id user, bool keep);

    mutable QMutex m_mutex;
    QWaitCondition m_freed;
    QHash<QString, Slot> m_slots;
    QHash<QString, PgSourceInfo> m_sources;
    int m_maxPerKey = 8;
    int m_acquireTimeoutMs = 5000;
    int m_statementTimeoutMs = 0;
    int m_connectTimeoutS = 5;
    bool m_preparedStatements = true;
};

}  // namespace maptune
