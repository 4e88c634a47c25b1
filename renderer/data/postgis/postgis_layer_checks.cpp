#include "data/postgis/postgis_layer_checks.h"

#include "data/postgis/pg_result.h"
#include "data/postgis/postgis_feature_source.h"
#include "mapfile/diagnostic.h"

#include <libpq-fe.h>

namespace maptune {

namespace {

QString diagnostic(const LayerDef& layer, Diagnostic::Severity severity, const QString& message)
{
    Diagnostic d;
    d.severity = severity;
    d.pos = layer.pos;
    d.message = QStringLiteral("layer '%1': %2").arg(layer.name, message);
    return d.toString();
}

}  // namespace

QStringList postgisLayerWarnings(const MapDef& map, const LayerDef& layer)
{
    Q_UNUSED(map);
    if (layer.connectionType != ConnectionType::PostGIS) return {};
    // A check is one-off: its connection closes with its own pool.
    auto source = PostgisFeatureSource::open(layer, std::make_shared<PgConnectionPool>());
    if (!source) return {diagnostic(layer, Diagnostic::Severity::Warning, source.message())};
    const PostgisDataDef& data = (*source)->data();
    if (data.isSubselect()) return {};  // the index question belongs to the tables inside
    auto leased = (*source)->lease();
    if (!leased)
        return {diagnostic(layer, Diagnostic::Severity::Note, QStringLiteral("index not checked: %1").arg(leased.message()))};
    PgLease lease = std::move(leased).value();

    const QString table = data.fromClause();
    PgResult r = execText(lease.conn(), QStringLiteral(
        "SELECT to_regclass($1) IS NOT NULL, EXISTS (SELECT 1 FROM pg_index x"
        " JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_am am ON am.oid = ic.relam"
        " JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = ANY(x.indkey)"
        " WHERE x.indrelid = to_regclass($1) AND am.amname IN ('gist','spgist','brin') AND a.attname = $2)"),
        {table, data.geometryColumn});
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK)
        return {diagnostic(layer, Diagnostic::Severity::Note, QStringLiteral("index not checked: %1").arg(pgErrorMessage(lease.conn(), r.get())))};
    if (QByteArray(PQgetvalue(r.get(), 0, 0)) != "t")
        return {diagnostic(layer, Diagnostic::Severity::Warning, QStringLiteral("table %1 does not exist in the database").arg(table))};
    if (QByteArray(PQgetvalue(r.get(), 0, 1)) != "t")
        return {diagnostic(layer, Diagnostic::Severity::Warning,
                           QStringLiteral("no GiST index on %1.%2: every draw reads the whole table; "
                                          "CREATE INDEX ON %1 USING GIST (%2); then ANALYZE %1;")
                               .arg(table, data.quotedGeometry()))};
    return {};
}

}  // namespace maptune
