// The server's GDAL block cache budget: small while only cheap-to-decode
// rasters are open, GDAL's default once a JPEG 2000 one is, and a fixed
// limit or GDAL_CACHEMAX left as given.

#include "raster/block_cache_budget.h"
#include "raster/dataset_cache.h"

#include <QTemporaryDir>
#include <QtTest>

#include <gdal.h>

using namespace maptune;

namespace {

// A 64 x 64 one-band raster written by `driver`; empty when it cannot be.
QString writeRaster(const QTemporaryDir& dir, const char* driver, const char* name)
{
    GDALAllRegister();
    GDALDriverH mem = GDALGetDriverByName("MEM"), out = GDALGetDriverByName(driver);
    if (!mem || !out) return {};
    GDALDatasetH src = GDALCreate(mem, "", 64, 64, 1, GDT_Byte, nullptr);
    const QString path = dir.filePath(QString::fromLatin1(name));
    GDALDatasetH copy = GDALCreateCopy(out, path.toUtf8().constData(), src, FALSE, nullptr, nullptr, nullptr);
    GDALClose(src);
    if (!copy) return {};
    GDALClose(copy);
    return path;
}

}  // namespace

class TestBlockCacheBudget : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // The test decides the budget, not the environment it runs in.
        qunsetenv("GDAL_CACHEMAX");
        GDALAllRegister();
        GDALSetCacheMax64(1024LL * 1024 * 1024);
    }

    void waveletDriversAreCostly()
    {
        QVERIFY(BlockCacheBudget::costlyToDecode(QStringLiteral("JP2OpenJPEG")));
        QVERIFY(BlockCacheBudget::costlyToDecode(QStringLiteral("ecw")));
        QVERIFY(!BlockCacheBudget::costlyToDecode(QStringLiteral("GTiff")));
        QVERIFY(!BlockCacheBudget::costlyToDecode(QStringLiteral("PNG")));
    }

    void growsWhenJpeg2000IsOpened()
    {
        QTemporaryDir dir;
        const QString tif = writeRaster(dir, "GTiff", "cheap.tif");
        const QString jp2 = writeRaster(dir, "JP2OpenJPEG", "costly.jp2");
        QVERIFY(!tif.isEmpty());
        QVERIFY2(!jp2.isEmpty(), "Debian's GDAL writes JPEG 2000 through OpenJPEG");

        BlockCacheBudget::startAdaptive();
        QCOMPARE(GDALGetCacheMax64(), BlockCacheBudget::kSmallBytes);
        QVERIFY(DatasetCache::open(tif, {}));
        QCOMPARE(GDALGetCacheMax64(), BlockCacheBudget::kSmallBytes);
        QVERIFY(DatasetCache::open(jp2, {}));
        QCOMPARE(GDALGetCacheMax64(), 1024LL * 1024 * 1024);
        DatasetCache::clear();
    }

    void fixedLimitStays()
    {
        QTemporaryDir dir;
        const QString jp2 = writeRaster(dir, "JP2OpenJPEG", "costly.jp2");
        QVERIFY(!jp2.isEmpty());
        BlockCacheBudget::setFixed(16LL * 1024 * 1024);
        QVERIFY(DatasetCache::open(jp2, {}));
        QCOMPARE(GDALGetCacheMax64(), 16LL * 1024 * 1024);
        DatasetCache::clear();
    }

    void gdalCacheMaxIsTheAdministratorsChoice()
    {
        GDALSetCacheMax64(512LL * 1024 * 1024);
        qputenv("GDAL_CACHEMAX", "512");
        BlockCacheBudget::startAdaptive();
        QCOMPARE(GDALGetCacheMax64(), 512LL * 1024 * 1024);
        qunsetenv("GDAL_CACHEMAX");
    }
};

QTEST_GUILESS_MAIN(TestBlockCacheBudget)
#include "test_block_cache_budget.moc"
