// CONNECTIONTYPE UVRASTER: points every UV_SPACING map pixels carrying the
// direction and length of a raster's u/v vectors, drawn as arrows.

#include "data/engine_context.h"
#include "render/feature_source_factory.h"
#include "raster/uv_raster_feature_source.h"
#include "mapfile/map_loader.h"
#include "mapfile/map_writer.h"
#include "render/engine.h"
#include "render/map_renderer.h"
#include "render/prepared_map.h"

#include <gdal.h>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace maptune;

namespace {

// 40 x 20 cells over 0..40 x 0..20: u = 1, v = 1 (north-east), the left
// half nodata (-1) in both bands.
bool writeWind(const QString& path)
{
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), path.toUtf8().constData(), 40, 20, 2, GDT_Float32, nullptr);
    if (!ds) return false;
    double gt[6] = {0, 1, 0, 20, 0, -1};
    GDALSetGeoTransform(ds, gt);
    std::vector<float> values(40 * 20);
    bool ok = true;
    for (int band = 1; band <= 2; ++band) {
        for (int y = 0; y < 20; ++y)
            for (int x = 0; x < 40; ++x) values[size_t(y * 40 + x)] = x < 20 ? -1.0f : 1.0f;
        GDALRasterBandH b = GDALGetRasterBand(ds, band);
        GDALSetRasterNoDataValue(b, -1);
        ok = ok && GDALRasterIO(b, GF_Write, 0, 0, 40, 20, values.data(), 40, 20, GDT_Float32, 0, 0) == CE_None;
    }
    GDALClose(ds);
    return ok;
}

QByteArray uvMap(const QString& raster, const QByteArray& processing)
{
    return "MAP\n SIZE 40 20\n EXTENT 0.5 0.5 39.5 19.5\n IMAGECOLOR 255 255 255\n"
           " SYMBOL NAME \"arrow\" TYPE VECTOR FILLED TRUE POINTS 0 -1 6 -1 6 -2 10 0 6 2 6 1 0 1 0 -1 END END\n"
           " LAYER\n  NAME \"wind\"\n  TYPE POINT\n  STATUS ON\n  CONNECTIONTYPE UVRASTER\n"
           "  DATA \"" + raster.toUtf8() + "\"\n" + processing +
           "  CLASS STYLE SYMBOL \"arrow\" ANGLE [uv_angle] SIZE 4 COLOR 255 0 0 END END\n END\nEND\n";
}

}  // namespace

class TestUvRaster : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_wind;

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        QVERIFY(m_dir.isValid());
        m_wind = m_dir.filePath(QStringLiteral("wind.tif"));
        QVERIFY(writeWind(m_wind));
    }

    void pointsOnTheMapGrid()
    {
        LoadResult loaded = parseMapText(uvMap(m_wind, "  PROCESSING \"BANDS=1,2\"\n  PROCESSING \"UV_SPACING=10\"\n"
                                                       "  PROCESSING \"UV_SIZE_SCALE=2\"\n"),
                                         m_dir.filePath("w.map"));
        QVERIFY(loaded.ok());
        const EngineContext context;
        auto source = openFeatureSource(*loaded.map, loaded.map->layers.first(), context);
        QVERIFY2(source, qPrintable(source.message()));
        QCOMPARE((*source)->fields(), QStringList({"uv_angle", "uv_minus_angle", "uv_length", "uv_length_2", "u", "v"}));
        FeatureQuery q;
        q.view = FeatureQuery::View{{0, 0, 40, 20}, 40, 20, Crs()};
        auto cursor = (*source)->query(q);
        QVERIFY2(cursor, qPrintable(cursor.message()));
        // 4 x 2 blocks of 10 pixels; the left half has no data.
        QList<QPointF> points;
        Feature f;
        while ((*cursor)->next(f)) {
            points << QPointF(f.geometry.xy[0], f.geometry.xy[1]);
            QCOMPARE(f.values, QStringList({"45.000000", "225.000000", "2.828427", "1.414214", "1.000000", "1.000000"}));
        }
        // MapServer's cell comes from the extent of the corner pixels'
        // centres over pixels - 1 (MS_CELLSIZE: 39 / 39 = 1 here), the grid
        // from the lower left: x = 0.5 - 0.5 + 5 + i x 10, likewise y.
        QCOMPARE(points.size(), 4);
        const auto near = [](double a, double b) { return std::abs(a - b) < 1e-9; };
        for (const QPointF& p : points) {
            QVERIFY2(near(p.x(), 25) || near(p.x(), 35), qPrintable(QString::number(p.x(), 'g', 10)));
            QVERIFY2(near(p.y(), 5) || near(p.y(), 15), qPrintable(QString::number(p.y(), 'g', 10)));
        }
    }

    void nonSquarePixelsLayTheGridOverTheImageEdges()
    {
        // Drawing with non-square pixels MapServer's map extent is its faked
        // one, the image's edges (0..40 x 0..20 here): the cell is
        // max(40 / 39, 20 / 19) x 10, the grid starts half a pixel and half a cell in.
        LoadResult loaded = parseMapText(uvMap(m_wind, "  PROCESSING \"BANDS=1,2\"\n  PROCESSING \"UV_SPACING=10\"\n"),
                                         m_dir.filePath("w.map"));
        QVERIFY(loaded.ok());
        const EngineContext context;
        auto source = openFeatureSource(*loaded.map, loaded.map->layers.first(), context);
        QVERIFY2(source, qPrintable(source.message()));
        FeatureQuery q;
        q.view = FeatureQuery::View{{0, 0, 40, 20}, 40, 20, Crs(), true};
        auto cursor = (*source)->query(q);
        QVERIFY2(cursor, qPrintable(cursor.message()));
        const double mapCell = 20.0 / 19, cell = 10 * mapCell, first = -mapCell / 2 + cell / 2;
        QList<double> xs, ys;
        Feature f;
        while ((*cursor)->next(f)) xs << f.geometry.xy[0], ys << f.geometry.xy[1];
        // Columns 1 to 3: column 1's cell (about 10..20.5) reaches the data east of 20.
        QCOMPARE(xs.size(), 6);
        for (double x : xs)
            QVERIFY2(qFuzzyCompare(x, first + cell) || qFuzzyCompare(x, first + 2 * cell) || qFuzzyCompare(x, first + 3 * cell),
                     qPrintable(QString::number(x)));
        for (double y : ys) QVERIFY2(qFuzzyCompare(y, first) || qFuzzyCompare(y, first + cell), qPrintable(QString::number(y)));
    }

    void featureInfoOnTheViewsGrid()
    {
        // GetFeatureInfo passes the view clicked: the points are those drawn.
        LoadResult loaded = parseMapText(uvMap(m_wind, "  PROCESSING \"BANDS=1,2\"\n  PROCESSING \"UV_SPACING=10\"\n"
                                                       "  TOLERANCE 3\n"),
                                         m_dir.filePath("w.map"));
        QVERIFY(loaded.ok());
        const PreparedMapPtr prepared = PreparedMap::prepare(loaded.map);
        PointQuery q;
        q.x = 26, q.y = 14;
        q.cellSize = 1;
        q.maxFeatures = 10;
        q.view = FeatureQuery::View{{0, 0, 40, 20}, 40, 20, Crs()};
        const PointQueryResult r = prepared->layer(0).queryPoint(q);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.features.size(), 1);
        QCOMPARE(r.features[0].geometry.xy[0], 25.0);
        QCOMPARE(r.features[0].geometry.xy[1], 15.0);
        QCOMPARE(r.features[0].values[0], QStringLiteral("45.000000"));
    }

    void drawnAsArrows()
    {
        LoadResult loaded = parseMapText(uvMap(m_wind, "  PROCESSING \"UV_SPACING=10\"\n"), m_dir.filePath("w.map"));
        QVERIFY(loaded.ok());
        const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
        QVERIFY2(r.error.isEmpty() && r.trace.layers.first().error.isEmpty(), qPrintable(r.error + r.trace.layers.first().error));
        QCOMPARE(r.trace.layers.first().features, 4);
        int redRight = 0, redLeft = 0;
        for (int y = 0; y < 20; ++y)
            for (int x = 0; x < 40; ++x)
                if (QColor(r.image.pixel(x, y)).red() > 200 && QColor(r.image.pixel(x, y)).green() < 100) (x < 20 ? redLeft : redRight)++;
        QVERIFY(redRight > 10);
        QCOMPARE(redLeft, 0);
    }

    void badSettingsNameTheLayer_data()
    {
        QTest::addColumn<QByteArray>("processing");
        QTest::addColumn<QString>("message");
        QTest::newRow("one band") << QByteArray("  PROCESSING \"BANDS=1\"\n") << QStringLiteral("reads two bands");
        QTest::newRow("a band the raster lacks") << QByteArray("  PROCESSING \"BANDS=1,3\"\n") << QStringLiteral("has 2 band(s)");
        QTest::newRow("spacing 0") << QByteArray("  PROCESSING \"UV_SPACING=0\"\n") << QStringLiteral("UV_SPACING=0");
        QTest::newRow("size scale") << QByteArray("  PROCESSING \"UV_SIZE_SCALE=big\"\n") << QStringLiteral("not a number");
    }
    void badSettingsNameTheLayer()
    {
        QFETCH(QByteArray, processing);
        QFETCH(QString, message);
        LoadResult loaded = parseMapText(uvMap(m_wind, processing), m_dir.filePath("w.map"));
        QVERIFY(loaded.ok());
        const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
        const QString error = r.trace.layers.first().error;
        QVERIFY2(error.contains(QStringLiteral("layer 'wind'")) && error.contains(message), qPrintable(error));
    }

    void lonWrapSwapsTheHemispheres()
    {
        // 0..360 longitudes, no georeferencing (the EXTENT places it): u = 1
        // west of 180 (the eastern hemisphere), u = -1 beyond (the western).
        const QString path = m_dir.filePath(QStringLiteral("wrap.tif"));
        GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), path.toUtf8().constData(), 36, 18, 2, GDT_Float32, nullptr);
        QVERIFY(ds);
        std::vector<float> u(36 * 18), v(36 * 18, 0.0f);
        for (int y = 0; y < 18; ++y)
            for (int x = 0; x < 36; ++x) u[size_t(y * 36 + x)] = x < 18 ? 1.0f : -1.0f;
        QCOMPARE(GDALRasterIO(GDALGetRasterBand(ds, 1), GF_Write, 0, 0, 36, 18, u.data(), 36, 18, GDT_Float32, 0, 0), CE_None);
        QCOMPARE(GDALRasterIO(GDALGetRasterBand(ds, 2), GF_Write, 0, 0, 36, 18, v.data(), 36, 18, GDT_Float32, 0, 0), CE_None);
        GDALClose(ds);
        const QByteArray map = "MAP\n SIZE 360 180\n EXTENT -180 -90 180 90\n PROJECTION \"init=epsg:4326\" END\n"
                               " LAYER\n  NAME \"wind\"\n  TYPE POINT\n  STATUS ON\n  CONNECTIONTYPE UVRASTER\n"
                               "  DATA \"" + path.toUtf8() + "\"\n  EXTENT 0 -90 360 90\n"
                               "  PROCESSING \"BANDS=1,2\"\n  PROCESSING \"UV_SPACING=60\"\n"
                               "  PROJECTION \"proj=longlat\" \"datum=WGS84\" \"lon_wrap=180\" END\n"
                               "  CLASS STYLE COLOR 255 0 0 END END\n END\nEND\n";
        LoadResult loaded = parseMapText(map, m_dir.filePath("wrap.map"));
        QVERIFY(loaded.ok());
        const EngineContext context;
        auto source = openFeatureSource(*loaded.map, loaded.map->layers.first(), context);
        QVERIFY2(source, qPrintable(source.message()));
        FeatureQuery q;
        q.view = FeatureQuery::View{{-180, -90, 180, 90}, 360, 180, *Crs::fromUserInput(QStringLiteral("EPSG:4326"))};
        auto cursor = (*source)->query(q);
        QVERIFY2(cursor, qPrintable(cursor.message()));
        int west = 0, east = 0;
        Feature f;
        while ((*cursor)->next(f)) {
            const double x = f.geometry.xy[0];
            QVERIFY2(x > -180 && x < 180, qPrintable(QString::number(x)));
            // West of Greenwich the raster's second half (u = -1) shows.
            if (x < -5) {
                QCOMPARE(f.values[4], QStringLiteral("-1.000000"));
                ++west;
            } else if (x > 5) {
                QCOMPARE(f.values[4], QStringLiteral("1.000000"));
                ++east;
            }
        }
        // 6 x 3 points (360 / 60 by 180 / 60), half of them each side.
        QCOMPARE(west, 9);
        QCOMPARE(east, 9);
    }

    void writerKeepsTheConnectionType()
    {
        LoadResult loaded = parseMapText(uvMap(m_wind, {}), m_dir.filePath("w.map"));
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.map->layers.first().connectionType, ConnectionType::UVRaster);
        QVERIFY(writeMapFile(*loaded.map).contains(QStringLiteral("CONNECTIONTYPE UVRASTER")));
    }
};

QTEST_GUILESS_MAIN(TestUvRaster)
#include "test_uv_raster.moc"
