#pragma once
// Reading a table whole for the row cache (pg_whole_table.h): its snapshot,
// every row, and its snapshot again. Equal snapshots mean nothing was
// committed in between, so the rows are the table as of that snapshot;
// otherwise the read is thrown away.

#include "core/result.h"
#include "data/postgis/pg_connection_pool.h"
#include "data/postgis/pg_whole_table.h"
#include "data/postgis/postgis_statement.h"
#include "trace/cancel_token.h"

#include <functional>

typedef struct pg_conn PGconn;

namespace maptune {

// pg_current_snapshot() as text ("xmin:xmax:xip,...").
Result<QByteArray> pgCurrentSnapshot(PGconn* conn);

struct PostgisWholeTableRead {
    PostgisStatement statement;  // PostgisStatement::wholeTable, guarded
    int fields = 0;              // attribute columns before the WKB
    quint32 file = 0;            // the guard's table file
    size_t maxBytes = 0;         // a table whose rows pass this is not kept
    std::function<Result<PgLease>()> lease;
    CancelToken cancel;
};

struct PostgisWholeTableResult {
    PgWholeTablePtr table;   // null: not kept (see `error` or `tooLarge`)
    bool tooLarge = false;
    bool noRows = false;     // the guard's table file may be stale
    QString error;           // the database's or a row's; empty when only not kept
    qint64 rows = 0;         // read
    qint64 bytes = 0;        // geometry and attribute bytes read
    double lastSnapshotMs = 0;  // the snapshot after the rows, which found them current
};

// Reads the table and publishes it in `scope` (which ends the read begun
// with beginWholeRead either way).
PostgisWholeTableResult readPostgisWholeTable(const PostgisWholeTableRead& read, PgRowCacheScope& scope);

}  // namespace maptune
