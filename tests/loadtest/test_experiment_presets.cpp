// Experiment presets on a small demo-like map: the variant mapfiles (LUT
// removed, DATA at the made rasters, absolute paths), the rasters really in
// the asked layout (read back with GDAL), the cache, cancellation, the
// embedded server's configurations, and one tiny real experiment through
// maptune-cli bench --preset (2 rounds x 20 requests) plus maptune-cli advise.

#include "loadtest/embedded_server.h"
#include "loadtest/experiment_preset.h"
#include "mapfile/map_loader.h"
#include "mapfile/map_writer.h"
#include "render/engine.h"
#include "test_fixtures.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace maptune;

Q_DECLARE_METATYPE(maptune::RasterFormat)

namespace {

std::shared_ptr<MapDef> load(const QString& path)
{
    LoadResult r = loadMapFile(path);
    if (!r.ok()) {
        for (const auto& d : r.diagnostics) qWarning("%s", qPrintable(d.toString()));
        return nullptr;
    }
    return r.map;
}

struct CliRun {
    int status = -1;
    QByteArray out, err;
};

CliRun cli(const QStringList& args, int timeoutMs = 120000)
{
    QProcess p;
    p.start(QStringLiteral(MAPTUNE_CLI), args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}  // namespace

class TestExperimentPresets : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_mapPath;
    std::shared_ptr<MapDef> m_map;
    PresetBuild m_formats;   // built once by formatsPreset(), inspected by formatOutputs()

    QString work(const QString& sub) const { return m_dir.filePath(QStringLiteral("work/") + sub); }
    QString ortho() const { return QDir(m_dir.filePath(QStringLiteral("map/data"))).absoluteFilePath(QStringLiteral("ortho.tif")); }

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        QVERIFY(m_dir.isValid());
        m_mapPath = testdata::writeDemoMap(m_dir.filePath(QStringLiteral("map")), {800, 600, 3});
        QVERIFY(!m_mapPath.isEmpty());
        m_map = load(m_mapPath);
        QVERIFY(m_map);
    }

    void parseSpec_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("url");
        QTest::newRow("lut") << "lut" << true << int(PresetKind::Lut) << "";
        QTest::newRow("FORMATS") << "FORMATS" << true << int(PresetKind::Formats) << "";
        QTest::newRow("postgis") << "postgis" << true << int(PresetKind::Postgis) << "";
        QTest::newRow("url") << "url=http://host:8080/wms?MAP=x" << true << int(PresetKind::Url) << "http://host:8080/wms?MAP=x";
        QTest::newRow("url without scheme") << "url=host/wms" << false << 0 << "";
        QTest::newRow("unknown") << "jpeg" << false << 0 << "";
    }
    void parseSpec()
    {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        const auto spec = PresetSpec::parse(text);
        QCOMPARE(spec.ok(), ok);
        if (!ok) {
            QVERIFY(!spec.message().isEmpty());
            return;
        }
        QTEST(int(spec->kind), "kind");
        QTEST(spec->url, "url");
    }

    void withoutLut_data()
    {
        QTest::addColumn<QStringList>("processing");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("one") << QStringList{"LUT=0:0,255:128"} << QStringList{};
        QTest::newRow("kept around") << QStringList{"RESAMPLE=NEAREST", "lut_1=curves.txt", "BANDS=1,2,3", "LUT:0:10"}
                                     << QStringList{"RESAMPLE=NEAREST", "BANDS=1,2,3"};
        QTest::newRow("not a LUT") << QStringList{"LUTX=1", "CLOSE_CONNECTION=DEFER"} << QStringList{"LUTX=1", "CLOSE_CONNECTION=DEFER"};
    }
    void withoutLut()
    {
        QFETCH(QStringList, processing);
        QTEST(ExperimentPreset::withoutLut(processing), "expected");
    }

    void lutPreset()
    {
        PresetOptions o;
        o.spec.kind = PresetKind::Lut;
        o.layer = QStringLiteral("ORTHO");   // layer names match case-insensitively, as in MapServer
        o.workDir = work(QStringLiteral("lut"));
        const PresetBuild b = ExperimentPreset::build(*m_map, o);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.variants.size(), 2);
        QCOMPARE(b.variants[0].label, QStringLiteral("LUT on"));
        QCOMPARE(b.variants[1].label, QStringLiteral("LUT off"));
        QCOMPARE(QFileInfo(b.variants[1].mapFile).absolutePath(), QDir(o.workDir).absolutePath());
        QCOMPARE(QFileInfo(b.variants[1].mapFile).fileName(), QStringLiteral("demo-lut-off.map"));
        const auto on = load(b.variants[0].mapFile), off = load(b.variants[1].mapFile);
        QVERIFY(on && off);
        QCOMPARE(on->layer("ortho")->processing, (QStringList{"RESAMPLE=NEAREST", "LUT=0:0,128:200,255:255"}));
        QCOMPARE(off->layer("ortho")->processing, QStringList{"RESAMPLE=NEAREST"});
        // relative DATA made absolute (through SHAPEPATH "data"), so the variant works from the work dir
        QCOMPARE(off->layer("ortho")->data, ortho());
        QCOMPARE(off->layer("roads")->data, QFileInfo(m_mapPath).absolutePath() + QStringLiteral("/data/roads"));
        // everything else as it was
        MapDef a = *m_map, b2 = *off;
        a.layers[0].processing = b2.layers[0].processing;
        // served from the work directory, the variant may still read the original's folders
        const QStringList roots = b2.config.value(QStringLiteral("MAPTUNE_ALLOWED_ROOTS")).value_or(QString()).split(QLatin1Char(';'));
        QVERIFY2(roots.contains(QFileInfo(m_mapPath).absolutePath()), qPrintable(roots.join(';')));
        b2.config = a.config;
        for (MapDef* m : {&a, &b2}) {
            clearPositions(*m);
            m->path.clear();
            m->shapePath.clear();
            for (LayerDef& l : m->layers) l.data = QFileInfo(l.data).fileName();
        }
        QCOMPARE(writeMapFile(a), writeMapFile(b2));
        QVERIFY(a == b2);
    }

    void lutPresetNeedsALut()
    {
        PresetOptions o;
        o.spec.kind = PresetKind::Lut;
        o.layer = QStringLiteral("roads");
        o.workDir = work(QStringLiteral("lut2"));
        const PresetBuild b = ExperimentPreset::build(*m_map, o);
        QVERIFY(!b.ok());
        QVERIFY(b.error.contains(QLatin1String("has no PROCESSING \"LUT=...\"")));
        QVERIFY(b.variants.isEmpty());
        o.layer = QStringLiteral("nope");
        QVERIFY(ExperimentPreset::build(*m_map, o).error.contains(QLatin1String("no layer 'nope'")));
    }

    void formatsPreset()
    {
        PresetOptions o;
        o.spec.kind = PresetKind::Formats;
        o.layer = QStringLiteral("ortho");
        o.workDir = work(QStringLiteral("formats"));
        QList<double> fractions;
        m_formats = ExperimentPreset::build(*m_map, o, {}, [&](const PresetProgress& p) { fractions << p.fraction; });
        QVERIFY2(m_formats.ok(), qPrintable(m_formats.error + m_formats.notes.join(';')));
        QCOMPARE(m_formats.variants.size(), 6);
        QCOMPARE(m_formats.variants[0].label, QStringLiteral("original"));
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QVERIFY(!fractions.isEmpty() && fractions.last() > 0.99);
        QVERIFY(testdata::partialFiles(work(QStringLiteral("formats/rasters"))).isEmpty());
        QCOMPARE(load(m_formats.variants[0].mapFile)->layer("ortho")->data, ortho());
    }

    void formatOutputs_data()
    {
        QTest::addColumn<int>("variant");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("driver");
        QTest::addColumn<int>("blockWidth");    // 800: strips
        QTest::addColumn<bool>("overviews");
        QTest::addColumn<QString>("compression");
        QTest::addColumn<QString>("layout");
        QTest::newRow("tiled") << 1 << "GeoTIFF tiled + overviews" << "GTiff" << 256 << true << "DEFLATE" << "";
        QTest::newRow("striped") << 2 << "GeoTIFF striped" << "GTiff" << 800 << false << "" << "";
        QTest::newRow("jpeg") << 3 << "JPEG-in-TIFF + overviews" << "GTiff" << 256 << true << "YCbCr JPEG" << "";
        QTest::newRow("jp2") << 4 << "JPEG 2000 (JP2OpenJPEG)" << "JP2OpenJPEG" << -1 << true << "" << "";
        QTest::newRow("cog") << 5 << "COG" << "GTiff" << 256 << true << "DEFLATE" << "COG";
    }
    void formatOutputs()
    {
        QFETCH(int, variant);
        QFETCH(int, blockWidth);
        QFETCH(bool, overviews);
        QVERIFY(m_formats.variants.size() == 6);
        const MapVariant& v = m_formats.variants[variant];
        QTEST(v.label, "label");
        const auto map = load(v.mapFile);
        QVERIFY(map);
        const QString data = map->layer("ortho")->data;
        QCOMPARE(QFileInfo(data).absolutePath(), QDir(work(QStringLiteral("formats/rasters"))).absolutePath());
        QVERIFY(v.description.contains(data));
        QCOMPARE(map->layer("ortho")->processing, m_map->layer("ortho")->processing);   // only DATA differs
        const testdata::Layout l = testdata::readLayout(data);
        QVERIFY(l.ok);
        QTEST(l.driver, "driver");
        QCOMPARE(l.width, 800);
        QCOMPARE(l.height, 600);
        if (blockWidth > 0) QCOMPARE(l.blockWidth, blockWidth);
        QCOMPARE(l.overviews > 0, overviews);
        QTEST(l.compression, "compression");
        QTEST(l.layout, "layout");
    }

    void formatsCache()
    {
        PresetOptions o;
        o.spec.kind = PresetKind::Formats;
        o.layer = QStringLiteral("ortho");
        o.workDir = work(QStringLiteral("formats"));
        o.formats = {RasterFormat::GeoTiffTiled};
        const QString made = load(m_formats.variants[1].mapFile)->layer("ortho")->data;
        const QDateTime madeAt = QFileInfo(made).lastModified();
        const PresetBuild again = ExperimentPreset::build(*m_map, o);
        QVERIFY(again.ok());
        QCOMPARE(again.variants.size(), 2);
        QCOMPARE(load(again.variants[1].mapFile)->layer("ortho")->data, made);
        QCOMPARE(QFileInfo(made).lastModified(), madeAt);
        QVERIFY(again.notes.join(';').contains(QLatin1String("reused")));

        // a changed source is a new cache key: a new copy, the old one untouched
        const QString before = RasterConverter::cachedName(ortho(), RasterFormat::GeoTiffTiled);
        QVERIFY(testdata::writeRaster(ortho(), {800, 600, 3, false, false}));
        {
            QFile touched(ortho());
            QVERIFY(touched.open(QIODevice::ReadWrite));
            QVERIFY(touched.setFileTime(QDateTime::currentDateTime().addSecs(5), QFileDevice::FileModificationTime));
        }
        QVERIFY(RasterConverter::cachedName(ortho(), RasterFormat::GeoTiffTiled) != before);
        const PresetBuild changed = ExperimentPreset::build(*m_map, o);
        QVERIFY(changed.ok());
        QVERIFY(load(changed.variants[1].mapFile)->layer("ortho")->data != made);
        QVERIFY(!changed.notes.join(';').contains(QLatin1String("reused")));
        QVERIFY(QFileInfo::exists(made));
    }

    void formatsCancelled()
    {
        PresetOptions o;
        o.spec.kind = PresetKind::Formats;
        o.layer = QStringLiteral("ortho");
        o.workDir = work(QStringLiteral("cancel"));
        o.formats = {RasterFormat::Cog, RasterFormat::Jpeg2000};
        CancelToken cancel;
        const PresetBuild b = ExperimentPreset::build(*m_map, o, cancel, [&](const PresetProgress& p) {
            if (p.fraction > 0.2) cancel.cancel();
        });
        QVERIFY(b.cancelled);
        QVERIFY(!b.ok());
        QVERIFY(b.variants.isEmpty());
        const QDir rasters(work(QStringLiteral("cancel/rasters")));
        QCOMPARE(rasters.entryList(QDir::Files | QDir::Hidden), QStringList{});
    }

    void formatsNeedARasterFile()
    {
        PresetOptions o;
        o.spec.kind = PresetKind::Formats;
        o.layer = QStringLiteral("roads");
        o.workDir = work(QStringLiteral("f2"));
        QVERIFY(ExperimentPreset::build(*m_map, o).error.contains(QLatin1String("not a raster layer")));
    }

    void postgisNeedsAConnection()
    {
        PresetOptions o;
        o.spec.kind = PresetKind::Postgis;
        o.layer = QStringLiteral("roads");
        o.workDir = work(QStringLiteral("pg"));
        QVERIFY(ExperimentPreset::build(*m_map, o).error.contains(QLatin1String("--pg")));
        o.layer = QStringLiteral("ortho");
        QVERIFY(ExperimentPreset::build(*m_map, o).error.contains(QLatin1String("not a POINT, LINE or POLYGON")));
    }

    void urlPresetAndServerConfigs()
    {
        PresetOptions o;
        o.spec = *PresetSpec::parse(QStringLiteral("url=http://127.0.0.1:9/cgi-bin/mapserv?map=/x.map"));
        o.layer = QStringLiteral("roads");
        const PresetBuild b = ExperimentPreset::build(*m_map, o);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.variants.size(), 2);
        QCOMPARE(b.variants[0].label, QStringLiteral("MapTune"));
        QCOMPARE(b.variants[0].mapFile, QFileInfo(m_mapPath).absoluteFilePath());
        QCOMPARE(b.variants[1].label, QStringLiteral("127.0.0.1:9"));
        QCOMPARE(b.variants[1].urlTemplate,
                 QStringLiteral("http://127.0.0.1:9/cgi-bin/mapserv?map=/x.map&SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap"
                                "&LAYERS=roads&STYLES=&SRS=EPSG:3857&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=image/png"));

        EmbeddedServer server;
        QList<ExperimentConfig> configs;
        QVERIFY(server.configsFor(b.variants, {QStringLiteral("roads"), {}, QStringLiteral("image/png")}, configs, 1).ok());
        QVERIFY(server.isRunning());
        QCOMPARE(configs.size(), 2);
        QVERIFY(configs[0].serverInProcess);
        QCOMPARE(configs[0].urlTemplate, QStringLiteral("http://127.0.0.1:%1/demo?SERVICE=WMS&VERSION=1.1.1&REQUEST=GetMap&LAYERS=roads"
                                                        "&STYLES=&SRS=EPSG:3857&BBOX={BBOX}&WIDTH={WIDTH}&HEIGHT={HEIGHT}&FORMAT=image/png")
                                             .arg(server.port()));
        QVERIFY(!configs[1].serverInProcess);
        QCOMPARE(configs[1].urlTemplate, b.variants[1].urlTemplate);

        BboxOptions bbox;
        bbox.size = QStringLiteral("400x300");
        QVERIFY(EmbeddedServer::defaultWindows(*m_map, bbox).ok());
        QCOMPARE(bbox.extent, QStringLiteral("15554000,4256400,15554800,4257000"));
        QCOMPARE(bbox.res, QStringLiteral("0.125,2"));   // 800 m / 400 px = 2 m/px, down to 1/16
        server.stop();
        QVERIFY(!server.isRunning());
    }

    void cliBenchLutPreset()
    {
        const QString csv = m_dir.filePath(QStringLiteral("lut.csv")), html = m_dir.filePath(QStringLiteral("lut.html")),
                      runs = m_dir.filePath(QStringLiteral("lut-runs.csv"));
        const CliRun r = cli({QStringLiteral("bench"), m_mapPath, QStringLiteral("--preset"), QStringLiteral("lut"),
                              QStringLiteral("--layer"), QStringLiteral("ortho"), QStringLiteral("--rounds"), QStringLiteral("2"),
                              QStringLiteral("-n"), QStringLiteral("20"), QStringLiteral("--warmup"), QStringLiteral("2"),
                              QStringLiteral("--size"), QStringLiteral("256"), QStringLiteral("--threads"), QStringLiteral("1"),
                              QStringLiteral("--work-dir"), work(QStringLiteral("cli")), QStringLiteral("--csv"), csv,
                              QStringLiteral("--runs-csv"), runs, QStringLiteral("--html"), html, QStringLiteral("--json"),
                              QStringLiteral("-q")});
        QVERIFY2(r.status == 0, r.err.constData());
        const QJsonObject json = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(json.value("type").toString(), QStringLiteral("experiment"));
        const QJsonArray summary = json.value("summary").toArray();
        QCOMPARE(summary.size(), 2);
        QCOMPARE(summary[0].toObject().value("label").toString(), QStringLiteral("LUT on"));
        QCOMPARE(summary[1].toObject().value("label").toString(), QStringLiteral("LUT off"));
        QCOMPARE(json.value("runs").toArray().size(), 4);
        for (const QJsonValue& run : json.value("runs").toArray()) {
            QCOMPARE(run.toObject().value("requests").toInt(), 20);
            QCOMPARE(run.toObject().value("errors").toInt(), 0);
        }
        QCOMPARE(summary[0].toObject().value("ratio_to_baseline").toDouble(), 1.0);

        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = c.readAll().split('\n');
        QCOMPARE(lines.size(), 4);   // header, 2 rows, and the empty tail
        QVERIFY(lines[1].startsWith("LUT on,"));
        QVERIFY(lines[2].startsWith("LUT off,"));
        QFile rc(runs);
        QVERIFY(rc.open(QIODevice::ReadOnly));
        QCOMPARE(rc.readAll().count('\n'), 5);
        QFile h(html);
        QVERIFY(h.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&h);
        int svgs = 0;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg")) ++svgs;
        QVERIFY(!xml.hasError());
        QCOMPARE(svgs, 2);
    }

    void cliBenchPresetErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::newRow("no LUT") << QStringList{"--preset", "lut", "--layer", "roads"} << 1 << "has no PROCESSING";
        QTest::newRow("two targets") << QStringList{"--preset", "lut", "--layer", "ortho", "http://127.0.0.1:1/{BBOX}"} << 2
                                     << "exactly one MAPFILE";
        QTest::newRow("bad format") << QStringList{"--preset", "formats", "--layer", "ortho", "--formats", "gif"} << 2
                                    << "unknown format 'gif'";
    }
    void cliBenchPresetErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, message);
        const CliRun r = cli(QStringList{QStringLiteral("bench"), m_mapPath, QStringLiteral("-q"), QStringLiteral("--work-dir"),
                                         work(QStringLiteral("cli-err"))} + args);
        QCOMPARE(r.status, status);
        QVERIFY2(r.err.contains(message.toUtf8()), r.err.constData());
    }

    void cliAdvise()
    {
        const CliRun r = cli({QStringLiteral("advise"), m_mapPath});
        QCOMPARE(r.status, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY(out.contains(QLatin1String("layer 'ortho'")));
        QVERIFY(!out.contains(QLatin1String("layer 'roads'")));   // not a raster layer
        // 800x600 is small: no layout warning, but the layout is printed
        QVERIFY(out.contains(QLatin1String("GTiff, 800x600, 3 band(s) Byte")));
        const CliRun missing = cli({QStringLiteral("advise"), m_mapPath, QStringLiteral("nope")});
        QCOMPARE(missing.status, 1);
        QVERIFY(missing.err.contains("no layer 'nope'"));
    }

    void cliAdviseFix()
    {
        QTemporaryDir dir;
        const QString map = testdata::writeDemoMap(dir.path(), {1600, 1200, 3});
        QVERIFY(!map.isEmpty());
        const CliRun before = cli({QStringLiteral("advise"), map, QStringLiteral("ortho")});
        QCOMPARE(before.status, 0);
        QVERIFY2(before.out.contains("striped, no overviews"), before.out.constData());
        const CliRun fix = cli({QStringLiteral("advise"), map, QStringLiteral("ortho"), QStringLiteral("--fix"), QStringLiteral("cog"),
                                QStringLiteral("--out-dir"), dir.filePath(QStringLiteral("out"))});
        QVERIFY2(fix.status == 0, fix.err.constData());
        const QString cog = dir.filePath(QStringLiteral("out/ortho-cog.tif"));
        QVERIFY2(fix.out.contains(("-> " + cog).toUtf8()), fix.out.constData());
        QCOMPARE(testdata::readLayout(cog).layout, QStringLiteral("COG"));
        QCOMPARE(testdata::readLayout(dir.filePath(QStringLiteral("data/ortho.tif"))).overviews, 0);   // source untouched
    }
};

QTEST_GUILESS_MAIN(TestExperimentPresets)
#include "test_experiment_presets.moc"
