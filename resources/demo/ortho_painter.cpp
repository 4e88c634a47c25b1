#include "ortho_painter.h"

#include "noise.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace maptune::demo {

namespace {

struct Color
{
    double r, g, b;
};

Color shade(Color c, double delta) { return {c.r + delta, c.g + delta, c.b + delta}; }
Color scale(Color c, double f) { return {c.r * f, c.g * f, c.b * f}; }

// Floating-point RGB canvas over the scene extent, plus a per-pixel grain value
// that every surface uses for its texture.
class Canvas
{
public:
    explicit Canvas(const DemoScene& scene)
        : m_scene(scene), m_size(scene.pixels),
          m_rgb(static_cast<std::size_t>(m_size) * m_size * 3, 0.0f),
          m_grain(static_cast<std::size_t>(m_size) * m_size, 0.5f)
    {
    }

    int size() const { return m_size; }
    const DemoScene& scene() const { return m_scene; }

    Point world(int col, int row) const
    {
        return {m_scene.extent.minX + (col + 0.5) * m_scene.pixelSize,
                m_scene.extent.maxY - (row + 0.5) * m_scene.pixelSize};
    }
    double colAt(double x) const { return (x - m_scene.extent.minX) / m_scene.pixelSize; }
    double rowAt(double y) const { return (m_scene.extent.maxY - y) / m_scene.pixelSize; }

    float& grain(int col, int row) { return m_grain[index(col, row)]; }

    void set(int col, int row, Color c)
    {
        float* p = &m_rgb[index(col, row) * 3];
        p[0] = static_cast<float>(c.r);
        p[1] = static_cast<float>(c.g);
        p[2] = static_cast<float>(c.b);
    }
    void blend(int col, int row, Color c, double alpha)
    {
        float* p = &m_rgb[index(col, row) * 3];
        p[0] = static_cast<float>(p[0] + (c.r - p[0]) * alpha);
        p[1] = static_cast<float>(p[1] + (c.g - p[1]) * alpha);
        p[2] = static_cast<float>(p[2] + (c.b - p[2]) * alpha);
    }
    void darken(int col, int row, double factor)
    {
        float* p = &m_rgb[index(col, row) * 3];
        for (int k = 0; k < 3; ++k)
            p[k] = static_cast<float>(p[k] * factor);
    }
    float* pixel(int col, int row) { return &m_rgb[index(col, row) * 3]; }

    // Pixel window covering a world box, clamped to the canvas.
    struct Window { int col0, row0, col1, row1; };
    Window window(double minX, double minY, double maxX, double maxY) const
    {
        return {std::max(0, static_cast<int>(std::floor(colAt(minX)))),
                std::max(0, static_cast<int>(std::floor(rowAt(maxY)))),
                std::min(m_size - 1, static_cast<int>(std::ceil(colAt(maxX)))),
                std::min(m_size - 1, static_cast<int>(std::ceil(rowAt(minY))))};
    }

private:
    std::size_t index(int col, int row) const
    {
        return static_cast<std::size_t>(row) * static_cast<std::size_t>(m_size)
            + static_cast<std::size_t>(col);
    }

    const DemoScene& m_scene;
    int m_size;
    std::vector<float> m_rgb;
    std::vector<float> m_grain;
};

// Seeds of the independent noise fields.
enum : std::uint64_t {
    kGrainFine = 11, kGrainMid, kGrainCoarse, kCanopy1, kCanopy2, kCanopy3, kCanopy4,
    kBoundary, kTone, kSensor, kRoof
};

double fieldNoise(const DemoScene& s, std::uint64_t field, Point p, double cell)
{
    return valueNoise(mix64(s.seed + field), p.x, p.y, cell);
}

double canopyAt(const DemoScene& s, Point p)
{
    const double c = 0.2 * fieldNoise(s, kCanopy1, p, 2.0) + 0.4 * fieldNoise(s, kCanopy2, p, 4.5)
        + 0.25 * fieldNoise(s, kCanopy3, p, 10.0) + 0.15 * fieldNoise(s, kCanopy4, p, 40.0);
    return c;
}

Color trees(double canopy)
{
    const double c = std::clamp((canopy - 0.3) * 2.5, 0.0, 1.0);
    return {25 + c * 70, 55 + c * 85, 25 + c * 45};
}
Color lawn(double g) { return {95 + g * 40, 130 + g * 40, 60 + g * 25}; }
Color gravel(double g) { return {190 + g * 30, 180 + g * 30, 160 + g * 25}; }
Color water(double g) { return {38 + g * 14, 68 + g * 16, 72 + g * 14}; }
Color concrete(double g) { return {128 + g * 34, 126 + g * 34, 121 + g * 30}; }
Color asphalt(double g) { return {88 + g * 36, 89 + g * 36, 93 + g * 36}; }

Color groundColor(const DemoScene& s, Point p, double g)
{
    const double u = p.x - s.centre.x, v = p.y - s.centre.y;
    const double wobble = (fieldNoise(s, kBoundary, p, 120.0) - 0.5) * 0.10;
    const double park = s.park.value(u, v, 0.0) + wobble;
    if (park < 1.0) {
        if (s.plaza.contains(p, 0.0))
            return gravel(g);
        const double canopy = canopyAt(s, p);
        return canopy > 0.45 ? trees(canopy) : lawn(g);
    }
    if (park < 1.04)
        return {150 + g * 30, 144 + g * 30, 132 + g * 28}; // stone wall on the moat
    if (s.park.value(u, v, s.park.moatWidth) + wobble < 1.0)
        return water(g);
    if (s.park.value(u, v, s.park.ringRoadOffset - 8.0) < 1.0) {
        const double canopy = canopyAt(s, p);
        return canopy > 0.56 ? scale(trees(canopy), 0.85) : lawn(g);
    }
    const Point q = s.grid.toGrid(u, v);
    const auto i = static_cast<std::int64_t>(std::floor(q.x / s.grid.spacingP));
    const auto j = static_cast<std::int64_t>(std::floor(q.y / s.grid.spacingQ));
    if (s.grid.isGreenBlock(i, j)) {
        const double canopy = canopyAt(s, p);
        return canopy > 0.48 ? trees(canopy) : lawn(g);
    }
    return concrete(g);
}

void paintGround(Canvas& canvas)
{
    const DemoScene& s = canvas.scene();
    for (int row = 0; row < canvas.size(); ++row) {
        for (int col = 0; col < canvas.size(); ++col) {
            const Point p = canvas.world(col, row);
            const double g = 0.5 * fieldNoise(s, kGrainFine, p, 1.3)
                + 0.3 * fieldNoise(s, kGrainMid, p, 4.0) + 0.2 * fieldNoise(s, kGrainCoarse, p, 30.0);
            canvas.grain(col, row) = static_cast<float>(g);
            canvas.set(col, row, groundColor(s, p, g));
        }
    }
}

// Calls paint(col, row, lateral, along, coverage, cap) for every pixel within
// halfWidth of the polyline; `lateral` is the signed distance across the line
// and `along` the distance from its start, for markings; `cap` is true beyond
// the segment's ends, where markings would otherwise draw circles at vertices.
using LinePainter = std::function<void(int, int, double, double, double, bool)>;

void stampPolyline(Canvas& canvas, const std::vector<Point>& points, double halfWidth,
                   Point offset, const LinePainter& paint)
{
    double along = 0.0;
    for (std::size_t k = 0; k + 1 < points.size(); ++k) {
        const Point a{points[k].x + offset.x, points[k].y + offset.y};
        const Point b{points[k + 1].x + offset.x, points[k + 1].y + offset.y};
        const double dx = b.x - a.x, dy = b.y - a.y;
        const double length = std::hypot(dx, dy);
        if (length <= 0.0)
            continue;
        const double reach = halfWidth + 1.0;
        const auto w = canvas.window(std::min(a.x, b.x) - reach, std::min(a.y, b.y) - reach,
                                     std::max(a.x, b.x) + reach, std::max(a.y, b.y) + reach);
        for (int row = w.row0; row <= w.row1; ++row) {
            for (int col = w.col0; col <= w.col1; ++col) {
                const Point p = canvas.world(col, row);
                const double raw = ((p.x - a.x) * dx + (p.y - a.y) * dy) / (length * length);
                const double t = std::clamp(raw, 0.0, 1.0);
                const double ex = p.x - (a.x + t * dx), ey = p.y - (a.y + t * dy);
                const double distance = std::hypot(ex, ey);
                const double coverage = std::clamp(halfWidth + 0.5 - distance, 0.0, 1.0);
                if (coverage <= 0.0)
                    continue;
                const double side = (dx * ey - dy * ex) >= 0.0 ? 1.0 : -1.0;
                paint(col, row, side * distance, along + t * length, coverage, raw != t);
            }
        }
        along += length;
    }
}

struct RoadLook
{
    double halfWidth;
    double sidewalk;
};

RoadLook roadLook(RoadType type)
{
    switch (type) {
    case RoadType::Motorway: return {11.0, 0.0};
    case RoadType::Primary: return {8.0, 2.0};
    case RoadType::Secondary: return {6.0, 2.0};
    case RoadType::Residential: return {3.5, 1.5};
    case RoadType::Footway: return {1.5, 0.0};
    }
    return {3.5, 1.5};
}

// Dashed line at `lateral` metres from the centre, 0.35 m wide.
void paintMarking(Canvas& canvas, int col, int row, double lateral, double along, double target,
                  double dash, double coverage)
{
    const double d = std::abs(lateral - target);
    const double c = std::clamp(0.35 + 0.5 - d, 0.0, 1.0) * coverage * 0.8;
    if (c > 0.0 && (dash <= 0.0 || std::fmod(along, 2.0 * dash) < dash))
        canvas.blend(col, row, {225, 225, 218}, c);
}

void paintStreets(Canvas& canvas)
{
    const auto& roads = canvas.scene().roads;
    const RoadType order[] = {RoadType::Footway, RoadType::Residential, RoadType::Secondary,
                              RoadType::Primary};
    // Pavements first, then asphalt, then markings, so crossings come out clean.
    for (int pass = 0; pass < 3; ++pass) {
        for (RoadType type : order) {
            const RoadLook look = roadLook(type);
            for (const Road& road : roads) {
                if (road.type != type || (pass != 1 && type == RoadType::Footway))
                    continue;
                const double hw = pass == 0 ? look.halfWidth + look.sidewalk : look.halfWidth;
                stampPolyline(canvas, road.points, hw, {0, 0},
                              [&](int col, int row, double lateral, double along, double cov, bool cap) {
                                  const double g = canvas.grain(col, row);
                                  if (pass == 0)
                                      canvas.blend(col, row, {168 + g * 25, 166 + g * 25, 158 + g * 22}, cov);
                                  else if (pass == 1)
                                      canvas.blend(col, row, type == RoadType::Footway ? gravel(g) : asphalt(g), cov);
                                  else if (cap)
                                      return;
                                  else if (type == RoadType::Primary) {
                                      paintMarking(canvas, col, row, lateral, along, 0.0, 0.0, cov);
                                      paintMarking(canvas, col, row, lateral, along, 4.2, 4.0, cov);
                                      paintMarking(canvas, col, row, lateral, along, -4.2, 4.0, cov);
                                  } else if (type == RoadType::Secondary)
                                      paintMarking(canvas, col, row, lateral, along, 0.0, 5.0, cov);
                              });
            }
        }
    }
}

bool insideConvex(const std::vector<Point>& hull, Point p)
{
    for (std::size_t k = 0; k < hull.size(); ++k) {
        const Point& a = hull[k];
        const Point& b = hull[(k + 1) % hull.size()];
        if ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x) < 0.0)
            return false;
    }
    return true;
}

// Counter-clockwise convex hull (monotone chain).
std::vector<Point> convexHull(std::vector<Point> pts)
{
    std::sort(pts.begin(), pts.end(), [](Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    std::vector<Point> hull(2 * pts.size());
    std::size_t n = 0;
    const auto cross = [](Point o, Point a, Point b) {
        return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    };
    for (const Point& p : pts) {
        while (n >= 2 && cross(hull[n - 2], hull[n - 1], p) <= 0.0)
            --n;
        hull[n++] = p;
    }
    for (std::size_t k = pts.size() - 1, lower = n + 1; k-- > 0;) {
        while (n >= lower && cross(hull[n - 2], hull[n - 1], pts[k]) <= 0.0)
            --n;
        hull[n++] = pts[k];
    }
    hull.resize(n - 1);
    return hull;
}

// Shadows fall to the north-east (sun in the south-west), longer for taller
// buildings. They are collected in a mask so that overlapping shadows do not
// darken twice.
void addShadow(const Canvas& canvas, const Building& building, std::vector<std::uint8_t>& mask)
{
    const double length = std::min(30.0, building.height * 0.55);
    const Point offset{length * 0.6, length * 0.8};
    std::vector<Point> pts;
    for (const Point& c : building.footprint.corners()) {
        pts.push_back(c);
        pts.push_back({c.x + offset.x, c.y + offset.y});
    }
    const std::vector<Point> hull = convexHull(pts);
    double minX = hull[0].x, maxX = hull[0].x, minY = hull[0].y, maxY = hull[0].y;
    for (const Point& p : hull) {
        minX = std::min(minX, p.x), maxX = std::max(maxX, p.x);
        minY = std::min(minY, p.y), maxY = std::max(maxY, p.y);
    }
    const auto w = canvas.window(minX, minY, maxX, maxY);
    for (int row = w.row0; row <= w.row1; ++row)
        for (int col = w.col0; col <= w.col1; ++col)
            if (insideConvex(hull, canvas.world(col, row)))
                mask[static_cast<std::size_t>(row) * canvas.size() + col] = 1;
}

Color roofColor(const DemoScene& s, std::size_t index)
{
    static const Color palette[] = {{176, 176, 172}, {150, 150, 150}, {205, 205, 200}, {120, 118, 115},
                                    {160, 110, 90},  {95, 100, 110},  {185, 175, 150}, {130, 140, 150},
                                    {210, 200, 185}, {90, 110, 120},  {140, 95, 80},   {225, 225, 220}};
    const std::uint64_t h = hashInts(s.seed + kRoof, static_cast<std::int64_t>(index));
    return shade(palette[h % std::size(palette)], (unitFromHash(h) - 0.5) * 24.0);
}

void paintRoof(Canvas& canvas, const Building& building, std::size_t index)
{
    const OrientedRect& r = building.footprint;
    const Color base = roofColor(canvas.scene(), index);
    const bool gable = r.halfWidth < 9.0;
    const double reach = std::hypot(r.halfLength, r.halfWidth) + 1.0;
    const auto w = canvas.window(r.centre.x - reach, r.centre.y - reach, r.centre.x + reach, r.centre.y + reach);
    const std::uint64_t equipment = hashInts(canvas.scene().seed + kRoof, static_cast<std::int64_t>(index), 7);
    for (int row = w.row0; row <= w.row1; ++row) {
        for (int col = w.col0; col <= w.col1; ++col) {
            const Point local = r.toLocal(canvas.world(col, row));
            const double edge = std::min(r.halfLength - std::abs(local.x), r.halfWidth - std::abs(local.y));
            const double coverage = std::clamp(edge + 0.5, 0.0, 1.0);
            if (coverage <= 0.0)
                continue;
            Color c = shade(base, (canvas.grain(col, row) - 0.5) * 18.0);
            if (edge < 1.2)
                c = shade(c, 22.0); // parapet
            else if (gable)
                c = shade(c, local.y > 0.0 ? 10.0 : -14.0);
            else {
                const auto ci = static_cast<std::int64_t>(std::floor(local.x / 6.0));
                const auto cj = static_cast<std::int64_t>(std::floor(local.y / 6.0));
                const double cx = local.x - ci * 6.0, cy = local.y - cj * 6.0;
                if (hashUnit(equipment, ci, cj) < 0.12 && cx < 3.0 && cy < 2.5)
                    c = shade(c, -35.0); // rooftop plant
            }
            canvas.blend(col, row, c, coverage);
        }
    }
}

void paintBuildings(Canvas& canvas)
{
    const auto& buildings = canvas.scene().buildings;
    std::vector<std::uint8_t> shadow(static_cast<std::size_t>(canvas.size()) * canvas.size(), 0);
    for (const Building& b : buildings)
        addShadow(canvas, b, shadow);
    for (int row = 0; row < canvas.size(); ++row)
        for (int col = 0; col < canvas.size(); ++col)
            if (shadow[static_cast<std::size_t>(row) * canvas.size() + col])
                canvas.darken(col, row, 0.55);
    for (std::size_t k = 0; k < buildings.size(); ++k)
        paintRoof(canvas, buildings[k], k);
}

// The elevated expressway: its shadow on the city, then the deck on top.
void paintMotorways(Canvas& canvas)
{
    const RoadLook look = roadLook(RoadType::Motorway);
    for (const Road& road : canvas.scene().roads) {
        if (road.type != RoadType::Motorway)
            continue;
        stampPolyline(canvas, road.points, look.halfWidth, {7.0, 9.0},
                      [&](int col, int row, double, double, double cov, bool) {
                          canvas.darken(col, row, 1.0 - 0.45 * cov);
                      });
        stampPolyline(canvas, road.points, look.halfWidth, {0, 0},
                      [&](int col, int row, double lateral, double along, double cov, bool cap) {
                          const double g = canvas.grain(col, row);
                          const bool barrier = std::abs(lateral) > look.halfWidth - 1.0;
                          canvas.blend(col, row, barrier ? Color{200 + g * 20, 200 + g * 20, 196 + g * 20}
                                                         : shade(asphalt(g), 12.0), cov);
                          if (cap)
                              return;
                          paintMarking(canvas, col, row, lateral, along, 0.0, 0.0, cov);
                          paintMarking(canvas, col, row, lateral, along, 3.6, 4.0, cov);
                          paintMarking(canvas, col, row, lateral, along, -3.6, 4.0, cov);
                          paintMarking(canvas, col, row, lateral, along, 7.4, 0.0, cov);
                          paintMarking(canvas, col, row, lateral, along, -7.4, 0.0, cov);
                      });
    }
}

// Broad tonal variation plus per-pixel sensor noise, then 8-bit quantisation.
std::vector<std::uint8_t> finish(Canvas& canvas)
{
    const DemoScene& s = canvas.scene();
    const std::uint64_t sensor = mix64(s.seed + kSensor);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(canvas.size()) * canvas.size() * 3);
    std::size_t k = 0;
    for (int row = 0; row < canvas.size(); ++row) {
        for (int col = 0; col < canvas.size(); ++col) {
            const double tone = (fieldNoise(s, kTone, canvas.world(col, row), 250.0) - 0.5) * 20.0;
            std::uint64_t h = hashInts(sensor, col, row);
            const float* p = canvas.pixel(col, row);
            for (int c = 0; c < 3; ++c, h >>= 16) {
                // Sum of two 8-bit uniforms: a triangular distribution of +-4 levels.
                const double noise = (static_cast<double>((h & 0xFF) + ((h >> 8) & 0xFF)) - 255.0) / 64.0;
                const double v = std::clamp(p[c] + tone + noise, 0.0, 255.0);
                out[k++] = static_cast<std::uint8_t>(std::floor(v + 0.5));
            }
        }
    }
    return out;
}

} // namespace

std::vector<std::uint8_t> paintOrtho(const DemoScene& scene)
{
    Canvas canvas(scene);
    paintGround(canvas);
    paintStreets(canvas);
    paintBuildings(canvas);
    paintMotorways(canvas);
    return finish(canvas);
}

} // namespace maptune::demo
