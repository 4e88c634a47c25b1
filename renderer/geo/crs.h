#pragma once
// A coordinate reference system as MapServer understands it: always in
// traditional GIS axis order (x = easting/longitude), whatever EPSG says.
// Immutable value; cheap to copy (shares the PROJ definition string).

#include "core/result.h"
#include "mapfile/projection_def.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace maptune {

class Crs {
public:
    Crs() = default;

    // From a mapfile PROJECTION block: "init=epsg:4326", "+proj=... +datum=..",
    // several "key=value" lines, "EPSG:3857", WKT. AUTO is not resolved here.
    static Result<Crs> fromProjection(const ProjectionDef& def);
    // From user or WMS input: "EPSG:4326", "CRS:84", "epsg:3857", "+proj=...".
    static Result<Crs> fromUserInput(const QString& text);
    // From WKT (e.g. a GDAL dataset's spatial reference).
    static Result<Crs> fromWkt(const QByteArray& wkt);

    bool isValid() const { return !m_definition.isEmpty(); }
    bool isGeographic() const { return m_geographic; }
    // The definition PROJ and GDAL accept (proj_create / OSRSetFromUserInput).
    const QByteArray& definition() const { return m_definition; }
    // WKT2 in traditional GIS axis order, for GDAL warping.
    const QByteArray& wkt() const { return m_wkt; }
    // "EPSG:4326" when known, else empty.
    const QString& authId() const { return m_authId; }
    // Metres per unit at the equator, for scale denominators (1 for projected metres).
    double metersPerUnit() const { return m_metersPerUnit; }

    bool operator==(const Crs& o) const { return m_wkt == o.m_wkt; }
    bool operator!=(const Crs& o) const { return !(*this == o); }

private:
    QByteArray m_definition;
    QByteArray m_wkt;
    QString m_authId;
    bool m_geographic = false;
    double m_metersPerUnit = 1.0;
};

}  // namespace maptune
