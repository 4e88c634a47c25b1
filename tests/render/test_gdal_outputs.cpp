// Maps written through GDAL (msSaveImageGDAL): raw band values in an
// OUTPUTFORMAT with IMAGEMODE INT16 / FLOAT32 / BYTE, the built-in GTiff
// with the map's georeferencing, and the errors a bad GDAL format gives.
// Every output is read back with GDAL itself.

#include "encode/output_format.h"
#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/map_renderer.h"

#include <cpl_vsi.h>
#include <gdal.h>

#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace maptune;

namespace {

// A 4 x 2 Float32 GeoTIFF over x 0..4, y 0..2, values 1.4, 2.5, ... and a no-data 24.
QString makeRaster(const QString& dir)
{
    const QString path = dir + QStringLiteral("/values.tif");
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("GTiff"), path.toUtf8().constData(), 4, 2, 1, GDT_Float32, nullptr);
    double gt[6] = {0, 1, 0, 2, 0, -1};
    GDALSetGeoTransform(ds, gt);
    float values[8] = {1.4f, 2.5f, -3.5f, 24, 5, 6, 7, 8};
    GDALRasterBandH band = GDALGetRasterBand(ds, 1);
    GDALSetRasterNoDataValue(band, 24);
    if (GDALRasterIO(band, GF_Write, 0, 0, 4, 2, values, 4, 2, GDT_Float32, 0, 0) != CE_None) return {};
    GDALClose(ds);
    return path;
}

struct Opened {
    GDALDatasetH ds = nullptr;
    QByteArray path;
    ~Opened()
    {
        if (ds) GDALClose(ds);
        VSIUnlink(path.constData());
    }
};

std::unique_ptr<Opened> openBytes(const QByteArray& bytes, const char* name)
{
    auto o = std::make_unique<Opened>();
    o->path = QByteArray("/vsimem/test_gdal_outputs_") + name;
    VSILFILE* f = VSIFileFromMemBuffer(o->path.constData(), reinterpret_cast<GByte*>(const_cast<char*>(bytes.constData())),
                                       vsi_l_offset(bytes.size()), FALSE);
    VSIFCloseL(f);
    o->ds = GDALOpen(o->path.constData(), GA_ReadOnly);
    return o;
}

RenderResult renderText(const QByteArray& text, const QString& format = {})
{
    LoadResult loaded = parseMapText(text, QStringLiteral("/tmp/gdal_outputs.map"));
    if (!loaded.ok()) return {};
    RenderRequest req;
    req.format = format;
    return MapRenderer(loaded.map).render(req);
}

}  // namespace

class TestGdalOutputs : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QByteArray m_raster;

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        m_raster = makeRaster(m_dir.path()).toUtf8();
        QVERIFY(!m_raster.isEmpty());
    }

    // INT16 raw mode: values rounded as GDAL reads them into 16 bits, the
    // no-data pixel left at NULLVALUE, as AAIGrid text; a vector layer draws nothing.
    void rawInt16AsciiGrid()
    {
        const QByteArray text = "MAP SIZE 4 2 EXTENT 0.5 0.5 3.5 1.5\n"
                                " OUTPUTFORMAT NAME 'grid' DRIVER 'GDAL/AAIGRID' IMAGEMODE INT16 FORMATOPTION 'NULLVALUE=-99' END\n"
                                " LAYER NAME 'v' TYPE RASTER STATUS DEFAULT DATA '" + m_raster + "' END\n"
                                " LAYER NAME 'pts' TYPE POINT STATUS DEFAULT FEATURE POINTS 1 1 END END CLASS STYLE COLOR 0 0 0 END END END\n"
                                "END\n";
        const RenderResult r = renderText(text);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.bytes.startsWith("ncols        4"));
        QVERIFY2(r.bytes.contains("NODATA_value -99"), r.bytes.constData());
        const auto o = openBytes(r.bytes, "int16.asc");
        QVERIFY(o->ds);
        QVERIFY(!GDALDataTypeIsFloating(GDALGetRasterDataType(GDALGetRasterBand(o->ds, 1))));  // the grid holds integers
        int values[8];
        QCOMPARE(GDALRasterIO(GDALGetRasterBand(o->ds, 1), GF_Read, 0, 0, 4, 2, values, 4, 2, GDT_Int32, 0, 0), CE_None);
        const int expected[8] = {1, 3, -4, -99, 5, 6, 7, 8};  // halves away from zero; 24 is no-data
        for (int i = 0; i < 8; ++i) QCOMPARE(values[i], expected[i]);
        double gt[6];
        GDALGetGeoTransform(o->ds, gt);
        QCOMPARE(gt[0], 0.0);
        QCOMPARE(gt[1], 1.0);
        QVERIFY(r.warnings.join(QLatin1Char('\n')).contains(QLatin1String("layer 'pts'")));
        // The workbench's canvas (no encoding) still gets a picture of the map.
        LoadResult loaded = parseMapText(text, QStringLiteral("/tmp/gdal_outputs.map"));
        RenderRequest canvas;
        canvas.encode = false;
        const RenderResult drawn = MapRenderer(loaded.map).render(canvas);
        QVERIFY2(drawn.ok(), qPrintable(drawn.error));
        QCOMPARE(drawn.image.size(), QSize(4, 2));
    }

    // FLOAT32 through BILINEAR resampling keeps fractions; BAND_COUNT 2 repeats the band count asked.
    void rawFloat32Bands()
    {
        const QByteArray text = "MAP SIZE 4 2 EXTENT 0.5 0.5 3.5 1.5\n"
                                " OUTPUTFORMAT NAME 'f' DRIVER 'GDAL/GTiff' IMAGEMODE FLOAT32 FORMATOPTION 'BAND_COUNT=2' END\n"
                                " LAYER NAME 'v' TYPE RASTER STATUS DEFAULT DATA '" + m_raster + "' PROCESSING 'BANDS=1,1' END\n"
                                "END\n";
        const RenderResult r = renderText(text);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const auto o = openBytes(r.bytes, "float.tif");
        QVERIFY(o->ds);
        QCOMPARE(GDALGetRasterCount(o->ds), 2);
        QCOMPARE(GDALGetRasterDataType(GDALGetRasterBand(o->ds, 2)), GDT_Float32);
        float first = 0;
        QCOMPARE(GDALRasterIO(GDALGetRasterBand(o->ds, 2), GF_Read, 0, 0, 1, 1, &first, 1, 1, GDT_Float32, 0, 0), CE_None);
        QCOMPARE(first, 1.4f);
    }

    // The built-in GTiff: the drawn image as RGB with the map's geotransform.
    void gtiffImage()
    {
        const QByteArray text = "MAP SIZE 4 2 EXTENT 0.5 0.5 3.5 1.5 IMAGECOLOR 10 20 30\n"
                                " PROJECTION 'init=epsg:32631' END\nEND\n";
        const RenderResult r = renderText(text, QStringLiteral("image/tiff"));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.mimeType, QStringLiteral("image/tiff"));
        const auto o = openBytes(r.bytes, "image.tif");
        QVERIFY(o->ds);
        QCOMPARE(GDALGetRasterCount(o->ds), 3);
        unsigned char px[3];
        for (int b = 0; b < 3; ++b)
            QCOMPARE(GDALRasterIO(GDALGetRasterBand(o->ds, b + 1), GF_Read, 1, 1, 1, 1, px + b, 1, 1, GDT_Byte, 0, 0), CE_None);
        QCOMPARE(int(px[0]), 10);
        QCOMPARE(int(px[2]), 30);
        QVERIFY(QByteArray(GDALGetProjectionRef(o->ds)).contains("32631"));
    }

    void badFormats_data()
    {
        QTest::addColumn<QByteArray>("outputFormat");
        QTest::addColumn<QString>("message");
        QTest::newRow("no such driver") << QByteArray("DRIVER 'GDAL/NoSuchDriver' IMAGEMODE INT16") << "is not supported by MapTune";
        QTest::newRow("band count") << QByteArray("DRIVER 'GDAL/GTiff' IMAGEMODE BYTE FORMATOPTION 'BAND_COUNT=zero'") << "BAND_COUNT=zero";
    }
    void badFormats()
    {
        QFETCH(QByteArray, outputFormat);
        QFETCH(QString, message);
        const RenderResult r = renderText("MAP SIZE 4 2 EXTENT 0 0 4 2 OUTPUTFORMAT NAME 'x' " + outputFormat + " END END\n", QStringLiteral("x"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(message), qPrintable(r.error));
    }
};

QTEST_GUILESS_MAIN(TestGdalOutputs)
#include "test_gdal_outputs.moc"
