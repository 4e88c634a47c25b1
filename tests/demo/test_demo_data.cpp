// maptune-demo-data: runs the generator twice into temporary folders and checks
// the files against what the demo map and the engine rely on.

#include "mapfile/map_loader.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <gdal.h>
#include <gdal_alg.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include <cmath>
#include <memory>
#include <numbers>

namespace {

constexpr double kPalaceLon = 139.7528;
constexpr double kPalaceLat = 35.6852;

const char* const kFiles[] = {
    "ortho.tif", "ortho.jp2", "demo.gpkg", "demo.map", "ortho.curves", "fonts.txt",
    "roads.shp", "roads.shx", "roads.dbf", "roads.prj", "roads.cpg", "roads.qix",
    "buildings.shp", "buildings.shx", "buildings.dbf", "buildings.prj", "buildings.cpg", "buildings.qix",
};

struct DatasetCloser
{
    void operator()(void* ds) const { GDALClose(static_cast<GDALDatasetH>(ds)); }
};
using DatasetPtr = std::unique_ptr<void, DatasetCloser>;

QByteArray sha256(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex();
}

// The palace in EPSG:3857 by the spherical Mercator formulas (independent of the generator's code).
QPointF palaceMercator()
{
    const double r = 6378137.0;
    const double x = r * kPalaceLon * std::numbers::pi / 180.0;
    const double y = r * std::log(std::tan(std::numbers::pi / 4.0 + kPalaceLat * std::numbers::pi / 360.0));
    return {x, y};
}

int authorityCode(OGRSpatialReferenceH srs)
{
    if (!srs)
        return 0;
    OGRSpatialReferenceH copy = OSRClone(srs);
    OSRAutoIdentifyEPSG(copy);
    const char* code = OSRGetAuthorityCode(copy, nullptr);
    const int value = code ? QByteArray(code).toInt() : 0;
    OSRDestroySpatialReference(copy);
    return value;
}

} // namespace

class TestDemoData : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_first;
    QTemporaryDir m_second;

    QString path(const char* name) const { return m_first.filePath(QString::fromUtf8(name)); }

    static bool runGenerator(const QString& dir, qint64& elapsedMs, QByteArray& output)
    {
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        QElapsedTimer timer;
        timer.start();
        process.start(QStringLiteral(MAPTUNE_DEMO_DATA_EXE), {dir});
        const bool finished = process.waitForFinished(120000);
        elapsedMs = timer.elapsed();
        output = process.readAll();
        return finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_first.isValid());
        QVERIFY(m_second.isValid());
        GDALAllRegister();
        for (QTemporaryDir* dir : {&m_first, &m_second}) {
            qint64 ms = 0;
            QByteArray output;
            QVERIFY2(runGenerator(dir->path(), ms, output), output.constData());
            qInfo("maptune-demo-data took %lld ms", static_cast<long long>(ms));
        }
    }

    void usageErrorsExitWithTwo()
    {
        QProcess process;
        process.start(QStringLiteral(MAPTUNE_DEMO_DATA_EXE), {});
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitCode(), 2);
        QVERIFY(process.readAllStandardError().contains("usage:"));
    }

    void filesAreIdenticalBetweenRuns_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name : kFiles)
            QTest::newRow(name) << QString::fromUtf8(name);
    }
    void filesAreIdenticalBetweenRuns()
    {
        QFETCH(QString, name);
        const QFileInfo first(m_first.filePath(name));
        QVERIFY2(first.exists(), qPrintable(name + " was not written"));
        QVERIFY(first.size() > 0);
        QCOMPARE(sha256(m_second.filePath(name)), sha256(first.filePath()));
    }

    void orthoIsTiledWithOverviews()
    {
        DatasetPtr ds(GDALOpen(path("ortho.tif").toUtf8().constData(), GA_ReadOnly));
        QVERIFY(ds);
        QCOMPARE(GDALGetRasterCount(ds.get()), 3);
        QCOMPARE(GDALGetRasterXSize(ds.get()), 2048);
        QCOMPARE(GDALGetRasterYSize(ds.get()), 2048);
        GDALRasterBandH band = GDALGetRasterBand(ds.get(), 1);
        QCOMPARE(GDALGetRasterDataType(band), GDT_Byte);
        int bx = 0, by = 0;
        GDALGetBlockSize(band, &bx, &by);
        QCOMPARE(bx, 256);
        QCOMPARE(by, 256);
        QVERIFY(GDALGetOverviewCount(band) >= 4);
        QCOMPARE(GDALGetRasterBandXSize(GDALGetOverview(band, 0)), 1024);
        QCOMPARE(GDALGetRasterBandXSize(GDALGetOverview(band, 3)), 128);
        QCOMPARE(QByteArray(GDALGetMetadataItem(ds.get(), "INTERLEAVE", "IMAGE_STRUCTURE")), QByteArray("PIXEL"));
        QCOMPARE(authorityCode(GDALGetSpatialRef(ds.get())), 3857);

        double gt[6] = {};
        QCOMPARE(GDALGetGeoTransform(ds.get(), gt), CE_None);
        QVERIFY(gt[1] >= 0.5 && gt[1] <= 1.25); // about 1 m per pixel in map units
        const QPointF palace = palaceMercator();
        QVERIFY(palace.x() > gt[0] && palace.x() < gt[0] + 2048 * gt[1]);
        QVERIFY(palace.y() < gt[3] && palace.y() > gt[3] + 2048 * gt[5]);
    }

    // A photo-like image has many distinct colours in every tile, not flat fills.
    void orthoLooksLikeImagery()
    {
        DatasetPtr ds(GDALOpen(path("ortho.tif").toUtf8().constData(), GA_ReadOnly));
        QVERIFY(ds);
        std::vector<unsigned char> rgb(256 * 256 * 3);
        int bands[3] = {1, 2, 3};
        QCOMPARE(GDALDatasetRasterIO(ds.get(), GF_Read, 0, 0, 256, 256, rgb.data(), 256, 256, GDT_Byte, 3, bands,
                                     3, 3 * 256, 1),
                 CE_None);
        QSet<quint32> colours;
        for (std::size_t k = 0; k < rgb.size(); k += 3)
            colours.insert(quint32(rgb[k]) << 16 | quint32(rgb[k + 1]) << 8 | rgb[k + 2]);
        QVERIFY2(colours.size() > 5000, qPrintable(QString::number(colours.size())));
    }

    // Lossless JPEG 2000: same size and the same pixels as the GeoTIFF.
    void jpeg2000IsALosslessCopy()
    {
        DatasetPtr tif(GDALOpen(path("ortho.tif").toUtf8().constData(), GA_ReadOnly));
        DatasetPtr jp2(GDALOpen(path("ortho.jp2").toUtf8().constData(), GA_ReadOnly));
        QVERIFY(tif);
        QVERIFY(jp2);
        QCOMPARE(QByteArray(GDALGetDriverShortName(GDALGetDatasetDriver(jp2.get()))), QByteArray("JP2OpenJPEG"));
        QCOMPARE(GDALGetRasterXSize(jp2.get()), 2048);
        QCOMPARE(GDALGetRasterCount(jp2.get()), 3);
        QCOMPARE(authorityCode(GDALGetSpatialRef(jp2.get())), 3857);
        for (int b = 1; b <= 3; ++b) {
            GDALRasterBandH a = GDALGetRasterBand(tif.get(), b);
            GDALRasterBandH c = GDALGetRasterBand(jp2.get(), b);
            QCOMPARE(GDALChecksumImage(c, 0, 0, 2048, 2048), GDALChecksumImage(a, 0, 0, 2048, 2048));
        }
    }

    void vectorLayers_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("layer");
        QTest::addColumn<QStringList>("fields");
        QTest::addColumn<int>("geometry");
        const QStringList roadFields{"type", "name"};
        const QStringList buildingFields{"name", "height"};
        QTest::newRow("roads.shp") << "roads.shp" << "roads" << roadFields << int(wkbLineString);
        QTest::newRow("buildings.shp") << "buildings.shp" << "buildings" << buildingFields << int(wkbPolygon);
        QTest::newRow("gpkg roads") << "demo.gpkg" << "roads" << roadFields << int(wkbLineString);
        QTest::newRow("gpkg buildings") << "demo.gpkg" << "buildings" << buildingFields << int(wkbPolygon);
    }
    void vectorLayers()
    {
        QFETCH(QString, file);
        QFETCH(QString, layer);
        QFETCH(QStringList, fields);
        QFETCH(int, geometry);
        DatasetPtr ds(GDALOpenEx(m_first.filePath(file).toUtf8().constData(), GDAL_OF_VECTOR, nullptr, nullptr,
                                 nullptr));
        QVERIFY(ds);
        OGRLayerH l = GDALDatasetGetLayerByName(ds.get(), layer.toUtf8().constData());
        QVERIFY(l);
        QVERIFY(OGR_L_GetFeatureCount(l, TRUE) > 10);
        QCOMPARE(int(wkbFlatten(OGR_L_GetGeomType(l))), geometry);
        OGRFeatureDefnH defn = OGR_L_GetLayerDefn(l);
        for (const QString& field : fields)
            QVERIFY2(OGR_FD_GetFieldIndex(defn, field.toUtf8().constData()) >= 0, qPrintable(field));
        QCOMPARE(authorityCode(OGR_L_GetSpatialRef(l)), 4326);
        OGREnvelope box;
        QCOMPARE(OGR_L_GetExtent(l, &box, TRUE), OGRERR_NONE);
        QVERIFY(box.MinX < kPalaceLon && box.MaxX > kPalaceLon);
        QVERIFY(box.MinY < kPalaceLat && box.MaxY > kPalaceLat);
        QVERIFY(box.MaxX - box.MinX < 0.1); // around the palace, not the world
    }

    void roadTypesAreTheFiveClasses()
    {
        DatasetPtr ds(GDALOpenEx(path("roads.shp").toUtf8().constData(), GDAL_OF_VECTOR, nullptr, nullptr, nullptr));
        QVERIFY(ds);
        OGRLayerH l = GDALDatasetGetLayer(ds.get(), 0);
        QSet<QString> types;
        int named = 0;
        OGR_L_ResetReading(l);
        while (OGRFeatureH f = OGR_L_GetNextFeature(l)) {
            types.insert(QString::fromUtf8(OGR_F_GetFieldAsString(f, OGR_F_GetFieldIndex(f, "type"))));
            named += QByteArray(OGR_F_GetFieldAsString(f, OGR_F_GetFieldIndex(f, "name"))).isEmpty() ? 0 : 1;
            OGR_F_Destroy(f);
        }
        QCOMPARE(types, (QSet<QString>{"motorway", "primary", "secondary", "residential", "footway"}));
        QVERIFY(named > 0); // the labels have something to show
    }

    void buildingsHaveHeights()
    {
        DatasetPtr ds(GDALOpenEx(path("demo.gpkg").toUtf8().constData(), GDAL_OF_VECTOR, nullptr, nullptr, nullptr));
        QVERIFY(ds);
        OGRLayerH l = GDALDatasetGetLayerByName(ds.get(), "buildings");
        QVERIFY(l);
        int named = 0, count = 0;
        OGR_L_ResetReading(l);
        while (OGRFeatureH f = OGR_L_GetNextFeature(l)) {
            const double height = OGR_F_GetFieldAsDouble(f, OGR_F_GetFieldIndex(f, "height"));
            const bool hasName = OGR_F_IsFieldSetAndNotNull(f, OGR_F_GetFieldIndex(f, "name"));
            OGR_F_Destroy(f);
            QVERIFY(height > 0.0 && height < 200.0);
            named += hasName ? 1 : 0;
            ++count;
        }
        QVERIFY(named > 0);
        QVERIFY(named < count); // the name is optional
    }

    void shapefilesHaveSpatialIndexAndEncoding_data()
    {
        QTest::addColumn<QString>("base");
        QTest::newRow("roads") << "roads";
        QTest::newRow("buildings") << "buildings";
    }
    void shapefilesHaveSpatialIndexAndEncoding()
    {
        QFETCH(QString, base);
        const QFileInfo qix(m_first.filePath(base + ".qix"));
        QVERIFY(qix.exists());
        QVERIFY(qix.size() > 16);
        QFile cpg(m_first.filePath(base + ".cpg"));
        QVERIFY(cpg.open(QIODevice::ReadOnly));
        QCOMPARE(cpg.readAll().trimmed(), QByteArray("UTF-8"));
    }

    // Two runs on the same day agree even when a file stamps the date, so check
    // the stamps themselves: they must be fixed, not today's.
    void dateStampsAreFixed()
    {
        for (const char* dbf : {"roads.dbf", "buildings.dbf"}) {
            QFile file(path(dbf));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray header = file.read(4);
            QCOMPARE(header.size(), 4);
            // dBASE header bytes 1..3: last update as YY (since 1900), MM, DD.
            QCOMPARE(int(quint8(header[1])), 124);
            QCOMPARE(int(quint8(header[2])), 1);
            QCOMPARE(int(quint8(header[3])), 1);
        }
        DatasetPtr ds(GDALOpenEx(path("demo.gpkg").toUtf8().constData(), GDAL_OF_VECTOR, nullptr, nullptr, nullptr));
        QVERIFY(ds);
        OGRLayerH result = GDALDatasetExecuteSQL(ds.get(), "SELECT DISTINCT CAST(last_change AS TEXT) FROM gpkg_contents", nullptr,
                                                 nullptr);
        QVERIFY(result);
        QStringList stamps;
        while (OGRFeatureH f = OGR_L_GetNextFeature(result)) {
            stamps << QString::fromUtf8(OGR_F_GetFieldAsString(f, 0));
            OGR_F_Destroy(f);
        }
        GDALDatasetReleaseResultSet(ds.get(), result);
        QCOMPARE(stamps, QStringList{QStringLiteral("2024-01-01T00:00:00.000Z")});
    }

    void demoMapLoadsInTheEngine()
    {
        const maptune::LoadResult result = maptune::loadMapFile(path("demo.map"));
        QString problems;
        for (const auto& d : result.diagnostics)
            problems += d.toString() + '\n';
        QVERIFY2(result.ok(), qPrintable(problems));
        if (!problems.isEmpty())
            qInfo("demo.map diagnostics:\n%s", qPrintable(problems));
        QCOMPARE(result.map->name, QStringLiteral("demo"));
        QCOMPARE(result.map->layers.size(), qsizetype(4));
    }

    // MapServer itself (Debian's map2img) must accept and draw the demo map.
    void demoMapRendersInMapServer()
    {
        const QString map2img = QStandardPaths::findExecutable(QStringLiteral("map2img"));
        if (map2img.isEmpty())
            QSKIP("map2img (Debian package mapserver-bin) is not installed");
        const QString png = m_first.filePath(QStringLiteral("map2img.png"));
        QProcess process;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(map2img, {"-m", path("demo.map"), "-o", png});
        QVERIFY(process.waitForFinished(60000));
        QVERIFY2(process.exitCode() == 0, process.readAll().constData());
        const QImage image(png);
        QCOMPARE(image.size(), QSize(800, 600));
        // The centre is the palace forecourt (gravel, light) and the park around it is green.
        const QColor park = image.pixelColor(400, 150);
        QVERIFY2(park.green() > park.red() && park.green() > park.blue(), qPrintable(park.name()));
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY(colours.size() > 2000);
    }
};

QTEST_GUILESS_MAIN(TestDemoData)
#include "test_demo_data.moc"
