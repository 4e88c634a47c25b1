#pragma once
// A PROJECTION block as written.

#include <QString>
#include <QStringList>

namespace maptune {

// PROJECTION block: either "init=epsg:4326" style parameters or a single
// "EPSG:4326" / "AUTO" / WKT string. Kept as the list of lines given.
struct ProjectionDef {
    QStringList args;
    bool isSet() const { return !args.isEmpty(); }
    bool isAuto() const { return args.size() == 1 && args[0].compare(QLatin1String("AUTO"), Qt::CaseInsensitive) == 0; }
    bool operator==(const ProjectionDef&) const = default;
};

}  // namespace maptune
