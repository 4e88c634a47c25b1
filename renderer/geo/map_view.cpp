#include "geo/map_view.h"
#include "mapfile/map_def.h"

#include <algorithm>

namespace maptune {

double inchesPerUnit(const QString& units)
{
    const QString u = units.toUpper();
    if (u == QLatin1String("DD")) return 4374754.0;
    if (u == QLatin1String("FEET")) return 12.0;
    if (u == QLatin1String("INCHES")) return 1.0;
    if (u == QLatin1String("KILOMETERS")) return 39370.1;
    if (u == QLatin1String("MILES")) return 63360.0;
    if (u == QLatin1String("NAUTICALMILES")) return 72913.3858;
    if (u == QLatin1String("PIXELS")) return 1.0;
    return 39.3701;
}

QString effectiveUnits(const MapDef& map, const Crs& crs)
{
    if (crs.isValid()) {
        if (crs.isGeographic()) return QStringLiteral("DD");
        if (std::abs(crs.metersPerUnit() - 0.3048) < 1e-6) return QStringLiteral("FEET");
        return QStringLiteral("METERS");
    }
    if (!map.units.isEmpty()) return map.units.toUpper();
    return QStringLiteral("METERS");
}

namespace {
void finishView(MapView& v, const QString& units)
{
    // msCalculateScale: centre-to-centre ground distance over (width-1) pixels.
    const double cs = v.cellSizeX();
    v.scaleDenom = cs * v.resolution * inchesPerUnit(units);
}
}  // namespace

double adjustExtent(Rect& r, int width, int height)
{
    if (width < 2 || height < 2) return 0;
    const double cs = std::max(r.width() / (width - 1), r.height() / (height - 1));
    if (!(cs > 0)) return 0;
    const double ox = std::max(((width - 1) - r.width() / cs) / 2, 0.0);
    const double oy = std::max(((height - 1) - r.height() / cs) / 2, 0.0);
    r.minx -= ox * cs;
    r.maxx += ox * cs;
    r.miny -= oy * cs;
    r.maxy += oy * cs;
    return cs;
}

Rect pixelCentreExtent(const Rect& edges, int width, int height)
{
    if (width <= 0 || height <= 0) return edges;
    const double dx = edges.width() / width, dy = edges.height() / height;
    return {edges.minx + dx * 0.5, edges.miny + dy * 0.5, edges.maxx - dx * 0.5, edges.maxy - dy * 0.5};
}

MapView makeMapViewFromCenterExtent(const Rect& extent, int width, int height, const Crs& crs,
                                    const QString& units, double resolution)
{
    MapView v;
    v.width = width;
    v.height = height;
    v.crs = crs;
    v.resolution = resolution;
    Rect r = extent;
    if (width > 1 && height > 1) {
        const double cs = adjustExtent(r, width, height);
        v.centerExtent = r;
        if (cs > 0) {
            r.minx -= cs / 2;
            r.maxx += cs / 2;
            r.miny -= cs / 2;
            r.maxy += cs / 2;
        }
    }
    v.extent = r;
    finishView(v, units);
    return v;
}

MapView makeMapViewFromEdges(const Rect& edges, int width, int height, const Crs& crs, const QString& units,
                             double resolution)
{
    MapView v;
    v.width = width;
    v.height = height;
    v.crs = crs;
    v.resolution = resolution;
    v.extent = edges;
    if (width > 0 && height > 0) v.centerExtent = pixelCentreExtent(edges, width, height);
    finishView(v, units);
    return v;
}

}  // namespace maptune
