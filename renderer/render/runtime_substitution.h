#pragma once
// MapServer 8's runtime substitution (msApplySubstitutions, then
// msApplyDefaultSubstitutions): a request value replaces %key% only where a
// VALIDATION pattern accepts it -- the class's for its EXPRESSION, TEXT and
// TITLE; the layer's for DATA, TILEINDEX, CONNECTION, FILTER, MASK, METADATA,
// PROCESSING and its classes; the WEB's for every layer (unless the layer has
// a pattern of its own for that key), the WEB METADATA and the OUTPUTFORMATs'
// FORMATOPTIONs. A key without a pattern is never substituted; a value its
// pattern refuses leaves the token and records MapServer's error. Then the
// `default_<key>` values fill what is left (class, layer, WEB in that order).
// STYLE, LABEL and NAME values are never touched. WEB VALIDATION "immutable"
// turns all of it off.

#include "mapfile/map_def.h"

#include <QSet>
#include <QStringList>

#include <optional>
#include <utility>

namespace maptune {

struct SubstitutionOutcome {
    std::optional<MapDef> map;  // nullopt: no request value was substituted (the map is then what applyDefaults() gives)
    QStringList errors;         // distinct, oldest first
};

class RuntimeSubstitution {
public:
    static bool immutable(const MapDef& map);
    // The keys the map's VALIDATIONs hold (not default_ ones), lower case;
    // empty when the map is immutable.
    static QSet<QString> keys(const MapDef& map);
    // The request's values (only those whose name is one of keys(), one per key), then the defaults.
    static SubstitutionOutcome apply(const MapDef& map, const QList<std::pair<QString, QString>>& values);
    // Only the defaults: the map as a request without substitution values reads it.
    static std::optional<MapDef> applyDefaults(const MapDef& map);
};

}  // namespace maptune
