// polygonLabelPoint: where MapServer puts a polygon's label (msPolygonLabelPoint).

#include "render/polygon_label_point.h"

#include <QtTest>

using namespace maptune;

namespace {

bool insideRings(QPointF p, const QList<QPolygonF>& rings)
{
    bool in = false;
    for (const QPolygonF& r : rings)
        if (r.containsPoint(p, Qt::OddEvenFill)) in = !in;
    return in;
}

}  // namespace

class TestPolygonLabelPoint : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void convexPolygonUsesItsCentreOfGravity()
    {
        // A right triangle: the centre of gravity (a third of the way in), not the box's centre.
        const QPolygonF t({{0, 0}, {90, 0}, {0, 90}, {0, 0}});
        const std::optional<QPointF> p = polygonLabelPoint({t});
        QVERIFY(p);
        QCOMPARE(*p, QPointF(30, 30));
    }

    void concavePolygonFallsBackToTheLongestSpan()
    {
        // A U: its centre of gravity lies in the gap, outside the polygon.
        const QPolygonF u({{0, 0}, {100, 0}, {100, 100}, {80, 100}, {80, 20}, {20, 20}, {20, 100}, {0, 100}, {0, 0}});
        const std::optional<QPointF> p = polygonLabelPoint({u});
        QVERIFY(p);
        QVERIFY2(insideRings(*p, {u}), qPrintable(QStringLiteral("%1,%2").arg(p->x()).arg(p->y())));
    }

    void holeIsAvoided()
    {
        // A square frame: the centre is in the hole.
        const QPolygonF outer({{0, 0}, {100, 0}, {100, 100}, {0, 100}, {0, 0}});
        const QPolygonF hole({{10, 10}, {10, 90}, {90, 90}, {90, 10}, {10, 10}});
        const std::optional<QPointF> p = polygonLabelPoint({outer, hole});
        QVERIFY(p);
        QVERIFY2(insideRings(*p, {outer, hole}), qPrintable(QStringLiteral("%1,%2").arg(p->x()).arg(p->y())));
    }

    void smallPolygonsAndDegenerateOnesGetNone()
    {
        const QPolygonF small({{0, 0}, {5, 0}, {5, 5}, {0, 5}, {0, 0}});
        QVERIFY(polygonLabelPoint({small}, 6) == std::nullopt);
        QVERIFY(polygonLabelPoint({small}, 4).has_value());
        QVERIFY(polygonLabelPoint({QPolygonF({{0, 0}, {10, 10}, {20, 20}})}) == std::nullopt);  // no area
        QVERIFY(polygonLabelPoint({}) == std::nullopt);
    }
};

QTEST_MAIN(TestPolygonLabelPoint)
#include "test_polygon_label_point.moc"
