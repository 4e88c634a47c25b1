#pragma once
// PROCESSING directives of a layer with MapServer's lookup rules: keys match
// case-insensitively, "KEY=VALUE" or "KEY:VALUE", the first occurrence wins.
// Unlike MapServer we report repeated and unknown keys (it silently ignores them).

#include "mapfile/map_def.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace maptune {

class ProcessingOptions {
public:
    explicit ProcessingOptions(const QStringList& directives);

    std::optional<QString> value(const QString& key) const;
    QString value(const QString& key, const QString& fallback) const { return value(key).value_or(fallback); }
    bool has(const QString& key) const { return value(key).has_value(); }

    // Human-readable warnings: "PROCESSING \"LUT1=...\": unknown key 'LUT1' (ignored)".
    QStringList warnings() const;

private:
    struct Entry {
        QString key;
        QString value;
    };
    QList<Entry> m_entries;  // in order, duplicates kept (first wins on lookup)
};

}  // namespace maptune
