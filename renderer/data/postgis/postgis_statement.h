#pragma once
// The one SELECT a PostGIS layer runs per draw. Its shape depends only on the
// mapfile (DATA, PROCESSING, the attributes the styles use) and on how many
// TIME / dimension values a request gives; the values themselves -- the bbox,
// the times -- are bound as parameters, so no request can change the SQL.

#include "core/result.h"
#include "data/postgis/postgis_data_def.h"
#include "mapfile/map_def.h"

#include <QStringList>

#include <optional>

namespace maptune {

struct PostgisSelectSpec {
    PostgisDataDef data;
    QStringList columns;     // attribute columns, fetched as ::text in this order
    Rect bbox;               // in the layer's SRID; invalid: no spatial restriction
    int srid = 0;            // 0: unknown (envelope without SRID)
    QString nativeFilter;    // PROCESSING NATIVE_FILTER: trusted SQL from the mapfile
    int limit = -1;          // MAXFEATURES; -1: none
    // WMS TIME / dimensions: each an OR of equalities and ranges on its item
    // (a mapfile name), values bound and typed by the column.
    QList<RequestConditionDef> conditions;
    bool uniqueKey = true;   // select DATA's `using unique` column after the geometry
    // Select each row's ctid and xmin last (the row cache's key, pg_row_cache.h).
    bool tupleIds = false;
    // A condition on no row (tableVersionGuard): the planner tests it once
    // per statement, and when it is false the statement returns no rows.
    QString guard;
};

struct PostgisStatement {
    QString sql;
    QStringList params;      // $1.. as text: the bbox (float8), then condition values
    int float8Params = 0;    // the first this many are float8; the rest the server types by their column

    // Result layout: columns 0..n-1 are the attributes, then the WKB, then
    // the unique id when DATA has `using unique`, then ctid and xmin when
    // spec.tupleIds.
    static Result<PostgisStatement> select(const PostgisSelectSpec& spec);
    // The same rows' ctid and xmin only: what a draw whose rows are cached
    // asks the server. Attributes, WKB and unique id are not selected.
    static Result<PostgisStatement> tupleIds(const PostgisSelectSpec& spec);
    // select()'s columns for the tuples in $1 (a tid[] in text form,
    // {"(0,1)","(7,3)"}), whatever the bbox, filters and limit: the rows of tuple ids
    // a draw did not find in the cache. spec.guard applies.
    static PostgisStatement rowsByTupleId(const PostgisSelectSpec& spec);
    // Every row of the table, as select() with spec.tupleIds selects them:
    // the read of a table kept whole (pg_whole_table.h). spec.guard applies.
    static PostgisStatement wholeTable(const PostgisSelectSpec& spec);
    // Whether the box is a draw's only condition (no NATIVE_FILTER, TIME or
    // dimension, LIMIT or !BOX!) and one select() accepts: a table kept
    // whole can answer it.
    static bool onlyBoxRestricts(const PostgisSelectSpec& spec);
    // The snapshot a table kept whole is compared with, and the server's
    // start (a restart empties unlogged tables without a transaction; another
    // cluster at the same address may repeat a snapshot). No row on a standby,
    // whose snapshots do not list the primary's transactions in progress.
    static constexpr const char* kCurrentSnapshot =
        "SELECT pg_current_snapshot()::text || '@' || extract(epoch FROM pg_postmaster_start_time()) WHERE NOT pg_is_in_recovery()";
    // True while table `oid` still keeps its rows in file `file` and has no
    // inheritance children (whose ctids would repeat the parent's).
    static QString tableVersionGuard(quint32 oid, quint32 file);
    // msPostGISLayerGetExtent: one row of four float8 (xmin, ymin, xmax, ymax;
    // NULL when no row has a geometry) over the whole source, the mapfile's
    // NATIVE_FILTER applied, !BOX! opened to the world. spec.bbox, columns,
    // conditions and limit are not used.
    static PostgisStatement extent(const PostgisSelectSpec& spec);
    // "SELECT ... -- $1=0 $2=0 ..." for logs and `maptune-cli explain`.
    QString display() const;
};

}  // namespace maptune
