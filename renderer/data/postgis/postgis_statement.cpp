#include "data/postgis/postgis_statement.h"

#include <QLocale>

#include <cmath>

namespace maptune {

namespace {

// A box large enough for any CRS, for !BOX! when the request has no bbox.
constexpr double kWorld = 1.0e30;

QString envelope(int srid)
{
    return srid > 0 ? QStringLiteral("ST_MakeEnvelope($1,$2,$3,$4,%1)").arg(srid)
                    : QStringLiteral("ST_MakeEnvelope($1,$2,$3,$4)");
}

QString number(double v)
{
    return QString::number(v, 'g', QLocale::FloatingPointShortest);  // round-trips exactly
}

QString nativeFilterClause(const QString& filter)
{
    return QLatin1Char('(') + filter.trimmed() + QLatin1Char(')');
}

}  // namespace

PostgisStatement PostgisStatement::extent(const PostgisSelectSpec& spec)
{
    const PostgisDataDef& d = spec.data;
    PostgisStatement st;
    QString from = d.fromClause();
    if (d.hasBoxToken()) {
        from.replace(QLatin1String("!BOX!"), envelope(spec.srid));
        st.params = {number(-kWorld), number(-kWorld), number(kWorld), number(kWorld)};
        st.float8Params = 4;
    }
    QString inner = QStringLiteral("SELECT ST_Extent(%1) AS e FROM %2").arg(d.quotedGeometry(), from);
    if (!spec.nativeFilter.trimmed().isEmpty()) inner += QLatin1String(" WHERE ") + nativeFilterClause(spec.nativeFilter);
    st.sql = QStringLiteral("SELECT ST_XMin(e),ST_YMin(e),ST_XMax(e),ST_YMax(e) FROM (%1) AS maptune_extent").arg(inner);
    return st;
}

namespace {

// What select() and tupleIds() share: the FROM item, the WHERE (bbox,
// NATIVE_FILTER, TIME / dimension conditions, guard) with its parameters, the LIMIT.
Result<PostgisStatement> restricted(const PostgisSelectSpec& spec, const QString& selectList)
{
    const PostgisDataDef& d = spec.data;
    const Rect& b = spec.bbox;
    const bool hasBox = b.isValid();
    if (hasBox && !b.isFinite()) return Error(QStringLiteral("the query box is not finite"));

    PostgisStatement st;
    QString from = d.fromClause();
    QStringList where;
    if (d.hasBoxToken()) {
        // The user placed the box; we bind it and add no predicate of our own.
        from.replace(QLatin1String("!BOX!"), envelope(spec.srid));
        st.params = hasBox ? QStringList{number(b.minx), number(b.miny), number(b.maxx), number(b.maxy)}
                           : QStringList{number(-kWorld), number(-kWorld), number(kWorld), number(kWorld)};
    } else if (hasBox) {
        where << QStringLiteral("%1 && %2").arg(d.quotedGeometry(), envelope(spec.srid));
        st.params = {number(b.minx), number(b.miny), number(b.maxx), number(b.maxy)};
    }
    if (!spec.nativeFilter.trimmed().isEmpty()) where << nativeFilterClause(spec.nativeFilter);
    st.float8Params = int(st.params.size());
    // Each condition: (item = $n OR (item >= $n AND item <= $m) ...), the
    // values bound as text for the server to read as the column's type.
    for (const RequestConditionDef& c : spec.conditions) {
        if (c.ranges.isEmpty()) continue;
        const QString column = quotePgIdentifier(c.item);
        QStringList alternatives;
        for (const auto& [lo, hi] : c.ranges) {
            if (lo == hi) {
                st.params << lo;
                alternatives << QStringLiteral("%1 = $%2").arg(column).arg(st.params.size());
            } else {
                st.params << lo << hi;
                alternatives << QStringLiteral("(%1 >= $%2 AND %1 <= $%3)").arg(column).arg(st.params.size() - 1).arg(st.params.size());
            }
        }
        where << QLatin1Char('(') + alternatives.join(QLatin1String(" OR ")) + QLatin1Char(')');
    }
    if (!spec.guard.isEmpty()) where << spec.guard;

    st.sql = QLatin1String("SELECT ") + selectList + QLatin1String(" FROM ") + from;
    if (!where.isEmpty()) st.sql += QLatin1String(" WHERE ") + where.join(QLatin1String(" AND "));
    if (spec.limit >= 0) st.sql += QStringLiteral(" LIMIT %1").arg(spec.limit);
    return st;
}

QString rowSelectList(const PostgisSelectSpec& spec)
{
    const PostgisDataDef& d = spec.data;
    QStringList select;
    select.reserve(spec.columns.size() + 4);
    for (const QString& c : spec.columns) select << quotePgIdentifier(c) + QLatin1String("::text");
    select << QStringLiteral("ST_AsBinary(%1,'NDR')").arg(d.quotedGeometry());
    if (spec.uniqueKey && !d.uniqueColumn.isEmpty()) select << quotePgIdentifier(d.uniqueColumn) + QLatin1String("::text");
    if (spec.tupleIds) select << QStringLiteral("ctid") << QStringLiteral("xmin");
    return select.join(QLatin1Char(','));
}

}  // namespace

Result<PostgisStatement> PostgisStatement::select(const PostgisSelectSpec& spec)
{
    return restricted(spec, rowSelectList(spec));
}

Result<PostgisStatement> PostgisStatement::tupleIds(const PostgisSelectSpec& spec)
{
    return restricted(spec, QStringLiteral("ctid,xmin"));
}

PostgisStatement PostgisStatement::rowsByTupleId(const PostgisSelectSpec& spec)
{
    PostgisStatement st;
    st.sql = QLatin1String("SELECT ") + rowSelectList(spec) + QLatin1String(" FROM ") + spec.data.fromClause() +
             QLatin1String(" WHERE ctid = ANY($1::tid[])");
    if (!spec.guard.isEmpty()) st.sql += QLatin1String(" AND ") + spec.guard;
    return st;
}

PostgisStatement PostgisStatement::wholeTable(const PostgisSelectSpec& spec)
{
    PostgisSelectSpec all = spec;
    all.tupleIds = true;
    PostgisStatement st;
    st.sql = QLatin1String("SELECT ") + rowSelectList(all) + QLatin1String(" FROM ") + spec.data.fromClause();
    if (!spec.guard.isEmpty()) st.sql += QLatin1String(" WHERE ") + spec.guard;
    return st;
}

bool PostgisStatement::onlyBoxRestricts(const PostgisSelectSpec& spec)
{
    if (spec.data.hasBoxToken() || !spec.nativeFilter.trimmed().isEmpty() || spec.limit >= 0) return false;
    if (spec.bbox.isValid() && !spec.bbox.isFinite()) return false;  // the statement refuses it
    for (const RequestConditionDef& c : spec.conditions)
        if (!c.ranges.isEmpty()) return false;
    return true;
}

QString PostgisStatement::tableVersionGuard(quint32 oid, quint32 file)
{
    return QStringLiteral("pg_relation_filenode(%1::oid) = %2 AND NOT (SELECT relhassubclass FROM pg_class WHERE oid = %1)")
        .arg(oid)
        .arg(file);
}

QString PostgisStatement::display() const
{
    QString out = sql;
    if (params.isEmpty()) return out;
    out += QLatin1String("\n  -- ");
    for (int i = 0; i < params.size(); ++i) out += QStringLiteral("%1$%2=%3").arg(i ? QStringLiteral(" ") : QString()).arg(i + 1).arg(params[i]);
    return out;
}

}  // namespace maptune
