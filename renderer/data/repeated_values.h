#pragma once
// Attribute values repeat from feature to feature (a road's type, a land
// use class): the last few of each column are kept decoded, so that a
// repeat costs a comparison of its raw bytes instead of a decode and a
// string allocation (and its free when the feature is dropped). A column
// whose values rarely repeat (names, ids) stops being looked up.

#include <QByteArrayView>
#include <QString>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

namespace maptune {

class RepeatedValues {
public:
    explicit RepeatedValues(int columns) : m_columns(size_t(std::max(columns, 0))) {}

    // The value of `raw` in `column`, decoded by `decode(raw)` unless one of
    // the column's recent values has the same bytes.
    template <class Decode>
    QString value(int column, QByteArrayView raw, Decode&& decode)
    {
        if (column < 0 || size_t(column) >= m_columns.size()) return decode(raw);
        Column& c = m_columns[size_t(column)];
        if (c.off || raw.size() > Entry::MaxBytes) return decode(raw);
        for (const Entry& e : c.entries)
            if (e.size == raw.size() && e.used && std::memcmp(e.bytes.data(), raw.data(), size_t(raw.size())) == 0) {
                ++c.hits;
                return e.value;
            }
        if (++c.misses > Column::Trial && c.hits < c.misses) {
            c.off = true;  // mostly new values: lookups would only cost
            c.entries = {};
        }
        QString v = decode(raw);
        if (c.off) return v;
        Entry& e = c.entries[c.next];
        c.next = (c.next + 1) % c.entries.size();
        e.size = raw.size();
        std::memcpy(e.bytes.data(), raw.data(), size_t(raw.size()));
        e.value = v;
        e.used = true;
        return v;
    }

private:
    struct Entry {
        static constexpr qsizetype MaxBytes = 40;
        std::array<char, MaxBytes> bytes{};
        qsizetype size = 0;
        QString value;
        bool used = false;
    };
    struct Column {
        static constexpr int Trial = 32;  // misses before a column is judged
        std::array<Entry, 8> entries;
        size_t next = 0;
        int hits = 0, misses = 0;
        bool off = false;
    };
    std::vector<Column> m_columns;
};

}  // namespace maptune
