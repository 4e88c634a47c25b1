#pragma once
// A draw of a PostGIS table whose rows are in the row cache (pg_row_cache.h):
// the server is asked only for the tuple ids in the box
// (PostgisStatement::tupleIds), and each row comes from the cache snapshot
// taken when the draw began. Rows are returned in the statement's order, as
// they arrive, until the first tuple id the snapshot lacks; from there the
// ids are collected to the end, the missing rows fetched by ctid in one
// statement (rowsByTupleId) and added to the cache, and the rest returned.
//
// A tuple fetched by ctid that is gone or has another xmin was updated or
// deleted after the ids were read: it is left out of this draw and counted
// (DbTrace::changedRows) -- drawing the new version would mix two moments.

#include "data/feature_source.h"
#include "data/postgis/pg_cached_features.h"
#include "data/postgis/pg_row_cache.h"
#include "data/postgis/pg_row_decoder.h"
#include "data/postgis/pg_row_stream.h"

#include <chrono>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace maptune {

struct PostgisCachedRead {
    std::unique_ptr<PgRowStream> ids;   // started with PostgisStatement::tupleIds
    std::shared_ptr<PgRowCacheScope> scope;
    PgRowCacheSnapshotPtr snapshot;     // its file is the statement's guard's
    QStringList fields;
    PostgisStatement fetch;             // rowsByTupleId; the cursor binds $1
    // Starts `fetch` on a connection of the layer's; the trace (listed with
    // the layer's from then on) gets its connection and query timings.
    std::function<Result<std::unique_ptr<PgRowStream>>(const PostgisStatement&, const std::shared_ptr<DbTrace>&)> run;
    std::shared_ptr<DbTrace> trace;  // the tuple ids' statement
    std::function<bool()> whileWaiting;
    CancelToken cancel;  // a cancelled draw fetches nothing more and records no misses
};

class PostgisCachedCursor : public FeatureCursor {
public:
    explicit PostgisCachedCursor(PostgisCachedRead read);

    const QStringList& fields() const override { return m_read.fields; }
    QString error() const override { return m_error; }
    bool next(Feature& f) override;

private:
    using Clock = std::chrono::steady_clock;
    struct Key {
        size_t operator()(const PgTupleId& id) const { return (size_t(id.block) << 16 | id.offset) * 0x9E3779B97F4A7C15ull; }
    };

    bool fail(const QString& message);
    bool fetchMissing();
    bool decodeFetched(const PGresult* r, DbTrace& t);
    const unsigned char* row(const PgTupleId& id) const;
    void updateFetchMs();

    PostgisCachedRead m_read;
    std::vector<PgTupleId> m_pending;  // ids from the first one missing, in order
    size_t m_next = 0;                 // next of m_pending to return
    bool m_idsDone = false;
    PgRowBatch m_fetched;                                  // the rows fetched by ctid
    std::unordered_map<PgTupleId, size_t, Key> m_fetchedIndex;  // their numbers in m_fetched
    PgRowDecoder m_decoder{int(m_read.fields.size())};
    PgCachedFeatures m_features{int(m_read.fields.size())};
    Clock::duration m_worked{0};
    QString m_error;
};

}  // namespace maptune
