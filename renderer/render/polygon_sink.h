#pragma once
// Where shape builders (stroke outlines) put their polygons: a path for
// QPainter, or the coverage rasterizer directly.

#include <QPointF>

namespace maptune {

class PolygonSink {
public:
    virtual ~PolygonSink() = default;
    // A closed ring of `count` points (the closing edge is implied).
    virtual void addPolygon(const QPointF* points, int count) = 0;
};

}  // namespace maptune
