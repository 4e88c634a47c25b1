#pragma once
// What a placed label covers, for the label cache's collision test: convex
// polygons (one rotated box, or a box per character of a label that follows
// a line), so that turned and curved labels collide by their real shape
// rather than by their bounding rectangle.

#include <QLineF>
#include <QList>
#include <QPolygonF>
#include <QRectF>

namespace maptune {

class LabelFootprint {
public:
    // `box` must be convex (a rotated rectangle, typically).
    void add(const QPolygonF& box);
    bool isEmpty() const { return m_boxes.isEmpty(); }
    const QRectF& bounds() const { return m_bounds; }
    bool intersects(const LabelFootprint& other) const;
    // Whether `segment` crosses an edge of one of the boxes (a segment wholly
    // inside a box does not: testSegmentLabelBBoxIntersection tests edges).
    bool crossedBy(const QLineF& segment) const;

    // Whether two convex polygons overlap (separating axis test); touching
    // edges do not count.
    static bool convexOverlap(const QPolygonF& a, const QPolygonF& b);

private:
    QList<QPolygonF> m_boxes;
    QList<QRectF> m_boxBounds;
    QRectF m_bounds;
};

// Whether segment `s` meets segment `t`, ends included; collinear overlaps
// count, parallel segments do not (msIntersectSegments).
bool segmentsIntersect(const QLineF& s, const QLineF& t);

}  // namespace maptune
