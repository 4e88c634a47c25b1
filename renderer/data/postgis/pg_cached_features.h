#pragma once
// Features made from cached rows (pg_row_cache.h). Each cursor decodes its
// own QStrings from the rows' UTF-8 -- threads never share a reference
// count -- and a column's recent values are reused (repeated_values.h).

#include "data/feature_source.h"
#include "data/postgis/pg_row_cache.h"
#include "data/repeated_values.h"

namespace maptune {

class PgCachedFeatures {
public:
    explicit PgCachedFeatures(int fields) : m_fields(fields), m_values(fields) {}

    // `f` gets the row's geometry and values; ids number the features from 0.
    void fill(Feature& f, PgCachedRow r)
    {
        r.geometryInto(f.geometry);
        f.values.resize(m_fields);
        r.forEachValue([&](int i, QByteArrayView raw) {
            if (i >= m_fields) return;
            f.values[i] = raw.data() ? m_values.value(i, raw, [](QByteArrayView v) { return QString::fromUtf8(v); }) : QString();
        });
        f.id = m_returned++;
    }

private:
    int m_fields;
    RepeatedValues m_values;
    qint64 m_returned = 0;
};

}  // namespace maptune
