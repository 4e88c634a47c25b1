#include "data/postgis/pg_whole_table.h"

#include <cfloat>
#include <cmath>

namespace maptune {

namespace {

float floatDown(double d)
{
    if (d > double(FLT_MAX)) return FLT_MAX;
    if (d <= double(-FLT_MAX)) return -FLT_MAX;
    const float f = float(d);
    return double(f) <= d ? f : std::nextafter(f, -FLT_MAX);
}

float floatUp(double d)
{
    if (d >= double(FLT_MAX)) return FLT_MAX;
    if (d < double(-FLT_MAX)) return -FLT_MAX;
    const float f = float(d);
    return double(f) >= d ? f : std::nextafter(f, FLT_MAX);
}

}  // namespace

PgBox2f PgBox2f::outward(double xmin, double ymin, double xmax, double ymax)
{
    return {floatDown(xmin), floatDown(ymin), floatUp(xmax), floatUp(ymax)};
}

bool PgWholeTableRows::add(const PgTupleId& id, const Geometry& g, const QByteArrayView* values, int count)
{
    // WKB's POINT EMPTY is one point of NaN, NaN: no box. A NaN anywhere
    // else gives PostGIS a box that depends on the points' order.
    const bool emptyPoint = g.xy.size() == 2 && std::isnan(g.xy[0]) && std::isnan(g.xy[1]);
    if (!g.xy.empty() && !emptyPoint) {
        double xmin = g.xy[0], ymin = g.xy[1], xmax = xmin, ymax = ymin;
        for (size_t i = 0; i + 1 < g.xy.size(); i += 2) {
            const double x = g.xy[i], y = g.xy[i + 1];
            if (!std::isfinite(x) || !std::isfinite(y)) return false;
            xmin = std::min(xmin, x);
            xmax = std::max(xmax, x);
            ymin = std::min(ymin, y);
            ymax = std::max(ymax, y);
        }
        m_boxes.emplace_back(PgBox2f::outward(xmin, ymin, xmax, ymax), m_batch.size());
    }
    m_batch.add(id, g, values, count);
    return true;
}

}  // namespace maptune
