#pragma once
// A draw answered by a table kept whole (pg_whole_table.h): its rows whose
// boxes meet the draw's, in table order, with no statement but the
// snapshot comparison that found the table current.

#include "data/feature_source.h"
#include "data/postgis/pg_cached_features.h"
#include "data/postgis/pg_whole_table.h"

#include <memory>
#include <optional>

namespace maptune {

class PostgisWholeTableCursor : public FeatureCursor {
public:
    // `box` invalid: every row with a geometry. `trace` counts the rows.
    PostgisWholeTableCursor(PgWholeTablePtr table, const Rect& box, QStringList fields, std::shared_ptr<DbTrace> trace);

    const QStringList& fields() const override { return m_fields; }
    bool next(Feature& f) override;

private:
    PgWholeTablePtr m_table;
    std::optional<PgBox2f> m_box;
    QStringList m_fields;
    std::shared_ptr<DbTrace> m_trace;
    PgCachedFeatures m_features;
    size_t m_next = 0;
};

}  // namespace maptune
