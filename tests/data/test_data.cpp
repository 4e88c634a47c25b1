// WKB decoding, the OGR / inline feature sources and the readers' value cache.

#include "data/geometry.h"
#include "data/inline_feature_source.h"
#include "data/ogr_feature_source.h"
#include "data/repeated_values.h"

#include <QtTest>

#include <gdal.h>
#include <ogr_api.h>

using namespace maptune;

namespace {
QByteArray hexToBytes(const char* hex) { return QByteArray::fromHex(hex); }
}  // namespace

class TestData : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void repeatedValuesDecodeOncePerRecentValue()
    {
        // A repeat gives the decoded string without decoding again; any
        // different bytes (longer, shorter, one byte off) are decoded.
        RepeatedValues cache(2);
        int decodes = 0;
        auto decode = [&decodes](QByteArrayView raw) { ++decodes; return QString::fromLatin1(raw); };
        const QList<QByteArray> kinds{"motorway", "trunk", "primary", "motorwax", "motor", "motorway_link", ""};
        for (int round = 0; round < 20; ++round)
            for (const QByteArray& k : kinds) QCOMPARE(cache.value(0, k, decode), QString::fromLatin1(k));
        QCOMPARE(decodes, int(kinds.size()));
        // Columns keep their own values; a column out of range just decodes.
        QCOMPARE(cache.value(1, "trunk", decode), QStringLiteral("trunk"));
        QCOMPARE(cache.value(5, "trunk", decode), QStringLiteral("trunk"));
        QCOMPARE(decodes, int(kinds.size()) + 2);
        // Values too long to keep are decoded every time, and right.
        const QByteArray longValue(100, 'x');
        QCOMPARE(cache.value(0, longValue, decode), QString::fromLatin1(longValue));
        QCOMPARE(cache.value(0, longValue, decode), QString::fromLatin1(longValue));
        QCOMPARE(decodes, int(kinds.size()) + 4);
    }

    void repeatedValuesGiveUpOnUniqueColumns()
    {
        // An id column never repeats: after its trial it is decoded directly,
        // and still right.
        RepeatedValues cache(1);
        int decodes = 0;
        auto decode = [&decodes](QByteArrayView raw) { ++decodes; return QString::fromLatin1(raw); };
        for (int id = 0; id < 500; ++id) {
            const QByteArray raw = QByteArray::number(id);
            QCOMPARE(cache.value(0, raw, decode), QString::number(id));
        }
        QCOMPARE(decodes, 500);
        for (int round = 0; round < 3; ++round) QCOMPARE(cache.value(0, "7", decode), QStringLiteral("7"));
        QCOMPARE(decodes, 503);  // no longer kept
    }

    void initTestCase() { GDALAllRegister(); }

    void wkbDecoding_data()
    {
        QTest::addColumn<QByteArray>("wkb");
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("points");
        QTest::addColumn<int>("parts");
        // POINT(1 2), little endian
        QTest::newRow("point LE") << hexToBytes("0101000000000000000000f03f0000000000000040") << int(Geometry::Type::Point) << 1 << 1;
        // POINT(1 2), big endian
        QTest::newRow("point BE") << hexToBytes("00000000013ff00000000000004000000000000000") << int(Geometry::Type::Point) << 1 << 1;
        // LINESTRING(0 0, 1 1)
        QTest::newRow("line") << hexToBytes("010200000002000000000000000000000000000000000000000000000000000000f03f000000000000f03f")
                              << int(Geometry::Type::Line) << 2 << 1;
        // EWKB POINT with SRID 4326
        QTest::newRow("ewkb srid") << hexToBytes("0101000020E6100000000000000000F03F0000000000000040") << int(Geometry::Type::Point) << 1 << 1;
        // POINT Z (ISO 1001): z dropped
        QTest::newRow("point z") << hexToBytes("01e9030000000000000000f03f00000000000000400000000000000840") << int(Geometry::Type::Point) << 1 << 1;
    }
    void wkbDecoding()
    {
        QFETCH(QByteArray, wkb);
        QFETCH(int, type);
        QFETCH(int, points);
        QFETCH(int, parts);
        Geometry g;
        const Status decoded = decodeWkb(reinterpret_cast<const unsigned char*>(wkb.constData()), size_t(wkb.size()), g);
        QVERIFY2(decoded, qPrintable(decoded.message()));
        QCOMPARE(int(g.type), type);
        QCOMPARE(g.pointCount(), points);
        QCOMPARE(g.partCount(), parts);
        if (type == int(Geometry::Type::Point)) {
            QCOMPARE(g.xy[0], 1.0);
            QCOMPARE(g.xy[1], 2.0);
        }
    }

    void truncatedWkbIsRejected()
    {
        const QByteArray wkb = hexToBytes("010200000002000000000000000000000000000000");  // claims 2 points, has 1
        Geometry g;
        const Status decoded = decodeWkb(reinterpret_cast<const unsigned char*>(wkb.constData()), size_t(wkb.size()), g);
        QVERIFY(!decoded);
        QVERIFY(decoded.message().contains("truncated"));
        QVERIFY(g.isEmpty());
        // A huge ring count must not allocate or read past the end.
        const QByteArray evil = hexToBytes("0103000000ffffff7f");
        QVERIFY(!decodeWkb(reinterpret_cast<const unsigned char*>(evil.constData()), size_t(evil.size()), g));
    }

    void multiPolygonFlattensRings()
    {
        auto g = geometryFromWkt("MULTIPOLYGON(((0 0,10 0,10 10,0 0)),((20 20,30 20,30 30,20 20),(21 21,22 21,22 22,21 21)))");
        QVERIFY(g);
        QCOMPARE(int(g->type), int(Geometry::Type::Polygon));
        QCOMPARE(g->partCount(), 3);
        QCOMPARE(g->pointCount(), 12);
        const Rect b = g->bounds();
        QCOMPARE(b.minx, 0.0);
        QCOMPARE(b.maxy, 30.0);
    }

    void pointQueries_data()
    {
        QTest::addColumn<QString>("wkt");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("y");
        QTest::addColumn<double>("distance");
        QTest::newRow("inside polygon") << "POLYGON((0 0,10 0,10 10,0 10,0 0))" << 5.0 << 5.0 << 0.0;
        QTest::newRow("in the hole") << "POLYGON((0 0,10 0,10 10,0 10,0 0),(4 4,6 4,6 6,4 6,4 4))" << 5.0 << 5.0 << 1.0;
        QTest::newRow("outside polygon") << "POLYGON((0 0,10 0,10 10,0 10,0 0))" << 13.0 << 14.0 << 5.0;
        QTest::newRow("line, perpendicular") << "LINESTRING(0 0,10 0)" << 5.0 << 3.0 << 3.0;
        QTest::newRow("line, past the end") << "LINESTRING(0 0,10 0)" << 13.0 << 4.0 << 5.0;
        QTest::newRow("points") << "MULTIPOINT(0 0,6 8)" << 6.0 << 5.0 << 3.0;
    }
    void pointQueries()
    {
        QFETCH(QString, wkt);
        QFETCH(double, x);
        QFETCH(double, y);
        QFETCH(double, distance);
        auto g = geometryFromWkt(wkt);
        QVERIFY(g);
        QCOMPARE(distanceToPoint(*g, x, y), distance);
        QCOMPARE(containsPoint(*g, x, y), g->type == Geometry::Type::Polygon && distance == 0);
    }

    void inlineSourceFiltersByBbox()
    {
        LayerDef layer;
        layer.name = "pts";
        layer.type = LayerType::Point;
        InlineFeatureDef a;
        a.parts = {{{1, 1}}};
        a.items = "alpha;1";
        InlineFeatureDef b;
        b.wkt = "POINT(50 50)";
        b.items = "beta;2";
        layer.features = {a, b};
        layer.processing = {"ITEMS=name,value"};
        auto created = InlineFeatureSource::create(layer);
        QVERIFY2(created, qPrintable(created.message()));
        const auto src = std::move(created).value();
        QCOMPARE(src->fields(), QStringList({"name", "value"}));
        FeatureQuery q;
        q.bbox = Rect{0, 0, 10, 10};
        auto queried = src->query(q);
        QVERIFY2(queried, qPrintable(queried.message()));
        const auto cursor = std::move(queried).value();
        Feature f;
        QVERIFY(cursor->next(f));
        QCOMPARE(f.values, QStringList({"alpha", "1"}));
        QVERIFY(!cursor->next(f));
    }

    void ogrSourceReadsShapefileWithBboxAndAttributes()
    {
        QTemporaryDir dir;
        const QByteArray path = dir.filePath("lines.shp").toUtf8();
        GDALDriverH drv = GDALGetDriverByName("ESRI Shapefile");
        GDALDatasetH ds = GDALCreate(drv, path.constData(), 0, 0, 0, GDT_Unknown, nullptr);
        OGRLayerH layer = GDALDatasetCreateLayer(ds, "lines", nullptr, wkbLineString, nullptr);
        OGRFieldDefnH fld = OGR_Fld_Create("name", OFTString);
        OGR_L_CreateField(layer, fld, TRUE);
        OGR_Fld_Destroy(fld);
        for (int i = 0; i < 10; ++i) {
            OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(layer));
            OGR_F_SetFieldString(f, 0, QByteArray("road") + QByteArray::number(i));
            QByteArray wkt = QStringLiteral("LINESTRING(%1 0, %1 1)").arg(i * 10).toUtf8();
            char* p = wkt.data();
            OGRGeometryH g = nullptr;
            OGR_G_CreateFromWkt(&p, nullptr, &g);
            OGR_F_SetGeometryDirectly(f, g);
            QCOMPARE(OGR_L_CreateFeature(layer, f), OGRERR_NONE);
            OGR_F_Destroy(f);
        }
        GDALClose(ds);

        auto opened = OgrFeatureSource::open(dir.filePath("lines.shp"), {}, {});
        QVERIFY2(opened, qPrintable(opened.message()));
        const auto src = std::move(opened).value();
        QCOMPARE(src->fields(), QStringList({"name"}));
        FeatureQuery q;
        q.bbox = Rect{15, -1, 35, 2};
        q.attributes = {"NAME"};  // attribute names are case-insensitive
        auto queried = src->query(q);
        QVERIFY2(queried, qPrintable(queried.message()));
        const auto cursor = std::move(queried).value();
        QStringList names;
        Feature f;
        while (cursor->next(f)) {
            names << f.values.value(0);
            QCOMPARE(int(f.geometry.type), int(Geometry::Type::Line));
        }
        QCOMPARE(names, QStringList({"road2", "road3"}));

        // NATIVE_FILTER on a field the styles do not ask for still filters.
        auto filteredOpened = OgrFeatureSource::open(dir.filePath("lines.shp"), {}, "name = 'road7'");
        QVERIFY2(filteredOpened, qPrintable(filteredOpened.message()));
        const auto filtered = std::move(filteredOpened).value();
        FeatureQuery none;
        auto fcQueried = filtered->query(none);
        QVERIFY2(fcQueried, qPrintable(fcQueried.message()));
        const auto fc = std::move(fcQueried).value();
        int count = 0;
        while (fc->next(f)) ++count;
        QCOMPARE(count, 1);

        auto missing = OgrFeatureSource::open(dir.filePath("nope.shp"), {}, {});
        QVERIFY(!missing);
        QVERIFY(missing.message().contains("nope.shp"));
    }
};

QTEST_GUILESS_MAIN(TestData)
#include "test_data.moc"
