#include "demo_scene.h"

#include "noise.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <numeric>

namespace maptune::demo {

namespace {

constexpr double kPalaceLon = 139.7528;
constexpr double kPalaceLat = 35.6852;

// Sampled curve t -> world point; runs of samples where keep() holds become
// polylines. Run ends are refined by bisection so that streets end exactly on
// the raster edge or the ring road rather than on the sampling step.
using Curve = std::function<Point(double)>;
using Keep = std::function<bool(Point)>;

double refineEdge(const Curve& curve, const Keep& keep, double inside, double outside)
{
    for (int k = 0; k < 30; ++k) {
        const double mid = 0.5 * (inside + outside);
        (keep(curve(mid)) ? inside : outside) = mid;
    }
    return inside;
}

std::vector<std::vector<Point>> keptRuns(const Curve& curve, const Keep& keep, double t0, double t1,
                                         double step, bool straight)
{
    std::vector<std::vector<Point>> runs;
    std::vector<Point> run;
    double previous = t0;
    bool previousKept = false;
    const int steps = static_cast<int>(std::ceil((t1 - t0) / step));
    for (int k = 0; k <= steps; ++k) {
        const double t = std::min(t1, t0 + k * step);
        const bool kept = keep(curve(t));
        if (kept && !previousKept) {
            const double start = k == 0 ? t : refineEdge(curve, keep, t, previous);
            run = {curve(start)};
            if (start != t)
                run.push_back(curve(t));
        } else if (kept && !straight) {
            run.push_back(curve(t));
        } else if (!kept && previousKept) {
            const double end = refineEdge(curve, keep, previous, t);
            if (straight)
                run.resize(1);
            run.push_back(curve(end));
            runs.push_back(std::move(run));
            run.clear();
        }
        previous = t;
        previousKept = kept;
    }
    if (previousKept) {
        if (straight) {
            run.resize(1);
            run.push_back(curve(previous));
        }
        runs.push_back(std::move(run));
    }
    std::erase_if(runs, [](const std::vector<Point>& r) {
        return r.size() < 2 || std::hypot(r.back().x - r.front().x, r.back().y - r.front().y) < 5.0;
    });
    return runs;
}

const char* const kNamesAlongQ[] = {"Hibiya-dori", "Babasaki-dori", "Naka-dori",
                                    "Chuo-dori",   "Showa-dori",    "Kandabashi-dori"};
const char* const kNamesAlongP[] = {"Eitai-dori",    "Yasukuni-dori", "Harumi-dori",
                                    "Shinjuku-dori", "Aoyama-dori",   "Hakusan-dori"};
const char* const kLandmarks[] = {"Marunouchi Tower",      "Otemachi One", "Kasumigaseki Building",
                                  "Hibiya Plaza",          "Kudan Kaikan", "Takebashi House"};

template <std::size_t N>
const char* pickName(const char* const (&names)[N], std::int64_t index)
{
    const auto n = static_cast<std::int64_t>(N);
    return names[((index % n) + n) % n];
}

void addGridStreets(DemoScene& scene)
{
    const StreetGrid& grid = scene.grid;
    const Keep keep = [&scene](Point p) {
        return scene.extent.contains(p)
            && scene.park.value(p.x - scene.centre.x, p.y - scene.centre.y,
                                scene.park.ringRoadOffset) >= 1.0;
    };
    const double reach = 1500.0;
    for (int axis = 0; axis < 2; ++axis) {
        const double spacing = axis == 0 ? grid.spacingP : grid.spacingQ;
        const auto first = static_cast<std::int64_t>(std::floor(-reach / spacing));
        const auto last = static_cast<std::int64_t>(std::ceil(reach / spacing));
        for (std::int64_t i = first; i <= last; ++i) {
            const double fixed = static_cast<double>(i) * spacing;
            const Curve curve = [&, fixed, axis](double t) {
                const Point g = axis == 0 ? grid.fromGrid(fixed, t) : grid.fromGrid(t, fixed);
                return Point{scene.centre.x + g.x, scene.centre.y + g.y};
            };
            const bool major = axis == 0 ? grid.isMajorP(i) : grid.isMajorQ(i);
            const std::int64_t nameIndex = axis == 0 ? i / 4 : i / 3;
            for (auto& run : keptRuns(curve, keep, -reach, reach, 4.0, true)) {
                Road road;
                road.type = major ? RoadType::Secondary : RoadType::Residential;
                if (major)
                    road.name = axis == 0 ? pickName(kNamesAlongQ, nameIndex)
                                          : pickName(kNamesAlongP, nameIndex);
                road.points = std::move(run);
                scene.roads.push_back(std::move(road));
            }
        }
    }
}

void addRingRoad(DemoScene& scene)
{
    // Four pieces rather than one closed ring: a line layer labels each piece.
    const int samples = 240;
    for (int quarter = 0; quarter < 4; ++quarter) {
        Road road{RoadType::Primary, "Uchibori-dori", {}};
        for (int k = quarter * samples / 4; k <= (quarter + 1) * samples / 4; ++k) {
            const double angle = 2.0 * std::numbers::pi * k / samples + 0.3;
            const Point p = scene.park.boundaryPoint(angle, scene.park.ringRoadOffset);
            road.points.push_back({scene.centre.x + p.x, scene.centre.y + p.y});
        }
        scene.roads.push_back(std::move(road));
    }
}

void addMotorway(DemoScene& scene)
{
    // Close enough to show in the corners of the demo map's 4:3 window.
    const double radius = 1000.0;
    const Curve curve = [&scene, radius](double angle) {
        const double wobble = 25.0 * std::sin(3.0 * angle);
        return Point{scene.centre.x + (radius + wobble) * std::cos(angle),
                     scene.centre.y + (radius + wobble) * std::sin(angle)};
    };
    const Keep keep = [&scene](Point p) { return scene.extent.contains(p); };
    for (auto& run : keptRuns(curve, keep, 0.0, 2.0 * std::numbers::pi, 0.01, false))
        scene.roads.push_back({RoadType::Motorway, "Shuto Expressway C1", std::move(run)});
}

void addFootways(DemoScene& scene, Rng& rng)
{
    const ParkShape& park = scene.park;
    const Point c = scene.centre;
    // The bridge from the forecourt across the moat to the ring road.
    const Curve bridge = [&scene](double r) {
        const double a = -std::numbers::pi / 4.0;
        return Point{scene.plaza.centre.x + r * std::cos(a), scene.plaza.centre.y + r * std::sin(a)};
    };
    const Keep inRing = [&](Point p) { return park.value(p.x - c.x, p.y - c.y, park.ringRoadOffset) < 1.0; };
    const Keep inPlaza = [&scene](Point p) { return scene.plaza.contains(p, 0.0); };
    const double start = refineEdge(bridge, inPlaza, 0.0, 1000.0);
    const double end = refineEdge(bridge, inRing, 0.0, 1000.0);
    scene.roads.push_back({RoadType::Footway, "Nijubashi", {bridge(start), bridge(end)}});

    for (int k = 0; k < 16; ++k) {
        Point p{rng.uniform(-park.a, park.a), rng.uniform(-park.b, park.b)};
        double heading = rng.uniform(0.0, 2.0 * std::numbers::pi);
        const int steps = 10 + rng.below(20);
        const auto blocked = [&](Point local) {
            return park.value(local.x, local.y, -30.0) >= 1.0
                || scene.plaza.contains({c.x + local.x, c.y + local.y}, 15.0);
        };
        if (park.value(p.x, p.y, -60.0) >= 1.0 || blocked(p))
            continue;
        Road path{RoadType::Footway, "", {{c.x + p.x, c.y + p.y}}};
        for (int s = 0; s < steps; ++s) {
            heading += rng.uniform(-0.4, 0.4);
            const Point next{p.x + 12.0 * std::cos(heading), p.y + 12.0 * std::sin(heading)};
            if (blocked(next))
                break;
            p = next;
            path.points.push_back({c.x + p.x, c.y + p.y});
        }
        if (path.points.size() > 2)
            scene.roads.push_back(std::move(path));
    }
}

void addPalaceBuildings(DemoScene& scene)
{
    struct Spec { const char* name; double u, v, halfLength, halfWidth, height; };
    const Spec specs[] = {
        {"Kyuden (Palace Main Hall)", 30, -20, 75, 22, 14},
        {"Chowaden Reception Hall", 30, -100, 80, 14, 10},
        {"Imperial Household Agency", -150, 150, 45, 16, 15},
        {"Fujimi-yagura", 260, -360, 10, 10, 16},
    };
    for (const Spec& s : specs)
        scene.buildings.push_back(
            {s.name, s.height, {{scene.centre.x + s.u, scene.centre.y + s.v}, 0.0, s.halfLength, s.halfWidth}});
}

bool lotFits(const DemoScene& scene, const OrientedRect& rect)
{
    for (const Point& p : rect.corners()) {
        if (!scene.extent.contains(p))
            return false;
        if (scene.park.value(p.x - scene.centre.x, p.y - scene.centre.y, scene.park.ringRoadOffset + 14.0) < 1.0)
            return false;
    }
    return true;
}

void addBlockBuildings(DemoScene& scene, std::int64_t i, std::int64_t j, std::vector<Building>& out)
{
    const StreetGrid& grid = scene.grid;
    const double setback = 3.0;
    const double p0 = i * grid.spacingP + grid.streetWidthP(i) / 2 + setback;
    const double p1 = (i + 1) * grid.spacingP - grid.streetWidthP(i + 1) / 2 - setback;
    const double q0 = j * grid.spacingQ + grid.streetWidthQ(j) / 2 + setback;
    const double q1 = (j + 1) * grid.spacingQ - grid.streetWidthQ(j + 1) / 2 - setback;
    const std::uint64_t h = hashInts(scene.seed ^ 0xB10Cull, i, j);
    const int lotsP = 1 + static_cast<int>(h % 3);
    const int lotsQ = 1 + static_cast<int>((h >> 8) % 3);
    for (int a = 0; a < lotsP; ++a) {
        for (int b = 0; b < lotsQ; ++b) {
            const std::uint64_t lh = hashInts(scene.seed ^ 0x107ull, i * 8 + a, j * 8 + b);
            if (unitFromHash(lh) < 0.08)
                continue; // an open lot: parking or a courtyard
            const double gap = 1.5 + 2.5 * hashUnit(lh, 1);
            const double lp0 = p0 + (p1 - p0) * a / lotsP, lp1 = p0 + (p1 - p0) * (a + 1) / lotsP;
            const double lq0 = q0 + (q1 - q0) * b / lotsQ, lq1 = q0 + (q1 - q0) * (b + 1) / lotsQ;
            const Point g = grid.fromGrid((lp0 + lp1) / 2, (lq0 + lq1) / 2);
            Building building;
            building.footprint = {{scene.centre.x + g.x, scene.centre.y + g.y}, grid.angle,
                                  (lp1 - lp0) / 2 - gap, (lq1 - lq0) / 2 - gap};
            const double tall = hashUnit(lh, 2);
            const double business = g.x > 300.0 ? 25.0 : 0.0; // Marunouchi side is taller
            building.height = std::round((8.0 + 55.0 * tall * tall + business) * 2.0) / 2.0;
            if (building.footprint.halfLength > 3.0 && building.footprint.halfWidth > 3.0
                && lotFits(scene, building.footprint))
                out.push_back(std::move(building));
        }
    }
}

void addCityBuildings(DemoScene& scene)
{
    const double reach = 1500.0;
    const auto iFirst = static_cast<std::int64_t>(std::floor(-reach / scene.grid.spacingP));
    const auto iLast = static_cast<std::int64_t>(std::ceil(reach / scene.grid.spacingP));
    const auto jFirst = static_cast<std::int64_t>(std::floor(-reach / scene.grid.spacingQ));
    const auto jLast = static_cast<std::int64_t>(std::ceil(reach / scene.grid.spacingQ));
    std::vector<Building> city;
    for (std::int64_t i = iFirst; i < iLast; ++i)
        for (std::int64_t j = jFirst; j < jLast; ++j)
            if (!scene.grid.isGreenBlock(i, j))
                addBlockBuildings(scene, i, j, city);

    std::vector<std::size_t> order(city.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&city](std::size_t l, std::size_t r) { return city[l].height > city[r].height; });
    for (std::size_t k = 0; k < std::size(kLandmarks) && k < order.size(); ++k)
        city[order[k]].name = kLandmarks[k];
    scene.buildings.insert(scene.buildings.end(), city.begin(), city.end());
}

} // namespace

const char* roadTypeName(RoadType type)
{
    switch (type) {
    case RoadType::Motorway: return "motorway";
    case RoadType::Primary: return "primary";
    case RoadType::Secondary: return "secondary";
    case RoadType::Residential: return "residential";
    case RoadType::Footway: return "footway";
    }
    return "residential";
}

std::array<Point, 4> OrientedRect::corners() const
{
    const double c = std::cos(angle), s = std::sin(angle);
    const auto at = [&](double l, double w) {
        return Point{centre.x + l * c - w * s, centre.y + l * s + w * c};
    };
    return {at(-halfLength, -halfWidth), at(halfLength, -halfWidth), at(halfLength, halfWidth),
            at(-halfLength, halfWidth)};
}

bool OrientedRect::contains(Point p, double margin) const
{
    const Point local = toLocal(p);
    return std::abs(local.x) < halfLength + margin && std::abs(local.y) < halfWidth + margin;
}

Point OrientedRect::toLocal(Point p) const
{
    const double c = std::cos(angle), s = std::sin(angle);
    const double dx = p.x - centre.x, dy = p.y - centre.y;
    return {dx * c + dy * s, -dx * s + dy * c};
}

double ParkShape::value(double u, double v, double grow) const
{
    const double x = u / (a + grow);
    const double y = v / (b + grow);
    return x * x * x * x + y * y * y * y;
}

Point ParkShape::boundaryPoint(double angle, double grow) const
{
    const double c = std::cos(angle), s = std::sin(angle);
    return {(a + grow) * std::copysign(std::sqrt(std::abs(c)), c),
            (b + grow) * std::copysign(std::sqrt(std::abs(s)), s)};
}

Point StreetGrid::toGrid(double u, double v) const
{
    const double c = std::cos(angle), s = std::sin(angle);
    return {u * c + v * s, -u * s + v * c};
}

Point StreetGrid::fromGrid(double p, double q) const
{
    const double c = std::cos(angle), s = std::sin(angle);
    return {p * c - q * s, p * s + q * c};
}

bool StreetGrid::isGreenBlock(std::int64_t i, std::int64_t j) const
{
    return hashUnit(seed ^ 0x6EE4ull, i, j) < 0.08;
}

DemoScene buildDemoScene(std::uint64_t seed)
{
    DemoScene scene;
    scene.seed = seed;
    const Point palace = lonLatToMercator(kPalaceLon, kPalaceLat);
    scene.centre = {std::round(palace.x), std::round(palace.y)};
    const double half = scene.pixels * scene.pixelSize / 2.0;
    scene.extent = {scene.centre.x - half, scene.centre.y - half, scene.centre.x + half,
                    scene.centre.y + half};
    scene.grid.seed = seed;
    scene.plaza = {{scene.centre.x + 40, scene.centre.y - 60}, 0.0, 170, 110};

    Rng rng(seed);
    addMotorway(scene);
    addRingRoad(scene);
    addGridStreets(scene);
    addFootways(scene, rng);
    addPalaceBuildings(scene);
    addCityBuildings(scene);
    return scene;
}

} // namespace maptune::demo
