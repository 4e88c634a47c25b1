// The postgis preset against the private PostGIS cluster (fixture "pg"):
// a shapefile layer loaded into a table and its B variant reading it, a
// PostGIS layer exported to a GeoPackage, and both pairs served and measured
// by a tiny experiment (1 round x 5 requests) without a single error.

#include "loadtest/embedded_server.h"
#include "loadtest/experiment_preset.h"
#include "loadtest/vector_copier.h"
#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "test_fixtures.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <gdal.h>
#include <libpq-fe.h>

using namespace maptune;

namespace {

QString conninfo()
{
    return QStringLiteral("host=%1 port=%2 dbname=maptune_test user=maptune application_name=test_preset_postgis")
        .arg(qEnvironmentVariable("PGHOST", QStringLiteral("127.0.0.1")),
             qEnvironmentVariable("PGPORT", QString::number(MAPTUNE_PG_TEST_PORT)));
}

// The first value of the first row, or the error message.
QString queryValue(const QString& sql)
{
    PGconn* c = PQconnectdb(conninfo().toUtf8().constData());
    QString out;
    if (PQstatus(c) != CONNECTION_OK) {
        out = QStringLiteral("connection failed: %1").arg(QString::fromUtf8(PQerrorMessage(c)));
    } else {
        PGresult* r = PQexec(c, sql.toUtf8().constData());
        out = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 ? QString::fromUtf8(PQgetvalue(r, 0, 0))
                                                                        : QString::fromUtf8(PQresultErrorMessage(r));
        PQclear(r);
    }
    PQfinish(c);
    return out;
}

std::shared_ptr<MapDef> load(const QString& path)
{
    LoadResult r = loadMapFile(path);
    return r.ok() ? r.map : nullptr;
}

// Serves the variants and measures each with 5 requests of LAYERS=roads.
ExperimentResult tinyExperiment(const QList<MapVariant>& variants, const MapDef& map)
{
    EmbeddedServer server;
    ExperimentOptions eo;
    ExperimentResult failed;
    if (const Status served = server.configsFor(variants, {QStringLiteral("roads"), {}, QStringLiteral("image/png")}, eo.configs, 1);
        !served) {
        failed.error = served.message();
        return failed;
    }
    BboxOptions bbox;
    bbox.size = QStringLiteral("256");
    if (const Status windows = EmbeddedServer::defaultWindows(map, bbox); !windows) {
        failed.error = windows.message();
        return failed;
    }
    eo.load.bbox = *resolveBboxSpec(bbox).spec;
    eo.load.durationS = 0;
    eo.load.maxRequests = 5;
    eo.load.warmup = 1;
    eo.rounds = 1;
    return Experiment(eo).run();
}

}  // namespace

class TestPresetPostgis : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_mapPath;
    std::shared_ptr<MapDef> m_map;

private Q_SLOTS:
    void initTestCase()
    {
        initEngine();
        QVERIFY(m_dir.isValid());
        const QString version = queryValue(QStringLiteral("select postgis_lib_version()"));
        QVERIFY2(version.startsWith(QLatin1Char('3')), qPrintable(version));   // never skipped: no cluster, no pass
        m_mapPath = testdata::writeDemoMap(m_dir.filePath(QStringLiteral("map")), {800, 600, 3});
        m_map = load(m_mapPath);
        QVERIFY(m_map);
    }

    void shapefileToPostgis()
    {
        PresetOptions o;
        o.spec.kind = PresetKind::Postgis;
        o.layer = QStringLiteral("roads");
        o.workDir = m_dir.filePath(QStringLiteral("work"));
        o.pgConnInfo = conninfo();
        const PresetBuild b = ExperimentPreset::build(*m_map, o);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.variants.size(), 2);
        QCOMPARE(b.variants[0].label, QStringLiteral("shapefile"));
        QCOMPARE(b.variants[1].label, QStringLiteral("PostGIS"));
        const auto pg = load(b.variants[1].mapFile);
        QVERIFY(pg);
        const LayerDef& l = *pg->layer("roads");
        QCOMPARE(l.connectionType, ConnectionType::PostGIS);
        QCOMPARE(l.connection, conninfo());
        QCOMPARE(l.data, QStringLiteral("geom from maptune_bench_roads using unique gid using srid=3857"));
        QCOMPARE(l.classItem, QStringLiteral("KIND"));
        QCOMPARE(load(b.variants[0].mapFile)->layer("roads")->connectionType, ConnectionType::Local);

        QCOMPARE(queryValue(QStringLiteral("select count(*) from maptune_bench_roads")), QStringLiteral("20"));
        QCOMPARE(queryValue(QStringLiteral("select Find_SRID('public', 'maptune_bench_roads', 'geom')")), QStringLiteral("3857"));
        QCOMPARE(queryValue(QStringLiteral("select \"NAME\" from maptune_bench_roads where \"KIND\" = 2 order by gid limit 1")),
                 QStringLiteral("road 2"));
        QCOMPARE(queryValue(QStringLiteral("select count(*) from pg_indexes where tablename = 'maptune_bench_roads' "
                                           "and indexdef ilike '%gist%'")),
                 QStringLiteral("1"));

        const ExperimentResult r = tinyExperiment(b.variants, *m_map);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.runs.size(), 2);
        for (const LoadReport& run : r.runs) {
            QVERIFY2(run.errors == 0, qPrintable(run.label + ": " + run.errorExamples.value(0).url + " " + run.errorExamples.value(0).firstBytes.right(300)));
            QCOMPARE(run.ok, 5);
        }
    }

    void postgisToGeoPackage()
    {
        // the table of the previous test, as a PostGIS layer of a map of its own
        const QString mapPath = m_dir.filePath(QStringLiteral("pg.map"));
        QFile f(mapPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("MAP\n NAME \"pg\"\n EXTENT 15554000 4256400 15554800 4257000\n PROJECTION \"init=epsg:3857\" END\n"
                               " WEB METADATA \"wms_enable_request\" \"*\" END END\n"
                               " LAYER NAME \"roads\" TYPE LINE STATUS ON CONNECTIONTYPE POSTGIS CONNECTION \"%1\"\n"
                               "  DATA \"geom from maptune_bench_roads using unique gid using srid=3857\"\n"
                               "  CLASS STYLE COLOR 0 0 0 END END\n END\nEND\n").arg(conninfo()).toUtf8());
        f.close();
        const auto map = load(mapPath);
        QVERIFY(map);
        PresetOptions o;
        o.spec.kind = PresetKind::Postgis;
        o.layer = QStringLiteral("roads");
        o.workDir = m_dir.filePath(QStringLiteral("work-gpkg"));
        const PresetBuild b = ExperimentPreset::build(*map, o);
        QVERIFY2(b.ok(), qPrintable(b.error));
        QCOMPARE(b.variants.size(), 2);
        QCOMPARE(b.variants[0].label, QStringLiteral("PostGIS"));
        QCOMPARE(b.variants[1].label, QStringLiteral("GeoPackage"));
        const auto loaded = load(b.variants[1].mapFile);  // l refers into it
        const LayerDef& l = *loaded->layer("roads");
        QCOMPARE(l.connectionType, ConnectionType::OGR);
        QCOMPARE(l.connection, QDir(o.workDir).absoluteFilePath(QStringLiteral("roads.gpkg")));
        QCOMPARE(l.data, QStringLiteral("roads"));
        GDALDatasetH ds = GDALOpenEx(l.connection.toUtf8().constData(), GDAL_OF_VECTOR, nullptr, nullptr, nullptr);
        QVERIFY(ds);
        OGRLayerH layer = GDALDatasetGetLayerByName(ds, "roads");
        QVERIFY(layer);
        QCOMPARE(OGR_L_GetFeatureCount(layer, TRUE), 20);
        GDALClose(ds);
        QVERIFY(testdata::partialFiles(o.workDir).isEmpty());

        const ExperimentResult r = tinyExperiment(b.variants, *map);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        for (const LoadReport& run : r.runs) QVERIFY2(run.errors == 0 && run.ok == 5, qPrintable(run.errorExamples.value(0).firstBytes));
    }

    void badConnectionIsReportedWithoutPassword()
    {
        const VectorCopyResult r = VectorCopier::toPostgis(m_dir.filePath(QStringLiteral("map/data/roads.shp")), {},
                                                           QStringLiteral("host=127.0.0.1 port=1 dbname=x password=s3cret"),
                                                           QStringLiteral("t"));
        QVERIFY(!r.ok);
        QVERIFY(r.error.contains(QLatin1String("cannot connect")));
        QVERIFY(!r.error.contains(QLatin1String("s3cret")));
    }
};

QTEST_GUILESS_MAIN(TestPresetPostgis)
#include "test_preset_postgis.moc"
