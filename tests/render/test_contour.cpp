// CONNECTIONTYPE CONTOUR: lines generated from a raster band through GDAL's
// contour generator, drawn and classified like any line layer.

#include "data/contour/contour_feature_source.h"
#include "data/engine_context.h"
#include "render/feature_source_factory.h"
#include "mapfile/map_loader.h"
#include "mapfile/map_validator.h"
#include "mapfile/map_writer.h"
#include "render/engine.h"
#include "render/map_renderer.h"
#include "render/prepared_map.h"

#include <gdal.h>

#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace maptune;

class TestContour : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void linesAtEveryInterval();
    void drawnAndClassifiedByElevation();
    void intervalsByScale();
    void badSettingsNameTheLayer_data();
    void badSettingsNameTheLayer();
    void writerKeepsTheConnectionType();

private:
    QTemporaryDir m_dir;
    QString m_cone;
};

namespace {

// A 100x100 cone over 0..100 x 0..100: the height is 100 minus the distance
// from (50, 50), so contour c is a circle of radius 100 - c.
bool writeCone(const QString& path)
{
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), path.toUtf8().constData(), 100, 100, 1, GDT_Float32, nullptr);
    if (!ds) return false;
    double gt[6] = {0, 1, 0, 100, 0, -1};
    GDALSetGeoTransform(ds, gt);
    std::vector<float> v(100 * 100);
    for (int y = 0; y < 100; ++y)
        for (int x = 0; x < 100; ++x) v[size_t(y * 100 + x)] = float(100 - std::hypot(x + 0.5 - 50, 49.5 - y));
    const bool ok = GDALRasterIO(GDALGetRasterBand(ds, 1), GF_Write, 0, 0, 100, 100, v.data(), 100, 100, GDT_Float32,
                                 0, 0) == CE_None;
    GDALClose(ds);
    return ok;
}

QByteArray contourMap(const QString& raster, const QByteArray& processing, const QByteArray& classes)
{
    return "MAP\n SIZE 100 100\n EXTENT 0.5 0.5 99.5 99.5\n IMAGECOLOR 255 255 255\n"
           " LAYER\n  NAME \"contours\"\n  TYPE LINE\n  STATUS ON\n  CONNECTIONTYPE CONTOUR\n"
           "  DATA \"" + raster.toUtf8() + "\"\n" + processing + classes + " END\nEND\n";
}

const QByteArray kRed = "  CLASS STYLE COLOR 255 0 0 WIDTH 1 END END\n";

}  // namespace

void TestContour::initTestCase()
{
    initEngine();
    QVERIFY(m_dir.isValid());
    m_cone = m_dir.filePath(QStringLiteral("cone.tif"));
    QVERIFY(writeCone(m_cone));
}

void TestContour::linesAtEveryInterval()
{
    LoadResult loaded = parseMapText(contourMap(m_cone, "  PROCESSING \"CONTOUR_ITEM=elevation\"\n"
                                                        "  PROCESSING \"CONTOUR_INTERVAL=20\"\n", kRed),
                                     m_dir.filePath("c.map"));
    QVERIFY(loaded.ok());
    const EngineContext context;
    auto source = openFeatureSource(*loaded.map, loaded.map->layers.first(), context);
    QVERIFY2(source, qPrintable(source.message()));
    QCOMPARE((*source)->fields(), QStringList({"ID", "elevation"}));
    FeatureQuery q;
    q.bbox = {0, 0, 100, 100};
    q.cellSize = 1;
    auto cursor = (*source)->query(q);
    QVERIFY2(cursor, qPrintable(cursor.message()));
    QMap<QString, int> byLevel;
    Feature f;
    while ((*cursor)->next(f)) {
        ++byLevel[f.values[1]];
        // On its circle: every vertex at distance 100 - level from the top.
        const double r = 100 - f.values[1].toDouble();
        for (int i = 0; i < f.geometry.pointCount(); ++i) {
            const double d = std::hypot(f.geometry.xy[2 * i] - 50, f.geometry.xy[2 * i + 1] - 50);
            QVERIFY2(std::abs(d - r) < 1.0, qPrintable(QStringLiteral("level %1 at distance %2").arg(f.values[1]).arg(d)));
        }
    }
    // The cone is 100 high at the top and ~29 in the corners: circles 60..80 whole, 40 cut by the edges.
    QCOMPARE(byLevel.keys(), QStringList({"40", "60", "80"}));
}

void TestContour::drawnAndClassifiedByElevation()
{
    const QByteArray classes = "  CLASSITEM \"elevation\"\n"
                               "  CLASS EXPRESSION \"80\" STYLE COLOR 0 0 255 WIDTH 1 END END\n" + kRed;
    LoadResult loaded = parseMapText(contourMap(m_cone, "  PROCESSING \"CONTOUR_ITEM=elevation\"\n"
                                                        "  PROCESSING \"CONTOUR_INTERVAL=20\"\n", classes),
                                     m_dir.filePath("c.map"));
    QVERIFY(loaded.ok());
    const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
    // Along the row through the centre: level 80 (radius 20) blue, level 60 (radius 40) red.
    const QImage& image = r.image;
    // Antialiased 1-px lines: a pixel where the wanted channel clearly leads.
    const auto hasColour = [&](int x0, int x1, QColor colour) {
        for (int x = x0; x <= x1; ++x) {
            const QColor c(image.pixel(x, 50));
            const bool blue = c.blue() > 200 && c.red() < 170 && c.green() < 170;
            const bool red = c.red() > 200 && c.blue() < 170 && c.green() < 170;
            if (colour == QColor(0, 0, 255) ? blue : red) return true;
        }
        return false;
    };
    QVERIFY(hasColour(28, 31, QColor(0, 0, 255)));   // x = 50 - 20
    QVERIFY(hasColour(68, 71, QColor(0, 0, 255)));   // x = 50 + 20
    QVERIFY(hasColour(8, 11, QColor(255, 0, 0)));    // x = 50 - 40
    QCOMPARE(QColor(image.pixel(50, 50)), QColor(255, 255, 255));  // the top has no line
}

void TestContour::intervalsByScale()
{
    LoadResult loaded = parseMapText(contourMap(m_cone,
                                                "  PROCESSING \"CONTOUR_INTERVAL=0,5000:10\"\n"
                                                "  PROCESSING \"CONTOUR_INTERVAL=5000,1000000000:50\"\n"
                                                "  PROCESSING \"CONTOUR_LEVELS=1,2\"\n", kRed),
                                     m_dir.filePath("c.map"));
    QVERIFY(loaded.ok());
    auto settings = ContourSettings::fromLayer(loaded.map->layers.first());
    QVERIFY(settings);
    QCOMPARE(settings->intervalAt(1000), std::optional<double>(10));
    QCOMPARE(settings->intervalAt(20000), std::optional<double>(50));
    QCOMPARE(settings->levelsAt(1000), QList<double>({1, 2}));
}

void TestContour::badSettingsNameTheLayer_data()
{
    QTest::addColumn<QByteArray>("processing");
    QTest::addColumn<QString>("message");
    QTest::newRow("no interval or levels") << QByteArray("  PROCESSING \"CONTOUR_ITEM=elevation\"\n")
                                           << QStringLiteral("CONTOUR_INTERVAL");
    QTest::newRow("interval 0") << QByteArray("  PROCESSING \"CONTOUR_INTERVAL=0\"\n")
                                << QStringLiteral("above 0");
    QTest::newRow("a band the raster lacks") << QByteArray("  PROCESSING \"BANDS=4\"\n  PROCESSING \"CONTOUR_INTERVAL=5\"\n")
                                             << QStringLiteral("asks for band 4");
}

void TestContour::badSettingsNameTheLayer()
{
    QFETCH(QByteArray, processing);
    QFETCH(QString, message);
    LoadResult loaded = parseMapText(contourMap(m_cone, processing, kRed), m_dir.filePath("c.map"));
    QVERIFY(loaded.ok());
    const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
    const QString error = r.trace.layers.first().error;
    QVERIFY2(error.contains(QStringLiteral("layer 'contours'")), qPrintable(error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestContour::writerKeepsTheConnectionType()
{
    LoadResult loaded = parseMapText(contourMap(m_cone, "  PROCESSING \"CONTOUR_INTERVAL=20\"\n", kRed),
                                     m_dir.filePath("c.map"));
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.map->layers.first().connectionType, ConnectionType::Contour);
    const QString written = writeMapFile(*loaded.map);
    QVERIFY2(written.contains(QStringLiteral("CONNECTIONTYPE CONTOUR")), qPrintable(written));
    // A missing raster is reported at its DATA value, like any file.
    LoadResult missing = parseMapText(contourMap(m_dir.filePath("nope.tif"), "  PROCESSING \"CONTOUR_INTERVAL=20\"\n", kRed),
                                      m_dir.filePath("c.map"));
    QVERIFY(missing.ok());
    const Diagnostics ds = validateMap(*missing.map);
    QVERIFY(!ds.isEmpty());
    QVERIFY2(ds.first().toString().contains(QStringLiteral("DATA of LAYER 'contours' not found")),
             qPrintable(ds.first().toString()));
}

QTEST_GUILESS_MAIN(TestContour)
#include "test_contour.moc"
