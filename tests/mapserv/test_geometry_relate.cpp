// The geometry tests of mapserv's queries: a feature meets a search polygon
// (msIntersect*Polygon), and shape-to-shape distances.

#include "data/geometry_relate.h"

#include <QTest>

using namespace maptune;

namespace {

Geometry wkt(const char* text)
{
    auto g = geometryFromWkt(QString::fromLatin1(text));
    if (!g) qFatal("bad test WKT %s", text);
    return std::move(g).value();
}

}  // namespace

class TestGeometryRelate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void intersects_data()
    {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("area");
        QTest::addColumn<bool>("expected");
        const QString square = QStringLiteral("POLYGON((0 0,10 0,10 10,0 10,0 0))");
        QTest::newRow("point inside") << "POINT(5 5)" << square << true;
        QTest::newRow("point outside") << "POINT(15 5)" << square << false;
        QTest::newRow("line crossing, no vertex inside") << "LINESTRING(-5 5,15 5)" << square << true;
        QTest::newRow("line beside") << "LINESTRING(-5 -5,-5 15)" << square << false;
        QTest::newRow("polygon around the area") << "POLYGON((-5 -5,20 -5,20 20,-5 20,-5 -5))" << square << true;
        QTest::newRow("polygon inside the area") << "POLYGON((2 2,3 2,3 3,2 3,2 2))" << square << true;
        QTest::newRow("polygons crossing as a plus") << "POLYGON((4 -5,6 -5,6 15,4 15,4 -5))" << square << true;
        QTest::newRow("polygon apart") << "POLYGON((20 20,30 20,30 30,20 30,20 20))" << square << false;
        // Even-odd: the area's hole is outside it.
        QTest::newRow("point in a hole") << "POINT(5 5)"
                                         << "POLYGON((0 0,10 0,10 10,0 10,0 0),(3 3,7 3,7 7,3 7,3 3))" << false;
        QTest::newRow("empty shape") << "POINT EMPTY" << square << false;
    }
    void intersects()
    {
        QFETCH(QString, shape);
        QFETCH(QString, area);
        QFETCH(bool, expected);
        auto g = geometryFromWkt(shape);
        if (!g) {  // an empty geometry does not parse into points: nothing to meet
            QVERIFY(!expected);
            return;
        }
        QCOMPARE(intersectsPolygon(*g, wkt(area.toLatin1().constData())), expected);
    }

    void rectGeometryIsAClosedRing()
    {
        const Geometry g = rectGeometry({1, 2, 3, 4});
        QCOMPARE(g.type, Geometry::Type::Polygon);
        QCOMPARE(g.pointCount(), 5);
        QCOMPARE(g.xy.front(), g.xy[8]);
        QVERIFY(containsPoint(g, 2, 3));
        QVERIFY(!containsPoint(g, 0, 3));
    }

    void distances()
    {
        const Geometry square = wkt("POLYGON((0 0,10 0,10 10,0 10,0 0))");
        QCOMPARE(distanceBetween(wkt("POINT(13 5)"), square), 3.0);
        QCOMPARE(distanceBetween(wkt("POINT(5 5)"), square), 0.0);
        QCOMPARE(distanceBetween(wkt("LINESTRING(12 -5,12 15)"), square), 2.0);
        QCOMPARE(distanceBetween(wkt("LINESTRING(0 20,10 20)"), wkt("LINESTRING(0 23,10 24)")), 3.0);
        QCOMPARE(distanceBetween(wkt("LINESTRING(0 0,10 10)"), wkt("LINESTRING(0 10,10 0)")), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestGeometryRelate)
#include "test_geometry_relate.moc"
