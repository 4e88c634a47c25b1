// The raster advisor and its actions: layouts read back with GDAL, advice for
// a striped tiff without overviews versus a tiled one with overviews, JPEG
// 2000, tile indexes expanded; overviews (internal and external) and
// conversions that never touch the source and leave nothing behind when cancelled.

#include "loadtest/raster_advisor.h"
#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "test_fixtures.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>


using namespace maptune;
using testdata::RasterLayout;

Q_DECLARE_METATYPE(maptune::RasterAction)

namespace {

bool hasAdvice(const QList<RasterAdvice>& advice, AdviceLevel level, const QString& text)
{
    for (const RasterAdvice& a : advice)
        if (a.level == level && a.message.contains(text)) return true;
    return false;
}

int count(const QList<RasterAdvice>& advice, AdviceLevel level)
{
    return int(std::count_if(advice.begin(), advice.end(), [&](const RasterAdvice& a) { return a.level == level; }));
}

}  // namespace

class TestRasterAdvisor : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString path(const QString& name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        QVERIFY(m_dir.isValid());
    }

    void inspectLayouts_data()
    {
        QTest::addColumn<bool>("tiled");
        QTest::addColumn<bool>("overviews");
        QTest::addColumn<QString>("compress");
        QTest::newRow("striped") << false << false << "NONE";
        QTest::newRow("tiled + overviews") << true << true << "DEFLATE";
        QTest::newRow("tiled, LZW") << true << false << "LZW";
    }
    void inspectLayouts()
    {
        QFETCH(bool, tiled);
        QFETCH(bool, overviews);
        QFETCH(QString, compress);
        const QString file = path(QStringLiteral("%1.tif").arg(QTest::currentDataTag()).replace(' ', '_'));
        QVERIFY(testdata::writeRaster(file, RasterLayout{1600, 1200, 3, tiled, overviews, compress}));
        const RasterFileInfo f = RasterAdvisor::inspect(file);
        QVERIFY2(f.ok(), qPrintable(f.error));
        QCOMPARE(f.driver, QStringLiteral("GTiff"));
        QCOMPARE(f.width, 1600);
        QCOMPARE(f.height, 1200);
        QCOMPARE(f.bands, 3);
        QCOMPARE(f.dataType, QStringLiteral("Byte"));
        QCOMPARE(f.tiled, tiled);
        QCOMPARE(f.blockWidth, tiled ? 256 : 1600);
        QCOMPARE(f.overviews, overviews ? 3 : 0);
        QCOMPARE(f.compression, compress);
        QCOMPARE(f.interleave, QStringLiteral("PIXEL"));
        QCOMPARE(f.fileBytes, QFileInfo(file).size());
        QVERIFY(f.writable);
    }

    void adviceStripedVersusTiled()
    {
        const QString striped = path(QStringLiteral("adv-striped.tif")), good = path(QStringLiteral("adv-good.tif"));
        QVERIFY(testdata::writeRaster(striped, RasterLayout{1600, 1200, 3, false, false}));
        QVERIFY(testdata::writeRaster(good, RasterLayout{1600, 1200, 3, true, true, QStringLiteral("DEFLATE")}));

        const auto bad = RasterAdvisor::advise(RasterAdvisor::inspect(striped));
        QVERIFY(hasAdvice(bad, AdviceLevel::Warning, QStringLiteral("striped, no overviews: every zoomed-out request reads the full resolution")));
        QCOMPARE(count(bad, AdviceLevel::Good), 0);
        QVERIFY(bad.first().actions.contains(RasterAction::BuildOverviews));
        QVERIFY(bad.first().actions.contains(RasterAction::ConvertToCog));
        QCOMPARE(bad.first().path, striped);

        const auto fine = RasterAdvisor::advise(RasterAdvisor::inspect(good));
        QCOMPARE(count(fine, AdviceLevel::Warning), 0);
        QVERIFY(hasAdvice(fine, AdviceLevel::Good, QStringLiteral("tiled (256x256) with 3 overview levels")));
    }

    void adviceOtherCases_data()
    {
        QTest::addColumn<QString>("driver");
        QTest::addColumn<int>("size");
        QTest::addColumn<bool>("tiled");
        QTest::addColumn<bool>("overviews");
        QTest::addColumn<int>("level");
        QTest::addColumn<QString>("message");
        QTest::newRow("tiled, no overviews") << "GTiff" << 1600 << true << false << int(AdviceLevel::Warning) << "no overviews: every zoomed-out request";
        QTest::newRow("strips with overviews") << "GTiff" << 1600 << false << true << int(AdviceLevel::Warning) << "no internal tiling";
        QTest::newRow("JPEG 2000") << "JP2OpenJPEG" << 1200 << false << false << int(AdviceLevel::Warning) << "JPEG 2000: decode cost depends on the driver (here JP2OpenJPEG)";
        QTest::newRow("small striped: fine") << "GTiff" << 300 << false << false << -1 << "";
    }
    void adviceOtherCases()
    {
        QFETCH(QString, driver);
        QFETCH(int, size);
        QFETCH(bool, tiled);
        QFETCH(bool, overviews);
        QFETCH(int, level);
        QFETCH(QString, message);
        const QString file = path(QStringLiteral("other-%1.%2").arg(QTest::currentDataTag()).replace(' ', '_').replace(',', '_')
                                      .arg(driver == QLatin1String("GTiff") ? "tif" : "jp2"));
        QVERIFY(testdata::writeRaster(file, RasterLayout{size, size, 3, tiled, overviews, QStringLiteral("NONE"), driver}));
        const auto advice = RasterAdvisor::advise(RasterAdvisor::inspect(file));
        if (level < 0) QVERIFY(advice.isEmpty());
        else QVERIFY2(hasAdvice(advice, AdviceLevel(level), message), qPrintable(advice.value(0).message));
    }

    void buildOverviews_data()
    {
        QTest::addColumn<QString>("driver");
        QTest::addColumn<bool>("forceExternal");
        QTest::addColumn<bool>("expectOvr");
        QTest::newRow("GeoTIFF: internal") << "GTiff" << false << false;
        QTest::newRow("GeoTIFF: external asked") << "GTiff" << true << true;
        QTest::newRow("PNG: external") << "PNG" << false << true;
    }
    void buildOverviews()
    {
        QFETCH(QString, driver);
        QFETCH(bool, forceExternal);
        QFETCH(bool, expectOvr);
        const QString file = path(QStringLiteral("ovr-%1.%2").arg(int(forceExternal)).arg(driver == "PNG" ? "png" : "tif"));
        QVERIFY(testdata::writeRaster(file, RasterLayout{1600, 1200, 3, true, false, QStringLiteral("NONE"), driver}));
        QCOMPARE(RasterAdvisor::inspect(file).overviews, 0);
        double last = -1;
        OverviewOptions o;
        o.external = forceExternal;
        const RasterJobResult r = RasterConverter::buildOverviews(file, o, {}, [&](double f, const QString&) { last = f; });
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(last, 1.0);
        QCOMPARE(QFileInfo::exists(file + ".ovr"), expectOvr);
        QCOMPARE(r.path, expectOvr ? file + ".ovr" : file);
        const RasterFileInfo after = RasterAdvisor::inspect(file);
        // 1600 px: 2, 4, 8 leave 200 px, the first level <= 256
        QCOMPARE(after.overviews, 3);
        QCOMPARE(after.externalOverviews, expectOvr);
    }

    void defaultOverviewLevels_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<QList<int>>("levels");
        QTest::newRow("small") << 256 << 200 << QList<int>{};
        QTest::newRow("257") << 257 << 100 << QList<int>{2};
        QTest::newRow("1600x1200") << 1600 << 1200 << QList<int>{2, 4, 8};
        QTest::newRow("tall 4096") << 100 << 4096 << QList<int>{2, 4, 8, 16};
    }
    void defaultOverviewLevels()
    {
        QFETCH(int, width);
        QFETCH(int, height);
        QTEST(RasterConverter::defaultOverviewLevels(width, height), "levels");
    }

    void convertNeverTouchesSource_data()
    {
        QTest::addColumn<RasterAction>("action");
        QTest::addColumn<QString>("suffix");
        QTest::newRow("tiled") << RasterAction::ConvertToTiledGeoTiff << "-tiled.tif";
        QTest::newRow("cog") << RasterAction::ConvertToCog << "-cog.tif";
    }
    void convertNeverTouchesSource()
    {
        QFETCH(RasterAction, action);
        QFETCH(QString, suffix);
        const QString src = path(QStringLiteral("conv-%1.tif").arg(QTest::currentDataTag()));
        QVERIFY(testdata::writeRaster(src, RasterLayout{1200, 900, 3, false, false}));
        const QDateTime mtime = QFileInfo(src).lastModified();
        const qint64 size = QFileInfo(src).size();
        const QString outDir = path(QStringLiteral("converted"));
        QDir().mkpath(outDir);
        const RasterJobResult r = RasterAdvisor::apply(action, src, outDir);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.path, QDir(outDir).filePath(QFileInfo(src).completeBaseName() + suffix));
        QCOMPARE(QFileInfo(src).lastModified(), mtime);
        QCOMPARE(QFileInfo(src).size(), size);
        const auto l = testdata::readLayout(r.path);
        QVERIFY(l.ok);
        QCOMPARE(l.blockWidth, 256);
        QCOMPARE(l.overviews, 3);
        QCOMPARE(l.compression, QStringLiteral("DEFLATE"));
        QCOMPARE(l.layout, action == RasterAction::ConvertToCog ? QStringLiteral("COG") : QString());
        QVERIFY(testdata::partialFiles(outDir).isEmpty());
        // converted again: replaced atomically, still no left-overs
        QVERIFY(RasterAdvisor::apply(action, src, outDir).ok);
        QVERIFY(testdata::partialFiles(outDir).isEmpty());
    }

    void convertOntoSourceRefused()
    {
        const QString src = path(QStringLiteral("self.tif"));
        QVERIFY(testdata::writeRaster(src, RasterLayout{300, 300, 1}));
        const qint64 size = QFileInfo(src).size();
        const RasterJobResult r = RasterConverter::convert(src, src, RasterFormat::Cog);
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(QLatin1String("overwrite its source")));
        QCOMPARE(QFileInfo(src).size(), size);
    }

    void cancelledActionLeavesNothing_data()
    {
        QTest::addColumn<RasterAction>("action");
        QTest::addColumn<double>("cancelAt");
        QTest::newRow("tiled, while writing") << RasterAction::ConvertToTiledGeoTiff << 0.1;
        QTest::newRow("tiled, in the overviews") << RasterAction::ConvertToTiledGeoTiff << 0.6;
        QTest::newRow("cog") << RasterAction::ConvertToCog << 0.1;
        QTest::newRow("overviews") << RasterAction::BuildOverviews << 0.2;
    }
    void cancelledActionLeavesNothing()
    {
        QFETCH(RasterAction, action);
        QFETCH(double, cancelAt);
        QTemporaryDir dir;
        const QString src = dir.filePath(QStringLiteral("big.tif"));
        QVERIFY(testdata::writeRaster(src, RasterLayout{2000, 1500, 3, true, false}));
        const qint64 size = QFileInfo(src).size();
        CancelToken cancel;
        double seen = 0;
        const RasterJobResult r = RasterAdvisor::apply(action, src, {}, cancel, [&](double f, const QString&) {
            seen = std::max(seen, f);
            if (f >= cancelAt) cancel.cancel();
        });
        QVERIFY(!r.ok);
        QVERIFY(r.cancelled);
        QVERIFY(seen >= cancelAt);   // GDAL reports overviews coarsely: the last report may say 1.0
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("big.tif")});
        // overviews are added in place and removed again (GDAL may keep the file's grown size)
        if (action != RasterAction::BuildOverviews) QCOMPARE(QFileInfo(src).size(), size);
        QCOMPARE(RasterAdvisor::inspect(src).overviews, 0);
    }

    void layerReportsAndTileIndex()
    {
        QTemporaryDir dir;
        QDir(dir.path()).mkpath(QStringLiteral("tiles"));
        for (const char* t : {"a", "b"})
            QVERIFY(testdata::writeRaster(dir.filePath(QStringLiteral("tiles/%1.tif").arg(QLatin1String(t))), RasterLayout{400, 400, 1}));
        QVERIFY(testdata::writeTileIndex(dir.filePath(QStringLiteral("tiles/index.shp")), {QStringLiteral("a.tif"), QStringLiteral("b.tif")}));
        QVERIFY(testdata::writeRaster(dir.filePath(QStringLiteral("one.tif")), RasterLayout{1600, 1200, 3}));
        const QString map = dir.filePath(QStringLiteral("t.map"));
        QFile f(map);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("MAP\n EXTENT 0 0 1 1\n LAYER NAME \"one\" TYPE RASTER DATA \"one.tif\" END\n"
                " LAYER NAME \"mosaic\" TYPE RASTER TILEINDEX \"tiles/index.shp\" END\n"
                " LAYER NAME \"lines\" TYPE LINE DATA \"x\" END\nEND\n");
        f.close();
        const LoadResult loaded = loadMapFile(map);
        QVERIFY(loaded.ok());
        const QList<LayerRasterReport> reports = RasterAdvisor::inspectMap(*loaded.map);
        QCOMPARE(reports.size(), 2);
        QCOMPARE(reports[0].layer, QStringLiteral("one"));
        QCOMPARE(reports[0].files.size(), 1);
        QVERIFY(hasAdvice(reports[0].advice, AdviceLevel::Warning, QStringLiteral("striped, no overviews")));
        QCOMPARE(reports[1].layer, QStringLiteral("mosaic"));
        QVERIFY(reports[1].tileIndex);
        QCOMPARE(reports[1].tiles, 2);
        QCOMPARE(reports[1].files.size(), 2);
        QCOMPARE(QFileInfo(reports[1].files[1].path).fileName(), QStringLiteral("b.tif"));
        QVERIFY(reports[1].files[1].ok());
        QCOMPARE(reports[1].totalBytes, QFileInfo(dir.filePath("tiles/a.tif")).size() * 2);
        const QString text = RasterAdvisor::text(reports[0]);
        QVERIFY(text.contains(QLatin1String("layer 'one'")));
        QVERIFY(text.contains(QLatin1String("GTiff, 1600x1200, 3 band(s) Byte, blocks 1600x")));
        QVERIFY(text.contains(QLatin1String("fix: build overviews, convert to tiled GeoTIFF, convert to COG")));
        QVERIFY(RasterAdvisor::inspectLayer(*loaded.map, *loaded.map->layer("lines")).error.contains("not a RASTER"));
    }
};

QTEST_GUILESS_MAIN(TestRasterAdvisor)
#include "test_raster_advisor.moc"
