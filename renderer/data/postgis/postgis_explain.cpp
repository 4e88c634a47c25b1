#include "data/postgis/postgis_explain.h"

#include "data/postgis/pg_result.h"
#include "expr/feature_classifier.h"
#include "geo/coordinate_transform.h"
#include "geo/crs.h"
#include "data/postgis/postgis_feature_source.h"

#include <libpq-fe.h>

namespace maptune {

bool planUsesIndex(const QString& plan)
{
    return plan.contains(QLatin1String("Index Scan")) || plan.contains(QLatin1String("Index Only Scan"));
}

namespace {

// The SRID the database has for the geometry, or 0 when it cannot tell.
int columnSrid(PGconn* conn, const PostgisDataDef& data)
{
    PgResult r = data.isSubselect() || data.hasBoxToken()
                     ? PgResult()
                     : execText(conn, QStringLiteral("SELECT Find_SRID(COALESCE(NULLIF($1,''),current_schema())::varchar,$2,$3)"),
                                {data.schema, data.table, data.geometryColumn});
    if (r && PQresultStatus(r.get()) == PGRES_TUPLES_OK && PQntuples(r.get()) == 1) return QByteArray(PQgetvalue(r.get(), 0, 0)).toInt();
    if (data.hasBoxToken()) return 0;
    r = execText(conn, QStringLiteral("SELECT ST_SRID(%1) FROM %2 WHERE %1 IS NOT NULL LIMIT 1").arg(data.quotedGeometry(), data.fromClause()));
    if (PQresultStatus(r.get()) == PGRES_TUPLES_OK && PQntuples(r.get()) == 1) return QByteArray(PQgetvalue(r.get(), 0, 0)).toInt();
    return 0;
}

}  // namespace

PostgisExplain explainPostgisLayer(const LayerDef& layer, const QStringList& attributes, const Rect& bbox)
{
    PostgisExplain out;
    // One-off, like `check`: its connection closes with its own pool.
    auto opened = PostgisFeatureSource::open(layer, std::make_shared<PgConnectionPool>());
    if (!opened) {
        out.error = opened.message();
        return out;
    }
    const std::unique_ptr<PostgisFeatureSource> source = std::move(opened).value();
    const auto st = source->statement(attributes, bbox, layer.maxFeatures);
    if (!st) {
        out.error = st.message();
        return out;
    }
    out.sql = st->sql;
    out.params = st->params;
    auto leased = source->lease();
    if (!leased) {
        out.error = leased.message();
        return out;
    }
    PgLease lease = std::move(leased).value();
    PgResult r = execText(lease.conn(), QLatin1String("EXPLAIN (ANALYZE, BUFFERS) ") + st->sql, st->params);
    if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) {
        out.error = pgErrorMessage(lease.conn(), r.get());
        return out;
    }
    QStringList lines;
    for (int i = 0; i < PQntuples(r.get()); ++i) lines << QString::fromUtf8(PQgetvalue(r.get(), i, 0));
    out.plan = lines.join(QLatin1Char('\n'));

    const PostgisDataDef& data = source->data();
    if (out.plan.contains(QLatin1String("Seq Scan")) && !planUsesIndex(out.plan)) {
        out.warnings << QStringLiteral("no spatial index used: the plan reads the table sequentially (Seq Scan). "
                                       "If the table is large, create one: CREATE INDEX ON %1 USING GIST (%2); then ANALYZE.")
                            .arg(data.isSubselect() ? QStringLiteral("<table>") : data.fromClause(), data.quotedGeometry());
    }
    if (data.srid > 0) {
        const int actual = columnSrid(lease.conn(), data);
        if (actual > 0 && actual != data.srid)
            out.warnings << QStringLiteral("SRID mismatch: the column %1 has SRID %2 but DATA says 'using srid=%3'; "
                                           "the bbox filter compares different coordinate systems (fix 'using srid' or transform the column)")
                                .arg(data.quotedGeometry())
                                .arg(actual)
                                .arg(data.srid);
    }
    return out;
}

PostgisExplain explainPostgisView(const MapDef& map, const LayerDef& layer, const Rect& mapBox)
{
    Rect box = mapBox;
    if (map.projection.isSet() && layer.projection.isSet() && !layer.projection.isAuto()) {
        const Result<Crs> from = Crs::fromProjection(map.projection);
        const Result<Crs> to = Crs::fromProjection(layer.projection);
        if (!from || !to) return {{}, {}, {}, {}, QStringLiteral("PROJECTION: ") + (from ? to.message() : from.message())};
        if (!(*from == *to)) {
            QString error;
            const auto t = CoordinateTransform::forThread(*from, *to);
            if (!t.ok(&error)) return {{}, {}, {}, {}, error};
            box = (*t)->transformBounds(box);
        }
    }
    FeatureClassifier classifier;
    if (const Status compiled = classifier.compile(layer); !compiled) return {{}, {}, {}, {}, compiled.message()};
    return explainPostgisLayer(layer, classifier.attributes(), box);
}

}  // namespace maptune
