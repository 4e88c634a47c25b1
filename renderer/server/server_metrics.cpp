#include "server/server_metrics.h"

#include "data/postgis/pg_connection_pool.h"

#include <gdal.h>

namespace maptune {

namespace {

QByteArray label(const QString& value)
{
    QByteArray v = value.toUtf8();
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
    return '"' + v + '"';
}

QByteArray number(double v)
{
    return QByteArray::number(v, 'g', 10);
}

void header(QByteArray& out, const char* name, const char* type, const char* help)
{
    out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n';
}

}  // namespace

QString ServerMetrics::requestType(const QString& requestParam)
{
    static const char* known[] = {"GetCapabilities", "GetMap", "GetFeatureInfo", "GetLegendGraphic",
                                  "DescribeLayer", "GetStyles"};
    for (const char* k : known)
        if (requestParam.compare(QLatin1String(k), Qt::CaseInsensitive) == 0) return QString::fromLatin1(k);
    if (requestParam.compare(QLatin1String("map"), Qt::CaseInsensitive) == 0) return QStringLiteral("GetMap");
    if (requestParam.compare(QLatin1String("capabilities"), Qt::CaseInsensitive) == 0) return QStringLiteral("GetCapabilities");
    if (requestParam.compare(QLatin1String("feature_info"), Qt::CaseInsensitive) == 0) return QStringLiteral("GetFeatureInfo");
    return QStringLiteral("other");
}

void ServerMetrics::Histogram::observe(double seconds)
{
    for (size_t i = 0; i < latencyBuckets.size(); ++i)
        if (seconds <= latencyBuckets[i]) buckets[i]++;
    count++;
    sum += seconds;
}

void ServerMetrics::requestFinished(const QString& map, const QString& type, int status, double seconds)
{
    std::lock_guard lock(m_mutex);
    m_requests[{map, type, status}]++;
    m_latency[{map, type}].observe(seconds);
}

void ServerMetrics::traceFinished(const QString& map, const Trace& trace)
{
    std::lock_guard lock(m_mutex);
    for (const LayerTrace& lt : trace.layers) {
        if (lt.skipped) continue;
        LayerTimes& t = m_layers[{map, lt.layer}];
        t.total.observe(lt.totalMs / 1000);
        t.openS += lt.openMs / 1000;
        t.readS += lt.readMs / 1000;
        t.drawS += lt.drawMs / 1000;
        t.lutS += lt.lutMs / 1000;
        t.labelS += lt.labelMs / 1000;
        t.computeS += lt.computeMs / 1000;
        if (!lt.computePhase.isEmpty()) t.computePhase = lt.computePhase;
        t.features += quint64(std::max<qint64>(0, lt.features));
        t.labelsTried += quint64(std::max<qint64>(0, lt.labelsTried));
        t.labelsPlaced += quint64(std::max<qint64>(0, lt.labelsPlaced));
        t.pixels += quint64(std::max<qint64>(0, lt.pixels));
        if (!lt.error.isEmpty()) t.errors++;
        for (const DbTrace& db : lt.db) {
            DbTimes& d = m_db[{map, lt.layer}];
            d.poolWaitS += db.poolWaitMs / 1000;
            d.connectS += db.connectMs / 1000;
            d.queryS += db.queryMs / 1000;
            d.fetchS += db.fetchMs / 1000;
            d.calls++;
            d.rows += quint64(std::max<qint64>(0, db.rows));
            d.bytes += quint64(std::max<qint64>(0, db.bytes));
            if (!db.error.isEmpty()) d.errors++;
        }
    }
    m_encode[map].observe(trace.encodeMs / 1000);
}

namespace {

void writeHistogram(QByteArray& out, const char* name, const QByteArray& labels, const auto& h)
{
    const QByteArray prefix = labels.isEmpty() ? QByteArray() : labels + ',';
    for (size_t i = 0; i < ServerMetrics::latencyBuckets.size(); ++i)
        out += name + QByteArray("_bucket{") + prefix + "le=\"" + number(ServerMetrics::latencyBuckets[i]) + "\"} "
               + QByteArray::number(h.buckets[i]) + '\n';
    out += name + QByteArray("_bucket{") + prefix + "le=\"+Inf\"} " + QByteArray::number(h.count) + '\n';
    out += name + QByteArray("_sum{") + labels + "} " + number(h.sum) + '\n';
    out += name + QByteArray("_count{") + labels + "} " + QByteArray::number(h.count) + '\n';
}

void writePool(QByteArray& out, const PgConnectionPool& pool)
{
    const PgPoolStats s = pool.stats();
    header(out, "maptune_pg_pool_connections", "gauge", "PostgreSQL pool connections by state.");
    out += "maptune_pg_pool_connections{state=\"open\"} " + QByteArray::number(s.open) + '\n';
    out += "maptune_pg_pool_connections{state=\"idle\"} " + QByteArray::number(s.idle) + '\n';
    out += "maptune_pg_pool_connections{state=\"in_use\"} " + QByteArray::number(s.inUse) + '\n';
    header(out, "maptune_pg_pool_waits_total", "counter", "Acquires that waited for a free connection.");
    out += "maptune_pg_pool_waits_total " + QByteArray::number(s.waits) + '\n';
    header(out, "maptune_pg_pool_timeouts_total", "counter", "Acquires that gave up waiting.");
    out += "maptune_pg_pool_timeouts_total " + QByteArray::number(s.timeouts) + '\n';
    header(out, "maptune_pg_pool_connects_total", "counter", "Connections opened.");
    out += "maptune_pg_pool_connects_total " + QByteArray::number(s.connects) + '\n';
    header(out, "maptune_pg_pool_reuses_total", "counter", "Acquires served by an idle connection.");
    out += "maptune_pg_pool_reuses_total " + QByteArray::number(s.reuses) + '\n';
}

// GDAL's block cache is one per process, shared by every map and worker:
// under raster load it is most of the server's memory.
void writeGdalCache(QByteArray& out)
{
    header(out, "maptune_gdal_cache_bytes", "gauge", "GDAL raster block cache: bytes in use.");
    out += "maptune_gdal_cache_bytes " + QByteArray::number(qint64(GDALGetCacheUsed64())) + '\n';
    header(out, "maptune_gdal_cache_max_bytes", "gauge", "GDAL raster block cache: its limit (serve --gdal-cache-mb).");
    out += "maptune_gdal_cache_max_bytes " + QByteArray::number(qint64(GDALGetCacheMax64())) + '\n';
}

void writeRegistry(QByteArray& out, const MapRegistry& registry)
{
    const QList<MapStatus> maps = registry.status();
    header(out, "maptune_map_generation", "gauge", "Version of the served map (1 at start, +1 per reload).");
    for (const MapStatus& m : maps) out += "maptune_map_generation{map=" + label(m.name) + "} " + QByteArray::number(m.generation) + '\n';
    header(out, "maptune_map_reloads_total", "counter", "Mapfile reloads by result.");
    for (const MapStatus& m : maps) {
        out += "maptune_map_reloads_total{map=" + label(m.name) + ",result=\"ok\"} " + QByteArray::number(m.reloads) + '\n';
        out += "maptune_map_reloads_total{map=" + label(m.name) + ",result=\"error\"} " + QByteArray::number(m.reloadFailures) + '\n';
    }
    header(out, "maptune_map_reload_error", "gauge", "1 while the newest edit of the mapfile does not load (the last good version is served).");
    for (const MapStatus& m : maps)
        out += "maptune_map_reload_error{map=" + label(m.name) + "} " + (m.lastError.isEmpty() ? "0" : "1") + '\n';
}

}  // namespace

QByteArray ServerMetrics::prometheusText(const MapRegistry* registry) const
{
    QByteArray out;
    std::lock_guard lock(m_mutex);
    header(out, "maptune_requests_total", "counter", "WMS requests by map, request type and HTTP status.");
    for (const auto& [key, count] : m_requests) {
        const auto& [map, type, status] = key;
        out += "maptune_requests_total{map=" + label(map) + ",request=" + label(type) + ",status=\""
               + QByteArray::number(status) + "\"} " + QByteArray::number(count) + '\n';
    }
    header(out, "maptune_request_duration_seconds", "histogram", "WMS request latency, queueing included.");
    for (const auto& [key, h] : m_latency)
        writeHistogram(out, "maptune_request_duration_seconds", "map=" + label(key.first) + ",request=" + label(key.second), h);
    header(out, "maptune_layer_render_seconds", "histogram", "Time to render one layer of a GetMap.");
    for (const auto& [key, t] : m_layers)
        writeHistogram(out, "maptune_layer_render_seconds", "map=" + label(key.first) + ",layer=" + label(key.second), t.total);
    header(out, "maptune_layer_phase_seconds_total", "counter", "Layer render time by phase (open, read, draw, lut, label; density, idw or contour where the layer computes one).");
    for (const auto& [key, t] : m_layers) {
        const QByteArray l = "map=" + label(key.first) + ",layer=" + label(key.second);
        const std::pair<const char*, double> phases[] = {{"open", t.openS}, {"read", t.readS}, {"draw", t.drawS}, {"lut", t.lutS}, {"label", t.labelS}};
        for (const auto& [phase, s] : phases)
            out += "maptune_layer_phase_seconds_total{" + l + ",phase=\"" + phase + "\"} " + number(s) + '\n';
        if (!t.computePhase.isEmpty())
            out += "maptune_layer_phase_seconds_total{" + l + ",phase=" + label(t.computePhase) + "} " + number(t.computeS) + '\n';
    }
    header(out, "maptune_layer_labels_total", "counter", "Label placements per layer: tried by the label cache, and placed.");
    for (const auto& [key, t] : m_layers) {
        const QByteArray l = "map=" + label(key.first) + ",layer=" + label(key.second);
        out += "maptune_layer_labels_total{" + l + ",result=\"tried\"} " + QByteArray::number(t.labelsTried) + '\n';
        out += "maptune_layer_labels_total{" + l + ",result=\"placed\"} " + QByteArray::number(t.labelsPlaced) + '\n';
    }
    header(out, "maptune_layer_features_total", "counter", "Features drawn per layer.");
    for (const auto& [key, t] : m_layers)
        out += "maptune_layer_features_total{map=" + label(key.first) + ",layer=" + label(key.second) + "} " + QByteArray::number(t.features) + '\n';
    header(out, "maptune_layer_errors_total", "counter", "Layer renders that failed (the others still drew).");
    for (const auto& [key, t] : m_layers)
        out += "maptune_layer_errors_total{map=" + label(key.first) + ",layer=" + label(key.second) + "} " + QByteArray::number(t.errors) + '\n';
    header(out, "maptune_db_seconds_total", "counter", "Database time per layer by phase (pool_wait, connect, query, fetch).");
    for (const auto& [key, d] : m_db) {
        const QByteArray l = "map=" + label(key.first) + ",layer=" + label(key.second);
        const std::pair<const char*, double> phases[] = {{"pool_wait", d.poolWaitS}, {"connect", d.connectS}, {"query", d.queryS}, {"fetch", d.fetchS}};
        for (const auto& [phase, s] : phases)
            out += "maptune_db_seconds_total{" + l + ",phase=\"" + phase + "\"} " + number(s) + '\n';
    }
    header(out, "maptune_db_calls_total", "counter", "Database calls per layer.");
    for (const auto& [key, d] : m_db)
        out += "maptune_db_calls_total{map=" + label(key.first) + ",layer=" + label(key.second) + "} " + QByteArray::number(d.calls) + '\n';
    header(out, "maptune_db_rows_total", "counter", "Rows fetched per layer.");
    for (const auto& [key, d] : m_db)
        out += "maptune_db_rows_total{map=" + label(key.first) + ",layer=" + label(key.second) + "} " + QByteArray::number(d.rows) + '\n';
    header(out, "maptune_encode_seconds", "histogram", "Image encoding time per GetMap.");
    for (const auto& [map, h] : m_encode) writeHistogram(out, "maptune_encode_seconds", "map=" + label(map), h);
    header(out, "maptune_requests_in_flight", "gauge", "WMS requests admitted and not yet answered.");
    out += "maptune_requests_in_flight " + QByteArray::number(m_inFlight.load()) + '\n';
    header(out, "maptune_overload_rejections_total", "counter", "Requests answered 503 because the queue was full.");
    out += "maptune_overload_rejections_total " + QByteArray::number(m_overloads.load()) + '\n';
    header(out, "maptune_time_limit_exceeded_total", "counter", "Requests cancelled by the per-request time limit.");
    out += "maptune_time_limit_exceeded_total " + QByteArray::number(m_timeouts.load()) + '\n';
    if (registry) {
        writePool(out, registry->context().pgPool());
        writeRegistry(out, *registry);
        writeGdalCache(out);
    }
    return out;
}

}  // namespace maptune
