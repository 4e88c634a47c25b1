#include "data/postgis/postgis_feature_source.h"

#include "data/postgis/pg_conninfo.h"
#include "data/postgis/pg_result.h"
#include "data/postgis/pg_row_stream.h"
#include "data/postgis/postgis_cached_cursor.h"
#include "data/postgis/postgis_cursor.h"
#include "data/postgis/postgis_fallback_cursor.h"
#include "data/postgis/postgis_metadata.h"
#include "data/postgis/postgis_whole_table_cursor.h"
#include "data/postgis/postgis_whole_table_read.h"
#include "mapfile/processing.h"

#include <libpq-fe.h>

namespace maptune {

namespace {

bool connectionLost(const PgLease& lease)
{
    return lease && PQstatus(lease.conn()) == CONNECTION_BAD;
}

}  // namespace

Result<std::unique_ptr<PostgisFeatureSource>> PostgisFeatureSource::open(const LayerDef& layer,
                                                                         std::shared_ptr<PgConnectionPool> pool,
                                                                         std::shared_ptr<PgRowCache> rowCache)
{
    if (layer.connection.trimmed().isEmpty())
        return Error(QStringLiteral("CONNECTION is empty; give a libpq connection string such as "
                                    "\"host=localhost dbname=gis user=maps\" or \"service=gis\""));
    auto data = PostgisDataDef::parse(layer.data);
    if (!data) return data.error();
    const ProcessingOptions opts(layer.processing);
    const QString close = opts.value(QStringLiteral("CLOSE_CONNECTION"), {}).trimmed().toUpper();
    if (!close.isEmpty() && close != QLatin1String("ALWAYS") && close != QLatin1String("DEFER") && close != QLatin1String("NORMAL"))
        return Error(QStringLiteral("PROCESSING \"CLOSE_CONNECTION=%1\": expected ALWAYS, DEFER or NORMAL").arg(close));
    const QString rowCacheOpt = opts.value(QStringLiteral("ROW_CACHE"), {}).trimmed().toUpper();
    if (!rowCacheOpt.isEmpty() && rowCacheOpt != QLatin1String("ON") && rowCacheOpt != QLatin1String("OFF"))
        return Error(QStringLiteral("PROCESSING \"ROW_CACHE=%1\": expected ON or OFF").arg(rowCacheOpt));
    std::unique_ptr<PostgisFeatureSource> src(new PostgisFeatureSource);
    if (rowCacheOpt != QLatin1String("OFF") && rowCache && rowCache->budgetBytes() > 0) src->m_rowCache = std::move(rowCache);
    src->m_layer = layer.name;
    src->m_conninfo = layer.connection;
    src->m_local = pgConnInfoIsLocal(layer.connection);
    src->m_dataText = layer.data;
    src->m_data = *data;
    src->m_nativeFilter = opts.value(QStringLiteral("NATIVE_FILTER"), {});
    src->m_conditions = layer.requestConditions;
    src->m_pooled = close != QLatin1String("ALWAYS");
    src->m_pool = std::move(pool);
    return src;
}

Result<PgLease> PostgisFeatureSource::lease() const
{
    PgConnectionPool& pool = *m_pool;
    return m_pooled ? pool.acquire(m_conninfo) : pool.connectUnpooled(m_conninfo);
}

Result<PgSourceInfo> PostgisFeatureSource::sourceInfo(PgLease& lease, bool wantColumns) const
{
    PgConnectionPool& pool = *m_pool;
    std::optional<PgSourceInfo> info = pool.sourceInfo(m_conninfo, m_dataText);
    const bool haveSrid = m_data.srid > 0 || info;
    if (haveSrid && (!wantColumns || (info && !info->columns.isEmpty()))) {
        PgSourceInfo out = info.value_or(PgSourceInfo{});
        if (m_data.srid > 0) out.srid = m_data.srid;
        return out;
    }
    auto record = [&](const QString& sql, double ms, const QString& err) {
        auto t = std::make_shared<DbTrace>();
        t->layer = m_layer;
        t->sql = sql;
        t->queryMs = ms;
        t->error = err;
        m_traces << t;
    };
    PgSourceInfo out = info.value_or(PgSourceInfo{});
    if (m_data.srid > 0) out.srid = m_data.srid;
    if (!haveSrid) {
        const Result<int> srid = lookupPostgisSrid(lease.conn(), m_data, record);
        if (!srid) return srid.error();
        out.srid = *srid;
    }
    if (wantColumns && out.columns.isEmpty()) {
        const Result<QStringList> cols = lookupPostgisColumns(lease.conn(), m_data, out.srid, record);
        if (!cols) return cols.error();
        out.columns = *cols;
    }
    pool.setSourceInfo(m_conninfo, m_dataText, out);
    return out;
}

QStringList PostgisFeatureSource::resolveColumns(const QStringList& attributes, const PgSourceInfo& info) const
{
    if (!attributes.contains(QStringLiteral("*"))) return attributes;
    QStringList out;
    for (const QString& c : info.columns)
        if (c != m_data.geometryColumn) out << c;
    return out;
}

QStringList PostgisFeatureSource::fields() const
{
    // No way to report here: a database that cannot say has no fields.
    Result<PgLease> l = lease();
    if (!l) return {};
    const Result<PgSourceInfo> info = sourceInfo(*l, true);
    return info ? resolveColumns({QStringLiteral("*")}, *info) : QStringList();
}

std::optional<Crs> PostgisFeatureSource::nativeCrs() const
{
    int srid = m_data.srid;
    if (srid <= 0) {
        Result<PgLease> l = lease();
        if (l) {
            const Result<PgSourceInfo> info = sourceInfo(*l, false);
            srid = info ? info->srid : 0;
        }
    }
    if (srid <= 0) return std::nullopt;
    return Crs::fromUserInput(QStringLiteral("EPSG:%1").arg(srid)).toOptional();
}

std::optional<Rect> PostgisFeatureSource::extent() const
{
    Result<PgLease> l = lease();
    if (!l) return std::nullopt;
    const Result<PgSourceInfo> info = sourceInfo(*l, false);
    if (!info) return std::nullopt;
    PostgisSelectSpec spec;
    spec.data = m_data;
    spec.srid = info->srid;
    spec.nativeFilter = m_nativeFilter;
    const PostgisStatement st = PostgisStatement::extent(spec);
    auto t = std::make_shared<DbTrace>();
    t->layer = m_layer;
    t->sql = st.sql;
    t->params = st.params;
    Stopwatch clock;
    const PgResult result = execText(l->conn(), st.sql, st.params);
    t->queryMs = clock.elapsedMs();
    m_traces << t;
    PGresult* r = result.get();
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        t->error = pgErrorMessage(l->conn(), r);
        return std::nullopt;
    }
    t->rows = PQntuples(r);
    if (PQntuples(r) != 1 || PQnfields(r) != 4 || PQgetisnull(r, 0, 0)) return std::nullopt;
    double v[4];
    for (int i = 0; i < 4; ++i) {
        bool ok = false;
        v[i] = QByteArray(PQgetvalue(r, 0, i)).toDouble(&ok);
        if (!ok) return std::nullopt;
    }
    return Rect{v[0], v[1], v[2], v[3]};
}

Result<PostgisStatement> PostgisFeatureSource::statement(const QStringList& columns, const Rect& bbox, int limit)
{
    Result<PgLease> l = lease();
    if (!l) return l.error();
    const Result<PgSourceInfo> info = sourceInfo(*l, columns.contains(QStringLiteral("*")));
    if (!info) return info.error();
    PostgisSelectSpec spec;
    spec.data = m_data;
    spec.columns = resolveColumns(columns, *info);
    spec.bbox = bbox;
    spec.srid = info->srid;
    spec.nativeFilter = m_nativeFilter;
    spec.conditions = m_conditions;
    spec.limit = limit;
    return PostgisStatement::select(spec);
}

std::shared_ptr<DbTrace> PostgisFeatureSource::newTrace() const
{
    auto t = std::make_shared<DbTrace>();
    t->layer = m_layer;
    return t;
}

Result<std::unique_ptr<PgRowStream>> PostgisFeatureSource::run(const std::shared_ptr<DbTrace>& trace, const CancelToken& cancel,
                                                               const std::function<Result<PostgisStatement>(PgLease&)>& build)
{
    DbTrace& t = *trace;
    // Listed after the metadata round trips `build` may make.
    auto failWith = [&](const QString& message) -> Error {
        t.error = message;
        m_traces << trace;
        return Error(message);
    };
    // A pooled connection can be dead (server restarted): retry once on a fresh one.
    for (int attempt = 0;; ++attempt) {
        Result<PgLease> leased = lease();
        if (!leased) return failWith(leased.message());
        PgLease& l = *leased;
        t.poolWaitMs += l.waitMs();
        t.connectMs += l.connectMs();
        t.newConnection = t.newConnection || l.isNew();
        const Result<PostgisStatement> st = build(l);
        if (!st) {
            if (attempt == 0 && !l.isNew() && connectionLost(l)) { l.discard(); continue; }
            return failWith(st.message());
        }
        t.sql = st->sql;
        if (t.params.isEmpty()) t.params = st->params;
        const bool fresh = l.isNew();
        Stopwatch clock;
        auto stream = std::make_unique<PgRowStream>(std::move(l), cancel);
        const bool started = stream->start(*st);
        t.queryMs += clock.elapsedMs();
        t.prepared = stream->prepared();
        if (!started) {
            // Twice at most: a dead pooled connection, then a pooler found out.
            if (attempt < 2 && stream->retryable() && (!fresh || stream->stoppedPreparing())) continue;
            return failWith(stream->error());
        }
        m_traces << trace;
        return stream;
    }
}

Result<PostgisSelectSpec> PostgisFeatureSource::selectSpec(PgLease& lease, const FeatureQuery& q, PgSourceInfo* infoOut) const
{
    const Result<PgSourceInfo> looked = sourceInfo(lease, q.attributes.contains(QStringLiteral("*")));
    if (!looked) return looked.error();
    const PgSourceInfo& info = *looked;
    if (infoOut) *infoOut = info;
    PostgisSelectSpec spec;
    spec.data = m_data;
    spec.columns = resolveColumns(q.attributes, info);
    spec.bbox = q.bbox;
    spec.srid = info.srid;
    spec.nativeFilter = m_nativeFilter;
    spec.conditions = m_conditions;
    spec.limit = q.maxFeatures;
    spec.uniqueKey = q.sourceIds;
    return spec;
}

Result<PgTableVersion> PostgisFeatureSource::tableVersion(PgLease& lease, PgSourceInfo info) const
{
    if (info.table) return *info.table;
    auto t = newTrace();
    m_traces << t;
    const Result<PgTableVersion> table = lookupPostgisTable(lease.conn(), m_data, [&](const QString& sql, double ms, const QString& err) {
        t->sql = sql;
        t->queryMs = ms;
        t->error = err;
    });
    if (!table) return table.error();
    info.table = *table;
    m_pool->setSourceInfo(m_conninfo, m_dataText, info);
    return *table;
}

void PostgisFeatureSource::forgetTableVersion() const
{
    std::optional<PgSourceInfo> info = m_pool->sourceInfo(m_conninfo, m_dataText);
    if (!info) return;
    info->table.reset();
    m_pool->setSourceInfo(m_conninfo, m_dataText, *info);
}

Result<std::unique_ptr<FeatureCursor>> PostgisFeatureSource::query(const FeatureQuery& q)
{
    // The cache holds drawn rows: a query that needs the source's own keys
    // (GetFeatureInfo) or feature styles reads the table as MapServer does.
    if (!m_rowCache || q.sourceIds || q.featureStyle) return queryRows(q);
    if (std::unique_ptr<FeatureCursor> whole = queryWholeTable(q)) return whole;

    enum class Mode { Plain, Ids, Fill } mode = Mode::Plain;
    PostgisSelectSpec spec;
    std::shared_ptr<PgRowCacheScope> scope;
    PgRowCacheSnapshotPtr snapshot;
    quint32 file = 0;
    auto t = newTrace();
    Result<std::unique_ptr<PgRowStream>> stream = run(t, q.cancel, [&](PgLease& l) -> Result<PostgisStatement> {
        PgSourceInfo info;
        Result<PostgisSelectSpec> specified = selectSpec(l, q, &info);
        if (!specified) return specified.error();
        spec = std::move(*specified);
        const Result<PgTableVersion> table = tableVersion(l, info);
        if (!table) return table.error();
        if (!table->cacheable()) {
            mode = Mode::Plain;
            return PostgisStatement::select(spec);
        }
        scope = m_rowCache->scope(m_conninfo, PostgisStatement::rowsByTupleId(spec).sql);
        file = table->file;
        spec.guard = PostgisStatement::tableVersionGuard(table->oid, table->file);
        snapshot = scope->snapshot();
        // Asking for tuple ids first pays when most rows are here; a draw
        // elsewhere reads its rows in full and keeps them.
        if (snapshot && snapshot->tableFile() == file && snapshot->rows() > 0 && scope->missRatio() <= 0.5) {
            mode = Mode::Ids;
            return PostgisStatement::tupleIds(spec);
        }
        mode = Mode::Fill;
        spec.tupleIds = true;
        return PostgisStatement::select(spec);
    });
    if (!stream) return stream.error();

    std::unique_ptr<FeatureCursor> guarded;
    if (mode == Mode::Plain) {
        auto cursor = std::make_unique<PostgisCursor>(std::move(*stream), spec.columns, false, t, q.whileWaiting);
        cursor->setLocalServer(m_local);
        return std::unique_ptr<FeatureCursor>(std::move(cursor));
    }
    if (mode == Mode::Fill) {
        auto cursor = std::make_unique<PostgisCursor>(std::move(*stream), spec.columns, false, t, q.whileWaiting);
        cursor->setLocalServer(m_local);
        cursor->keepRowsIn(scope, file);
        guarded = std::move(cursor);
    } else {
        PostgisCachedRead read;
        read.ids = std::move(*stream);
        read.scope = scope;
        read.snapshot = snapshot;
        read.fields = spec.columns;
        spec.tupleIds = true;
        read.fetch = PostgisStatement::rowsByTupleId(spec);
        read.trace = t;
        read.run = [this, cancel = q.cancel](const PostgisStatement& st, const std::shared_ptr<DbTrace>& ft) {
            return run(ft, cancel, [&](PgLease&) -> Result<PostgisStatement> { return st; });
        };
        read.whileWaiting = q.whileWaiting;
        read.cancel = q.cancel;
        guarded = std::make_unique<PostgisCachedCursor>(std::move(read));
    }
    return std::unique_ptr<FeatureCursor>(std::make_unique<PostgisFallbackCursor>(
        std::move(guarded), [t] { return t->rows; }, [this, q] { return queryRows(q); },
        [this] { forgetTableVersion(); }));
}

std::unique_ptr<FeatureCursor> PostgisFeatureSource::queryWholeTable(const FeatureQuery& q)
{
    // Unpooled, the snapshot's round trip would cost a connection of its own.
    if (m_rowCache->wholeTableBytes() == 0 || !m_pooled) return nullptr;
    Result<PgLease> leased = lease();
    if (!leased) return nullptr;
    PgLease& l = *leased;
    PgSourceInfo info;
    const Result<PostgisSelectSpec> spec = selectSpec(l, q, &info);
    if (!spec || !PostgisStatement::onlyBoxRestricts(*spec)) return nullptr;
    const Result<PgTableVersion> table = tableVersion(l, info);
    // pg_table_size bounds the rows' bytes only loosely (columns not
    // drawn, page overhead): twice the limit is worth a try.
    if (!table || !table->cacheable() || !table->keepableWhole || table->tableBytes / 2 > qint64(m_rowCache->wholeTableBytes()))
        return nullptr;
    const std::shared_ptr<PgRowCacheScope> scope = m_rowCache->scope(m_conninfo, PostgisStatement::rowsByTupleId(*spec).sql);

    auto checked = newTrace();  // the snapshot that finds the table current; the draw's rows are counted in it
    checked->sql = QString::fromLatin1(PostgisStatement::kCurrentSnapshot);
    checked->poolWaitMs = l.waitMs();
    checked->connectMs = l.connectMs();
    checked->newConnection = l.isNew();
    PgWholeTablePtr whole = scope->wholeTable();
    if (!whole) {
        // A layer drawn before reads its table whole; a one-off draw does not.
        if (!scope->snapshot() || !scope->beginWholeRead()) return nullptr;
        l.release();  // the read leases its own (a pool of one has no other)
        whole = readWholeTable(*spec, *table, *scope, q.cancel, *checked);
        if (!whole) return nullptr;
        m_traces << checked;
        return std::make_unique<PostgisWholeTableCursor>(std::move(whole), q.bbox, spec->columns, checked);
    }
    Stopwatch clock;
    const Result<QByteArray> current = pgCurrentSnapshot(l.conn());
    checked->queryMs = clock.elapsedMs();
    m_traces << checked;
    if (!current && connectionLost(l)) {
        checked->error = current.message();
        l.discard();
        return nullptr;
    }
    if (!current || *current != whole->dbSnapshot()) {
        checked->error = current ? QString() : current.message();
        scope->dropWhole(whole.get());
        return nullptr;
    }
    return std::make_unique<PostgisWholeTableCursor>(std::move(whole), q.bbox, spec->columns, checked);
}

PgWholeTablePtr PostgisFeatureSource::readWholeTable(const PostgisSelectSpec& spec, const PgTableVersion& table,
                                                     PgRowCacheScope& scope, const CancelToken& cancel, DbTrace& checked)
{
    PostgisSelectSpec all = spec;
    all.guard = PostgisStatement::tableVersionGuard(table.oid, table.file);
    PostgisWholeTableRead read;
    read.statement = PostgisStatement::wholeTable(all);
    read.fields = int(spec.columns.size());
    read.file = table.file;
    read.maxBytes = m_rowCache->wholeTableBytes();
    read.lease = [this] { return lease(); };
    read.cancel = cancel;
    auto t = newTrace();
    t->sql = read.statement.sql;
    Stopwatch clock;
    const PostgisWholeTableResult result = readPostgisWholeTable(read, scope);
    t->queryMs = clock.elapsedMs() - result.lastSnapshotMs;
    t->rows = result.rows;
    t->bytes = result.bytes;
    t->error = result.error;
    m_traces << t;
    if (result.noRows) forgetTableVersion();
    checked.queryMs = result.lastSnapshotMs;
    return result.table;
}

Result<std::unique_ptr<FeatureCursor>> PostgisFeatureSource::queryRows(const FeatureQuery& q)
{
    PostgisSelectSpec spec;
    auto t = newTrace();
    Result<std::unique_ptr<PgRowStream>> stream = run(t, q.cancel, [&](PgLease& l) -> Result<PostgisStatement> {
        Result<PostgisSelectSpec> specified = selectSpec(l, q);
        if (!specified) return specified.error();
        spec = std::move(*specified);
        return PostgisStatement::select(spec);
    });
    if (!stream) return stream.error();
    auto cursor = std::make_unique<PostgisCursor>(std::move(*stream), spec.columns,
                                                  spec.uniqueKey && !m_data.uniqueColumn.isEmpty(), t, q.whileWaiting);
    cursor->setLocalServer(m_local);
    return std::unique_ptr<FeatureCursor>(std::move(cursor));
}

QList<DbTrace> PostgisFeatureSource::takeDbTraces()
{
    QList<DbTrace> out;
    for (const auto& t : std::as_const(m_traces)) out << *t;
    m_traces.clear();
    return out;
}

}  // namespace maptune
