#pragma once
// The few facts a PostGIS source needs from the catalogue, looked up once per
// connection string and DATA (the pool caches them): the geometry's SRID when
// DATA has no `using srid`, and the column names when the styles want "*".

#include "core/result.h"
#include "data/postgis/postgis_data_def.h"

#include <QStringList>

#include <functional>
#include <optional>

typedef struct pg_conn PGconn;

namespace maptune {

// Called for each round trip made, so that it shows in the layer's DbTrace.
using PgRoundTripRecorder = std::function<void(const QString& sql, double ms, const QString& error)>;

// Find_SRID() for a table; for a subselect (or a table not registered in
// geometry_columns) the SRID of its first geometry (0 when it has no rows).
Result<int> lookupPostgisSrid(PGconn* conn, const PostgisDataDef& data, const PgRoundTripRecorder& record);
// A table source's identity for the row cache (pg_row_cache.h): its oid and
// the file its rows are in. Zero oid when DATA is a subselect, a view, a
// partitioned or foreign table, or a table with inheritance children (their
// ctids are not one table's).
struct PgTableVersion {
    quint32 oid = 0;
    quint32 file = 0;
    qint64 tableBytes = 0;  // pg_table_size (TOAST included): about what a whole read of it would bring
    bool keepableWhole = false;  // a geometry column, no row security (pg_whole_table.h)
    bool cacheable() const { return oid != 0 && file != 0; }
};
Result<PgTableVersion> lookupPostgisTable(PGconn* conn, const PostgisDataDef& data, const PgRoundTripRecorder& record);

Result<QStringList> lookupPostgisColumns(PGconn* conn, const PostgisDataDef& data, int srid,
                                         const PgRoundTripRecorder& record);

}  // namespace maptune
