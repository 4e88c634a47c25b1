#pragma once
// A PostGIS layer's DATA statement in MapServer's forms:
//   geom from roads
//   geom from public.roads using srid=3857
//   geom from (select * from roads where kind = 'a') as r using unique gid using srid=4326
// `using` clauses in either order, keywords case-insensitive. Parsed once per
// layer; nothing here talks to the database.

#include "core/result.h"

#include <QString>

#include <optional>

namespace maptune {

struct PostgisDataDef {
    QString geometryColumn;  // unquoted name
    QString table;           // unquoted "schema.table" parts joined, for a table source
    QString schema;          // empty: search_path
    QString subselect;       // "(select ...)" with its parentheses, for a subselect source
    QString alias;           // the subselect's alias
    QString uniqueColumn;    // `using unique`; empty: none
    int srid = 0;            // `using srid=`; 0: ask the database (find_srid)

    bool isSubselect() const { return !subselect.isEmpty(); }
    bool hasBoxToken() const { return subselect.contains(QLatin1String("!BOX!")); }
    // The FROM item with identifiers quoted: "public"."roads" or (select ...) AS "r".
    QString fromClause() const;
    // The geometry column quoted for SQL.
    QString quotedGeometry() const;

    static Result<PostgisDataDef> parse(const QString& data);
};

// "name" with embedded quotes doubled: the only way identifiers reach SQL.
QString quotePgIdentifier(const QString& name);

}  // namespace maptune
