#include "data/geometry.h"

#include <ogr_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace maptune {

Rect Geometry::bounds() const
{
    Rect r{std::numeric_limits<double>::max(), std::numeric_limits<double>::max(),
           std::numeric_limits<double>::lowest(), std::numeric_limits<double>::lowest()};
    for (size_t i = 0; i + 1 < xy.size(); i += 2) {
        r.minx = std::min(r.minx, xy[i]);
        r.maxx = std::max(r.maxx, xy[i]);
        r.miny = std::min(r.miny, xy[i + 1]);
        r.maxy = std::max(r.maxy, xy[i + 1]);
    }
    return r;
}

namespace {

double segmentDistance(double px, double py, double ax, double ay, double bx, double by)
{
    const double dx = bx - ax, dy = by - ay;
    const double len2 = dx * dx + dy * dy;
    const double t = std::clamp(len2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0, 0.0, 1.0);
    return std::hypot(px - (ax + t * dx), py - (ay + t * dy));
}

}  // namespace

bool containsPoint(const Geometry& g, double px, double py)
{
    bool inside = false;
    for (int part = 0; part < g.partCount(); ++part) {
        const int s = g.partStart[part], e = g.partEnd(part);
        for (int i = s, j = e - 1; i < e; j = i++) {
            const double xi = g.xy[2 * i], yi = g.xy[2 * i + 1], xj = g.xy[2 * j], yj = g.xy[2 * j + 1];
            if ((yi > py) != (yj > py) && px < (xj - xi) * (py - yi) / (yj - yi) + xi) inside = !inside;
        }
    }
    return inside;
}

double distanceToPoint(const Geometry& g, double px, double py)
{
    if (g.type == Geometry::Type::Polygon && containsPoint(g, px, py)) return 0;
    double best = HUGE_VAL;
    for (int part = 0; part < g.partCount(); ++part) {
        const int s = g.partStart[part], e = g.partEnd(part);
        if (g.type == Geometry::Type::Point || e - s == 1) {
            for (int i = s; i < e; ++i) best = std::min(best, std::hypot(px - g.xy[2 * i], py - g.xy[2 * i + 1]));
            continue;
        }
        for (int i = s + 1; i < e; ++i)
            best = std::min(best, segmentDistance(px, py, g.xy[2 * i - 2], g.xy[2 * i - 1], g.xy[2 * i], g.xy[2 * i + 1]));
    }
    return best;
}

namespace {

class WkbReader {
public:
    WkbReader(const unsigned char* data, size_t size) : m_data(data), m_size(size) {}

    bool read(Geometry& g, int depth)
    {
        if (depth > 32) return fail("geometry nested too deeply");
        unsigned char order;
        if (!byte(order)) return false;
        m_little = order == 1;
        quint32 type;
        if (!u32(type)) return false;
        bool hasZ = false, hasM = false;
        if (type & 0x80000000u) hasZ = true;  // EWKB flags
        if (type & 0x40000000u) hasM = true;
        if (type & 0x20000000u) {
            quint32 srid;
            if (!u32(srid)) return false;
        }
        type &= 0x0fffffffu;
        if (type >= 3000) { hasZ = hasM = true; type -= 3000; }
        else if (type >= 2000) { hasM = true; type -= 2000; }
        else if (type >= 1000) { hasZ = true; type -= 1000; }
        m_dims = 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0);
        switch (type) {
        case 1: return points(g, Geometry::Type::Point, 1);
        case 2: return lineString(g, Geometry::Type::Line);
        case 3: return polygon(g);
        case 4: case 5: case 6: case 7: {
            quint32 n;
            if (!u32(n)) return false;
            if (n > m_size) return fail("corrupt collection count");
            const int dims = m_dims;
            for (quint32 i = 0; i < n; ++i) {
                if (!read(g, depth + 1)) return false;
                m_dims = dims;
            }
            return true;
        }
        default: return fail(QStringLiteral("unsupported WKB geometry type %1").arg(type));
        }
    }
    QString error;

private:
    bool fail(const QString& m) { error = m; return false; }
    bool need(size_t n) { return m_pos + n <= m_size ? true : fail(QStringLiteral("truncated WKB")); }
    bool byte(unsigned char& b)
    {
        if (!need(1)) return false;
        b = m_data[m_pos++];
        return true;
    }
    bool u32(quint32& v)
    {
        if (!need(4)) return false;
        std::memcpy(&v, m_data + m_pos, 4);
        if (!m_little) v = __builtin_bswap32(v);
        m_pos += 4;
        return true;
    }
    bool dbl(double& d)
    {
        if (!need(8)) return false;
        quint64 v;
        std::memcpy(&v, m_data + m_pos, 8);
        if (!m_little) v = __builtin_bswap64(v);
        std::memcpy(&d, &v, 8);
        m_pos += 8;
        return true;
    }
    void promote(Geometry& g, Geometry::Type t)
    {
        if (int(t) > int(g.type)) g.type = t;
    }
    bool points(Geometry& g, Geometry::Type t, quint32 n)
    {
        if (!need(size_t(n) * 8 * m_dims)) return false;
        promote(g, t);
        g.partStart.push_back(g.pointCount());
        g.xy.reserve(g.xy.size() + 2 * n);
        for (quint32 i = 0; i < n; ++i) {
            double x, y, skip;
            dbl(x);
            dbl(y);
            for (int d = 2; d < m_dims; ++d) dbl(skip);
            g.xy.push_back(x);
            g.xy.push_back(y);
        }
        return true;
    }
    bool lineString(Geometry& g, Geometry::Type t)
    {
        quint32 n;
        if (!u32(n)) return false;
        return points(g, t, n);
    }
    bool polygon(Geometry& g)
    {
        quint32 rings;
        if (!u32(rings)) return false;
        if (rings > m_size) return fail("corrupt ring count");
        for (quint32 r = 0; r < rings; ++r)
            if (!lineString(g, Geometry::Type::Polygon)) return false;
        promote(g, Geometry::Type::Polygon);
        return true;
    }

    const unsigned char* m_data;
    size_t m_size;
    size_t m_pos = 0;
    bool m_little = true;
    int m_dims = 2;
};

}  // namespace

Status decodeWkb(const unsigned char* data, size_t size, Geometry& out)
{
    out.clear();
    WkbReader r(data, size);
    if (!r.read(out, 0)) {
        out.clear();
        return Error(r.error);
    }
    // A point geometry drawn as a line would be wrong: keep the dominant type only
    // when parts of lower dimension were mixed in (rare GeometryCollections).
    return {};
}

Result<Geometry> geometryFromWkt(const QString& wkt)
{
    QByteArray text = wkt.toUtf8();
    char* p = text.data();
    OGRGeometryH h = nullptr;
    if (OGR_G_CreateFromWkt(&p, nullptr, &h) != OGRERR_NONE || !h) {
        return Error(QStringLiteral("invalid WKT '%1'").arg(wkt.left(60)));
    }
    const int n = OGR_G_WkbSize(h);
    std::vector<unsigned char> buf(n);
    OGR_G_ExportToIsoWkb(h, wkbNDR, buf.data());
    OGR_G_DestroyGeometry(h);
    Geometry g;
    if (Status decoded = decodeWkb(buf.data(), buf.size(), g); !decoded) return decoded.error();
    return g;
}

}  // namespace maptune
