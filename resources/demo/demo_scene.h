#pragma once

// The synthetic neighbourhood of the Tokyo Imperial Palace that all demo files
// are made from. The orthophoto is painted from the same roads and buildings
// that are written as vectors, so the layers line up in the demo map.
// Coordinates are EPSG:3857 metres unless a name says otherwise.

#include "mercator.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace maptune::demo {

enum class RoadType { Motorway, Primary, Secondary, Residential, Footway };

const char* roadTypeName(RoadType type);

struct Road
{
    RoadType type = RoadType::Residential;
    std::string name;
    std::vector<Point> points;
};

// A rectangle turned by `angle` radians around its centre; buildings are boxes.
struct OrientedRect
{
    Point centre;
    double angle = 0;
    double halfLength = 0;
    double halfWidth = 0;

    std::array<Point, 4> corners() const; // counter-clockwise
    bool contains(Point p, double margin) const;
    // Position in the rectangle's own axes (s along the length, t across).
    Point toLocal(Point p) const;
};

struct Building
{
    std::string name;
    double height = 0;
    OrientedRect footprint;
};

struct Extent
{
    double minX = 0;
    double minY = 0;
    double maxX = 0;
    double maxY = 0;

    bool contains(Point p) const { return p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY; }
};

// Palace grounds: a super-ellipse |u/a|^4 + |v/b|^4 = 1 around the centre, ringed
// by the moat, a garden belt and the ring road.
struct ParkShape
{
    double a = 430;
    double b = 540;
    double moatWidth = 45;
    double ringRoadOffset = 70; // from the park edge to the ring road's centre line

    // < 1 inside the park grown by `grow` metres on each axis.
    double value(double u, double v, double grow) const;
    Point boundaryPoint(double angle, double grow) const;
};

// The rotated street grid of the city around the park.
struct StreetGrid
{
    double angle = 0.17; // radians
    double spacingP = 110;
    double spacingQ = 90;
    std::uint64_t seed = 0;

    Point toGrid(double u, double v) const;
    Point fromGrid(double p, double q) const;
    bool isMajorP(std::int64_t i) const { return i % 4 == 0; }
    bool isMajorQ(std::int64_t j) const { return j % 3 == 0; }
    double streetWidthP(std::int64_t i) const { return isMajorP(i) ? 14.0 : 8.0; }
    double streetWidthQ(std::int64_t j) const { return isMajorQ(j) ? 14.0 : 8.0; }
    bool isGreenBlock(std::int64_t i, std::int64_t j) const;
};

struct DemoScene
{
    std::uint64_t seed = 0;
    Point centre;          // the palace, rounded to whole metres
    Extent extent;         // of the orthophoto
    int pixels = 2048;     // orthophoto width = height
    double pixelSize = 1.0;
    ParkShape park;
    StreetGrid grid;
    OrientedRect plaza;    // gravel forecourt of the palace
    std::vector<Road> roads;
    std::vector<Building> buildings;
};

DemoScene buildDemoScene(std::uint64_t seed);

} // namespace maptune::demo
