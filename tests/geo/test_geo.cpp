// Crs parsing, PROJ transforms in GIS axis order, and MapServer's view maths.

#include "geo/coordinate_transform.h"
#include "geo/crs.h"
#include "geo/map_projection.h"
#include "geo/map_view.h"

#include <QtTest>

using namespace maptune;

class TestGeo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void crsFromProjection_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<bool>("geographic");
        QTest::addColumn<QString>("authId");
        QTest::newRow("init epsg") << QStringList{"init=epsg:4326"} << true << true << "EPSG:4326";
        QTest::newRow("init epsg upper") << QStringList{"+init=EPSG:3857"} << true << false << "EPSG:3857";
        QTest::newRow("plain code") << QStringList{"EPSG:32615"} << true << false << "EPSG:32615";
        QTest::newRow("proj lines") << QStringList{"proj=utm", "zone=15", "datum=WGS84"} << true << false << "";
        QTest::newRow("proj string") << QStringList{"+proj=longlat +datum=WGS84 +no_defs"} << true << true << "";
        QTest::newRow("unknown code") << QStringList{"init=epsg:999999"} << false << false << "";
        QTest::newRow("garbage") << QStringList{"proj=nosuch"} << false << false << "";
    }
    void crsFromProjection()
    {
        QFETCH(QStringList, args);
        QFETCH(bool, valid);
        QFETCH(bool, geographic);
        QFETCH(QString, authId);
        const Result<Crs> crs = Crs::fromProjection(ProjectionDef{args});
        QCOMPARE(crs.ok(), valid);
        if (!valid) {
            QVERIFY(!crs.message().isEmpty());
            return;
        }
        QCOMPARE(crs->isGeographic(), geographic);
        if (!authId.isEmpty()) QCOMPARE(crs->authId(), authId);
    }

    void initFileKeepsItsPath()
    {
        // MapServer maps use "init=./data/epsg2:42304": a PROJ init file, not an authority.
        QTemporaryDir dir;
        QDir().mkpath(dir.filePath("Data"));
        QFile f(dir.filePath("Data/myinit"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("<42304> +proj=lcc +lat_1=49 +lat_2=77 +lat_0=49 +lon_0=-95 +x_0=0 +y_0=0 +datum=NAD83 +units=m +no_defs <>\n");
        f.close();
        const Result<Crs> crs = Crs::fromProjection(ProjectionDef{{"init=" + dir.filePath("Data/myinit") + ":42304"}});
        QVERIFY2(crs, qPrintable(crs.message()));
        QVERIFY(!crs->isGeographic());
    }

    void transformUsesLonLatOrder()
    {
        auto wgs84 = Crs::fromUserInput("EPSG:4326");
        auto merc = Crs::fromUserInput("EPSG:3857");
        QVERIFY(wgs84 && merc);
        const auto made = CoordinateTransform::forThread(*wgs84, *merc);
        QVERIFY2(made, qPrintable(made.message()));
        const std::shared_ptr<CoordinateTransform>& t = *made;
        QVERIFY(!t->isIdentity());
        double x = 139.7528, y = 35.6852;
        QCOMPARE(t->transform(&x, &y, 1), 0);
        // R*lon and R*ln(tan(pi/4+lat/2)) with R = 6378137 (spherical Web Mercator).
        QVERIFY2(qAbs(x - 15557210.533) < 0.01, qPrintable(QString::number(x, 'f', 3)));
        QVERIFY2(qAbs(y - 4257391.387) < 0.01, qPrintable(QString::number(y, 'f', 3)));
    }

    // msProjectRect: samples past an orthographic globe's horizon fail, and
    // the horizon point between the last good one and the first bad one
    // (found to 0.01 m) still counts, so the bounds reach the limb: the
    // meridian 90 degrees from the centre.
    void projectRectReachesTheHorizon()
    {
        const auto ortho = Crs::fromProjection(ProjectionDef{{QStringLiteral("+proj=ortho +datum=WGS84")}});
        const auto wgs84 = Crs::fromUserInput("EPSG:4326");
        QVERIFY(ortho && wgs84);
        const Rect r = projectRect(*ortho, *wgs84, Rect{-10000000, -2500000, 0, 2500000});
        QVERIFY2(qAbs(r.minx - -90) < 0.01, qPrintable(QString::number(r.minx, 'f', 6)));
        QVERIFY2(qAbs(r.maxx) < 1e-6, qPrintable(QString::number(r.maxx, 'f', 6)));
        QVERIFY(r.miny < -22 && r.miny > -24 && r.maxy > 22 && r.maxy < 24);

        const auto made = CoordinateTransform::forThread(*ortho, *wgs84);
        QVERIFY(made);
        const std::optional<QPointF> edge = horizonPoint(**made, QPointF(0, 0), QPointF(-10000000, 0));
        QVERIFY(edge);
        QVERIFY2(qAbs(edge->x() - -90) < 0.01 && qAbs(edge->y()) < 1e-6, qPrintable(QString::number(edge->x(), 'f', 6)));
        QVERIFY(!horizonPoint(**made, QPointF(-9000000, 0), QPointF(-10000000, 0)));
    }

    // A box wider than the world in a projection comes back as the whole
    // world's longitudes, not as more than 360 degrees.
    void projectRectWiderThanTheWorld()
    {
        const auto eqc = Crs::fromProjection(ProjectionDef{{QStringLiteral("+proj=eqc +datum=WGS84 +over")}});
        const auto wgs84 = Crs::fromUserInput("EPSG:4326");
        QVERIFY(eqc && wgs84);
        const Rect r = projectRect(*eqc, *wgs84, Rect{-30000000, -1000000, 30000000, 1000000});
        QCOMPARE(r.minx, -180.0);
        QCOMPARE(r.maxx, 180.0);
    }

    void crs84IsLonLat()
    {
        auto crs84 = Crs::fromUserInput("CRS:84");
        auto wgs84 = Crs::fromUserInput("EPSG:4326");
        QVERIFY(crs84 && wgs84);
        const auto made = CoordinateTransform::forThread(*crs84, *wgs84);
        QVERIFY2(made, qPrintable(made.message()));
        const std::shared_ptr<CoordinateTransform>& t = *made;
        double x = 10, y = 50;
        t->transform(&x, &y, 1);
        QVERIFY(qAbs(x - 10) < 1e-9 && qAbs(y - 50) < 1e-9);
    }

    void centerExtentGrowsToSquarePixels()
    {
        // EXTENT 0.5 0.5 399.5 299.5 at 400x300: one unit per pixel, edges 0..400.
        MapView v = makeMapViewFromCenterExtent({0.5, 0.5, 399.5, 299.5}, 400, 300, Crs(), "METERS", 72);
        QCOMPARE(v.extent.minx, 0.0);
        QCOMPARE(v.extent.maxx, 400.0);
        QCOMPARE(v.extent.miny, 0.0);
        QCOMPARE(v.extent.maxy, 300.0);
        // A square extent in a wide image: widened in x around the centre.
        MapView w = makeMapViewFromCenterExtent({0, 0, 99, 99}, 201, 100, Crs(), "METERS", 72);
        QCOMPARE(w.cellSizeX(), 1.0);
        QCOMPARE(w.cellSizeY(), 1.0);
        QCOMPARE((w.extent.minx + w.extent.maxx) / 2, 49.5);
    }

    void scaleDenominator_data()
    {
        QTest::addColumn<QString>("units");
        QTest::addColumn<double>("cellSize");
        QTest::addColumn<double>("expected");
        // msCalculateScale: cellsize * resolution * inches per unit.
        QTest::newRow("metres") << "METERS" << 1.0 << 72 * 39.3701;
        QTest::newRow("degrees") << "DD" << 0.001 << 0.001 * 72 * 4374754.0;
        QTest::newRow("feet") << "FEET" << 2.0 << 2 * 72 * 12.0;
    }
    void scaleDenominator()
    {
        QFETCH(QString, units);
        QFETCH(double, cellSize);
        QFETCH(double, expected);
        MapView v = makeMapViewFromEdges({0, 0, cellSize * 100, cellSize * 50}, 100, 50, Crs(), units, 72);
        QVERIFY(qAbs(v.scaleDenom - expected) < 1e-6 * expected);
    }
};

QTEST_GUILESS_MAIN(TestGeo)
#include "test_geo.moc"
