#include "data/postgis/postgis_feature_source.h"

#include "data/postgis/pg_conninfo.h"
#include "data/postgis/pg_result.h"
#include "data/postgis/pg_row_stream.h"
#include "data/postgis/postgis_metadata.h"
#include "data/repeated_values.h"
#include "mapfile/processing.h"

#include <libpq-fe.h>

#include <charconv>
#include <chrono>

namespace maptune {

namespace {

// `using unique` as text; a key that is not an integer numbers the row instead.
qint64 uniqueId(const char* text, int length, qint64 row)
{
    qint64 id = 0;
    const auto [end, ec] = std::from_chars(text, text + length, id);
    return ec == std::errc() && end == text + length ? id : row;
}

// Rows of one streamed statement, decoded as they arrive. Adds the time the
// renderer spends waiting for and decoding rows, and their count and bytes,
// to the layer's DbTrace as it pulls them; the whileWaiting work done inside
// a wait is not fetch time.
//
// Every wait for the server is timed (the stream does), but the decoding of
// only one row in kSampleEvery, scaled to all rows: two clock reads per row
// were 2 % of a loaded PostGIS server's CPU, and rows decode alike.
class PostgisCursor : public FeatureCursor {
public:
    using Clock = std::chrono::steady_clock;

    PostgisCursor(std::unique_ptr<PgRowStream> stream, QStringList fields, bool hasUid, std::shared_ptr<DbTrace> trace,
                  std::function<bool()> whileWaiting)
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
    const QStringList& fields() const override { return m_fields; }
    QString error() const override { return m_stream->error().isEmpty() ? m_error : m_stream->error(); }

    bool next(Feature& f) override
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
        return ok;
    }

private:
    bool advance(Feature& f)
    {
        const int nFields = int(m_fields.size());
        const int geomCol = nFields;
        while (const PGresult* r = m_stream->nextRow()) {
            const qint64 row = m_trace->rows++;
            if (PQgetisnull(r, 0, geomCol)) continue;
            const int len = PQgetlength(r, 0, geomCol);
            m_trace->bytes += len;
            const Status decoded =
                decodeWkb(reinterpret_cast<const unsigned char*>(PQgetvalue(r, 0, geomCol)), size_t(len), f.geometry);
            if (!decoded) {
                m_error = QStringLiteral("row %1: bad WKB from PostGIS: %2").arg(row).arg(decoded.message());
                return false;
            }
            if (f.geometry.isEmpty()) continue;
            f.values.resize(nFields);
            for (int i = 0; i < nFields; ++i) {
                const int n = PQgetlength(r, 0, i);
                m_trace->bytes += n;
                f.values[i] = PQgetisnull(r, 0, i) ? QString()
                                                   : m_values.value(i, QByteArrayView(PQgetvalue(r, 0, i), n),
                                                                    [](QByteArrayView raw) { return QString::fromUtf8(raw); });
            }
            f.id = m_hasUid ? uniqueId(PQgetvalue(r, 0, geomCol + 1), PQgetlength(r, 0, geomCol + 1), row) : row;
            return true;
        }
        return false;
    }

    std::unique_ptr<PgRowStream> m_stream;
    QStringList m_fields;
    RepeatedValues m_values{int(m_fields.size())};
    bool m_hasUid;
    std::shared_ptr<DbTrace> m_trace;
    std::function<bool()> m_whileWaiting;
    static constexpr quint64 kSampleEvery = 8;
    quint64 m_calls = 0, m_samples = 0;
    Clock::duration m_decoded{0};  // in the sampled calls, waits excluded
    Clock::duration m_worked{0};   // whileWaiting work inside the waits
    QString m_error;
};

bool connectionLost(const PgLease& lease)
{
    return lease && PQstatus(lease.conn()) == CONNECTION_BAD;
}

}  // namespace

Result<std::unique_ptr<PostgisFeatureSource>> PostgisFeatureSource::open(const LayerDef& layer,
                                                                         std::shared_ptr<PgConnectionPool> pool)
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
    std::unique_ptr<PostgisFeatureSource> src(new PostgisFeatureSource);
    src->m_layer = layer.name;
    src->m_conninfo = layer.connection;
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

Result<std::unique_ptr<FeatureCursor>> PostgisFeatureSource::query(const FeatureQuery& q)
{
    auto t = std::make_shared<DbTrace>();
    t->layer = m_layer;
    auto failWith = [&](const QString& message) -> Error {
        t->error = message;
        m_traces << t;
        return Error(message);
    };
    const bool wantAll = q.attributes.contains(QStringLiteral("*"));
    // A pooled connection can be dead (server restarted): retry once on a fresh one.
    for (int attempt = 0;; ++attempt) {
        Result<PgLease> leased = lease();
        if (!leased) return failWith(leased.message());
        PgLease& l = *leased;
        t->poolWaitMs += l.waitMs();
        t->connectMs += l.connectMs();
        t->newConnection = t->newConnection || l.isNew();
        const Result<PgSourceInfo> info = sourceInfo(l, wantAll);
        if (!info) {
            if (attempt == 0 && !l.isNew() && connectionLost(l)) { l.discard(); continue; }
            return failWith(info.message());
        }
        PostgisSelectSpec spec;
        spec.data = m_data;
        spec.columns = resolveColumns(q.attributes, *info);
        spec.bbox = q.bbox;
        spec.srid = info->srid;
        spec.nativeFilter = m_nativeFilter;
        spec.conditions = m_conditions;
        spec.limit = q.maxFeatures;
        spec.uniqueKey = q.sourceIds;
        const Result<PostgisStatement> st = PostgisStatement::select(spec);
        if (!st) return failWith(st.message());
        t->sql = st->sql;
        t->params = st->params;
        const bool fresh = l.isNew();
        Stopwatch clock;
        auto stream = std::make_unique<PgRowStream>(std::move(l), q.cancel);
        const bool started = stream->start(*st);
        t->queryMs += clock.elapsedMs();
        t->prepared = stream->prepared();
        if (!started) {
            // Twice at most: a dead pooled connection, then a pooler found out.
            if (attempt < 2 && stream->retryable() && (!fresh || stream->stoppedPreparing())) continue;
            return failWith(stream->error());
        }
        m_traces << t;
        return std::unique_ptr<FeatureCursor>(
            std::make_unique<PostgisCursor>(std::move(stream), spec.columns, spec.uniqueKey && !m_data.uniqueColumn.isEmpty(), t,
                                            q.whileWaiting));
    }
}

bool PostgisFeatureSource::servedOnThisMachine() const { return pgConnInfoIsLocal(m_conninfo); }

QList<DbTrace> PostgisFeatureSource::takeDbTraces()
{
    QList<DbTrace> out;
    for (const auto& t : std::as_const(m_traces)) out << *t;
    m_traces.clear();
    return out;
}

}  // namespace maptune
