// ContourOutline: AGG's conv_contour as MapServer draws text halos with --
// contours offset to the left of their travel (y down), mitred outside.

#include "render/contour_outline.h"

#include <QtTest>

using namespace maptune;

class TestContourOutline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void squareGrowsWithMitredCorners()
    {
        // Clockwise on screen: the left of travel is outside.
        const QPolygonF square({{0, 0}, {10, 0}, {10, 10}, {0, 10}, {0, 0}});
        const QList<QPolygonF> out = ContourOutline::offset({square}, 2);
        QCOMPARE(out.size(), 1);
        QCOMPARE(out.first().boundingRect(), QRectF(-2, -2, 14, 14));
        QCOMPARE(out.first().size(), 4);  // one mitre point per corner
    }

    void reversedContourShrinks()
    {
        // A counter (wound the other way) gets smaller: the glyph's ink grows.
        const QPolygonF hole({{0, 0}, {0, 10}, {10, 10}, {10, 0}});
        QCOMPARE(ContourOutline::offset({hole}, 2).first().boundingRect(), QRectF(2, 2, 6, 6));
    }

    void innerCornerTakesTheCrossing()
    {
        // An L: the concave corner at (5,5) becomes the offset lines' crossing (3,7).
        const QPolygonF l({{0, 0}, {5, 0}, {5, 5}, {10, 5}, {10, 10}, {0, 10}});
        const QPolygonF out = ContourOutline::offset({l}, 2).first();
        QVERIFY2(out.contains(QPointF(7, 3)), qPrintable(QStringLiteral("%1 points").arg(out.size())));
    }

    void sharpSpikeIsCutAtTheMiterLimit()
    {
        // A needle: its tip's mitre would reach far; it is cut at 4 x the distance.
        const QPolygonF needle({{0, 0}, {100, 1}, {0, 2}});
        const QPolygonF out = ContourOutline::offset({needle}, 1).first();
        QVERIFY(out.boundingRect().right() <= 100 + 4 + 1e-9);
        QVERIFY(out.boundingRect().right() > 100);
    }

    void degenerateContoursAreDropped()
    {
        QVERIFY(ContourOutline::offset({QPolygonF({{1, 1}, {1, 1}, {2, 2}})}, 1).isEmpty());
    }
};

QTEST_MAIN(TestContourOutline)
#include "test_contour_outline.moc"
