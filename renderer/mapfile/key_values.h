#pragma once
// METADATA-like blocks: ordered, case-insensitive keys.

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace maptune {

// Ordered key/value metadata (METADATA, VALIDATION, CONFIG, FORMATOPTION...).
// Keys keep their case; lookups in MapServer are case-insensitive.
struct KeyValues {
    QList<std::pair<QString, QString>> items;
    std::optional<QString> value(const QString& key) const {
        for (const auto& [k, v] : items)
            if (k.compare(key, Qt::CaseInsensitive) == 0) return v;
        return std::nullopt;
    }
    QString value(const QString& key, const QString& fallback) const { return value(key).value_or(fallback); }
    void set(const QString& key, const QString& v) {
        for (auto& [k, old] : items)
            if (k.compare(key, Qt::CaseInsensitive) == 0) { old = v; return; }
        items.append({key, v});
    }
    bool isEmpty() const { return items.isEmpty(); }
    bool operator==(const KeyValues&) const = default;
};

}  // namespace maptune
