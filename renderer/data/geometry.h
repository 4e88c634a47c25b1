#pragma once
// A feature's geometry in flat arrays: interleaved x,y coordinates and the
// start of each part (ring or line). Flat so that PROJ transforms it in one
// call and drawing walks it without allocation. Multi-geometries are
// flattened: a multipolygon is its rings (drawn with even-odd filling).

#include "core/rect.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace maptune {

struct Geometry {
    enum class Type { None, Point, Line, Polygon };
    Type type = Type::None;
    std::vector<double> xy;        // x0,y0,x1,y1,...
    std::vector<int> partStart;    // point index where each part starts; size = parts

    int pointCount() const { return int(xy.size() / 2); }
    int partCount() const { return int(partStart.size()); }
    int partEnd(int part) const { return part + 1 < partCount() ? partStart[part + 1] : pointCount(); }
    bool isEmpty() const { return xy.empty(); }
    Rect bounds() const;
    void clear()
    {
        type = Type::None;
        xy.clear();
        partStart.clear();
    }
};

// Decodes OGC WKB / ISO WKB / EWKB (either byte order; Z/M dropped; SRID
// skipped). Collections are flattened into the highest-dimension type found.
// An error on malformed input, `out` then cleared (never reads out of bounds).
// `out` is filled in place: this runs per feature and reuses its buffers.
Status decodeWkb(const unsigned char* data, size_t size, Geometry& out);

// Point queries (GetFeatureInfo, the workbench's identify tool): even-odd over
// all rings, so holes and multipolygon parts come out right; the distance is
// 0 inside a polygon, else to the nearest vertex or segment (msDistancePointToShape).
bool containsPoint(const Geometry& g, double x, double y);
double distanceToPoint(const Geometry& g, double x, double y);

// Parses WKT through the same path (used for inline FEATURE WKT).
Result<Geometry> geometryFromWkt(const QString& wkt);

}  // namespace maptune
