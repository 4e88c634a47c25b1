#pragma once
// CONNECTIONTYPE POSTGIS: one SELECT per draw through the shared connection
// pool, with the bbox bound as parameters, only the needed columns, and the
// geometry as binary WKB in libpq's binary result format. Metadata (SRID
// without `using srid`, the column list for "*") is looked up once per
// connection string and DATA and cached in the pool -- no per-draw
// postgis_version(), primary-key or LIMIT 0 round trips as in MapServer.
//
// PROCESSING "CLOSE_CONNECTION=ALWAYS" uses a fresh, unpooled connection per
// draw; "=DEFER", "=NORMAL" or nothing use the pool (MapTune pools by
// default: reconnecting per request made PostGIS 2x slower than files).
//
// With a row cache (EngineContext), a drawn map of a plain table reads its
// rows once and afterwards asks only for the tuple ids in its box
// (pg_row_cache.h, postgis_cached_cursor.h); PROCESSING "ROW_CACHE=OFF"
// reads every draw's rows in full, as MapServer does.

#include "core/result.h"
#include "data/feature_source.h"
#include "data/postgis/pg_connection_pool.h"
#include "data/postgis/pg_row_cache.h"
#include "data/postgis/postgis_metadata.h"
#include "data/postgis/pg_row_stream.h"
#include "data/postgis/postgis_data_def.h"
#include "data/postgis/postgis_statement.h"

#include <memory>

namespace maptune {

class PostgisFeatureSource : public FeatureSource {
public:
    // `rowCache` null: no row cache.
    static Result<std::unique_ptr<PostgisFeatureSource>> open(const LayerDef& layer,
                                                              std::shared_ptr<PgConnectionPool> pool,
                                                              std::shared_ptr<PgRowCache> rowCache = nullptr);

    QStringList fields() const override;
    std::optional<Crs> nativeCrs() const override;
    // ST_Extent over the whole source, asked each time (what OWS capabilities
    // advertise when the mapfile gives no EXTENT); nothing when it fails.
    std::optional<Rect> extent() const override;
    Result<std::unique_ptr<FeatureCursor>> query(const FeatureQuery& q) override;
    QList<DbTrace> takeDbTraces() override;
    bool readsFromServer() const override { return true; }

    // The statement query() would run (metadata looked up if needed), for
    // `maptune-cli explain`. `columns` as in PostgisSelectSpec.
    Result<PostgisStatement> statement(const QStringList& columns, const Rect& bbox, int limit);
    const PostgisDataDef& data() const { return m_data; }
    QString connectionInfo() const { return m_conninfo; }
    bool pooled() const { return m_pooled; }
    // A connection as query() gets it (pooled or not).
    Result<PgLease> lease() const;

private:
    PostgisFeatureSource() = default;
    Result<PgSourceInfo> sourceInfo(PgLease& lease, bool wantColumns) const;
    QStringList resolveColumns(const QStringList& attributes, const PgSourceInfo& info) const;
    // The draw's SELECT for `q`, metadata looked up on `lease` if not cached
    // (and handed out through `info`).
    Result<PostgisSelectSpec> selectSpec(PgLease& lease, const FeatureQuery& q, PgSourceInfo* info = nullptr) const;
    // A trace for one statement of this draw.
    std::shared_ptr<DbTrace> newTrace() const;
    // Starts the statement `build` makes on a connection of the layer's (it
    // may look metadata up on it first), retrying on a fresh connection
    // when a pooled one died; `t` gets the timings and the SQL and is listed
    // in takeDbTraces() from then on.
    Result<std::unique_ptr<PgRowStream>> run(const std::shared_ptr<DbTrace>& t, const CancelToken& cancel,
                                             const std::function<Result<PostgisStatement>(PgLease&)>& build);
    // The draw from the table kept whole (pg_whole_table.h) when the scope
    // holds it and it is current, or when this draw reads it; null when the
    // draw goes another way (the source or query does not qualify, the
    // database moved on, a read failed: the other ways report errors).
    std::unique_ptr<FeatureCursor> queryWholeTable(const FeatureQuery& q);
    // Reads the table whole into `scope` (a read begun with beginWholeRead);
    // the read is traced, and `checked` gets the time of the snapshot that
    // found its rows current. Null when it was not kept.
    PgWholeTablePtr readWholeTable(const PostgisSelectSpec& spec, const PgTableVersion& table, PgRowCacheScope& scope,
                                   const CancelToken& cancel, DbTrace& checked);
    // Every row in full, no cache (MapServer's way).
    Result<std::unique_ptr<FeatureCursor>> queryRows(const FeatureQuery& q);
    Result<PgTableVersion> tableVersion(PgLease& lease, PgSourceInfo info) const;
    void forgetTableVersion() const;

    QString m_layer;
    QString m_conninfo;
    bool m_local = false;  // the server runs on this machine
    QString m_dataText;
    PostgisDataDef m_data;
    QString m_nativeFilter;
    QList<RequestConditionDef> m_conditions;  // the request's TIME / dimensions
    bool m_pooled = true;
    std::shared_ptr<PgConnectionPool> m_pool;
    std::shared_ptr<PgRowCache> m_rowCache;  // null: off
    mutable QList<std::shared_ptr<DbTrace>> m_traces;  // completed by cursors as they read
};

}  // namespace maptune
