#include "render/line_offset.h"

#include "geo/geos_context.h"

#include <cmath>

namespace maptune {

namespace {

void appendLines(GEOSContextHandle_t h, const GEOSGeometry* g, QList<QPolygonF>& out)
{
    const int type = GEOSGeomTypeId_r(h, g);
    if (type == GEOS_MULTILINESTRING || type == GEOS_GEOMETRYCOLLECTION) {
        const int n = GEOSGetNumGeometries_r(h, g);
        for (int i = 0; i < n; ++i) appendLines(h, GEOSGetGeometryN_r(h, g, i), out);
        return;
    }
    if (type != GEOS_LINESTRING && type != GEOS_LINEARRING) return;
    const GEOSCoordSequence* seq = GEOSGeom_getCoordSeq_r(h, g);
    unsigned int size = 0;
    if (!seq || !GEOSCoordSeq_getSize_r(h, seq, &size) || size < 2) return;
    QPolygonF line;
    line.reserve(size);
    for (unsigned int i = 0; i < size; ++i) {
        double x = 0, y = 0;
        GEOSCoordSeq_getXY_r(h, seq, i, &x, &y);
        line << QPointF(x, y);
    }
    out << line;
}

}  // namespace

QList<QPolygonF> LineOffset::offset(const QList<QPolygonF>& parts, double offset)
{
    GEOSContextHandle_t h = geosForThread();
    QList<QPolygonF> out;
    for (const QPolygonF& part : parts) {
        if (part.size() < 2 || offset == 0) {
            out << part;
            continue;
        }
        GEOSCoordSequence* seq = GEOSCoordSeq_create_r(h, unsigned(part.size()), 2);
        for (qsizetype i = 0; i < part.size(); ++i) GEOSCoordSeq_setXY_r(h, seq, unsigned(i), part[i].x(), part[i].y());
        GEOSGeometry* line = GEOSGeom_createLineString_r(h, seq);
        GEOSGeometry* curve = line ? GEOSOffsetCurve_r(h, line, offset, 4, GEOSBUF_JOIN_MITRE, std::abs(offset * 1.5)) : nullptr;
        const qsizetype before = out.size();
        if (curve) appendLines(h, curve, out);
        if (out.size() == before) out << part;
        if (curve) GEOSGeom_destroy_r(h, curve);
        if (line) GEOSGeom_destroy_r(h, line);
    }
    return out;
}

QList<QPolygonF> LineOffset::apply(const QList<QPolygonF>& parts, double offsetX, double offsetY)
{
    if (offsetY == SingleSided) return offset(parts, offsetX);
    if (offsetY == DoubleSided) return offset(parts, offsetX / 2) + offset(parts, -offsetX / 2);
    if (offsetX == 0 && offsetY == 0) return parts;
    QList<QPolygonF> out = parts;
    for (QPolygonF& part : out) part.translate(offsetX, offsetY);
    return out;
}

}  // namespace maptune
