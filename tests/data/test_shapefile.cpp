// The own shapefile reader: the same features, geometry and attributes as
// OGR for every shape type, the .qix index searched completely, MapServer's
// raw attribute text, deleted records hidden, and damage reported as errors.

#include "render/feature_source_factory.h"
#include "data/ogr_feature_source.h"
#include "data/shapefile/qix_index.h"
#include "data/shapefile/shapefile_feature_source.h"
#include "data/shapefile/shp_file.h"

#include <QtTest>

#include <gdal.h>
#include <ogr_api.h>

#include <algorithm>

using namespace maptune;

namespace {

struct FieldSpec {
    const char* name;
    OGRFieldType type;
    int width;
    int precision;
};

// Writes DIR/NAME.shp with one feature per WKT (empty WKT: no geometry) and
// the given attribute rows (values as text, set with OGR's conversions).
bool writeShapefile(const QString& path, OGRwkbGeometryType type, const QStringList& wkts,
                    const QList<FieldSpec>& fields = {}, const QList<QStringList>& rows = {},
                    const QList<QByteArray>& layerOptions = {})
{
    GDALDatasetH ds = GDALCreate(GDALGetDriverByName("ESRI Shapefile"), path.toUtf8().constData(), 0, 0, 0,
                                 GDT_Unknown, nullptr);
    if (!ds) return false;
    std::vector<const char*> opts;
    for (const QByteArray& o : layerOptions) opts.push_back(o.constData());
    opts.push_back(nullptr);
    OGRLayerH layer = GDALDatasetCreateLayer(ds, QFileInfo(path).baseName().toUtf8().constData(), nullptr, type,
                                             const_cast<char**>(opts.data()));
    bool ok = layer != nullptr;
    for (const FieldSpec& spec : fields) {
        OGRFieldDefnH fld = OGR_Fld_Create(spec.name, spec.type);
        OGR_Fld_SetWidth(fld, spec.width);
        OGR_Fld_SetPrecision(fld, spec.precision);
        ok = ok && OGR_L_CreateField(layer, fld, TRUE) == OGRERR_NONE;
        OGR_Fld_Destroy(fld);
    }
    for (qsizetype i = 0; ok && i < wkts.size(); ++i) {
        OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(layer));
        if (!wkts[i].isEmpty()) {
            QByteArray wkt = wkts[i].toUtf8();
            char* p = wkt.data();
            OGRGeometryH g = nullptr;
            ok = OGR_G_CreateFromWkt(&p, nullptr, &g) == OGRERR_NONE;
            OGR_F_SetGeometryDirectly(f, g);
        }
        const QStringList row = rows.value(i);
        for (qsizetype c = 0; c < row.size(); ++c)
            if (!row[c].isEmpty()) OGR_F_SetFieldString(f, int(c), row[c].toUtf8().constData());
        ok = ok && OGR_L_CreateFeature(layer, f) == OGRERR_NONE;
        OGR_F_Destroy(f);
    }
    GDALClose(ds);
    return ok;
}

struct Read {
    QList<qint64> ids;
    QList<Feature> features;
    QString error;
};

Read readAll(FeatureSource& src, const FeatureQuery& q)
{
    Read r;
    auto queried = src.query(q);
    if (!queried) {
        r.error = queried.message();
        return r;
    }
    const std::unique_ptr<FeatureCursor> cursor = std::move(queried).value();
    Feature f;
    while (cursor->next(f)) {
        r.ids << f.id;
        r.features << f;
    }
    r.error = cursor->error();
    return r;
}

std::unique_ptr<FeatureSource> ownReader(const QString& path, QString* error)
{
    auto ogr = OgrFeatureSource::open(path, {}, {});
    return ogr.ok(error) ? ShapefileFeatureSource::wrap(path, std::move(ogr).value()) : nullptr;
}

// Parts as point lists, sorted: OGR may order a multipolygon's rings its own way.
QList<QList<double>> sortedParts(const Geometry& g)
{
    QList<QList<double>> parts;
    for (int p = 0; p < g.partCount(); ++p) {
        QList<double> pts;
        for (int i = g.partStart[size_t(p)]; i < g.partEnd(p); ++i) pts << g.xy[2 * size_t(i)] << g.xy[2 * size_t(i) + 1];
        parts << pts;
    }
    std::sort(parts.begin(), parts.end());
    return parts;
}

bool damageFile(const QString& path, qint64 offset, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::ReadWrite) && f.seek(offset) && f.write(bytes) == bytes.size();
}

bool truncateFile(const QString& path, qint64 size)
{
    QFile f(path);
    return f.resize(size);
}

QByteArray le32(qint32 v)
{
    QByteArray b(4, 0);
    for (int i = 0; i < 4; ++i) b[i] = char((quint32(v) >> (8 * i)) & 0xff);
    return b;
}

}  // namespace

class TestShapefile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { GDALAllRegister(); }

    void readsLikeOgr_data();
    void readsLikeOgr();
    void attributesAreMapServersRawText();
    void latin1FileIsDecoded();
    void deletedRecordsAreSkipped();
    void factoryChoosesTheReader();
    void qixSearchFindsEveryOverlappingShape();
    void hostileQixNeverCrashes_data();
    void hostileQixNeverCrashes();
    void damageIsAnError_data();
    void damageIsAnError();
};

void TestShapefile::readsLikeOgr_data()
{
    QTest::addColumn<int>("type");
    QTest::addColumn<QStringList>("wkts");
    QTest::addColumn<bool>("index");
    QTest::addColumn<bool>("withBbox");
    const QStringList points = {"POINT (1 1)", "POINT (5 5)", "", "POINT (9 2)", "POINT (-3 4)"};
    const QStringList multipoints = {"MULTIPOINT ((1 1),(2 2),(3 1))", "MULTIPOINT ((8 8))", "MULTIPOINT ((-5 -5),(6 7))"};
    const QStringList lines = {"LINESTRING (0 0,10 1,20 0)", "LINESTRING (5 5,5 15)", "",
                               "LINESTRING (-10 -10,-9 -8)", "LINESTRING (30 30,31 31,32 30,33 31)"};
    const QStringList multilines = {"MULTILINESTRING ((0 0,1 1),(2 2,3 3,4 2))", "MULTILINESTRING ((10 10,12 12))"};
    const QStringList polygons = {"POLYGON ((0 0,10 0,10 10,0 10,0 0),(4 4,4 6,6 6,6 4,4 4))",
                                  "POLYGON ((20 20,30 20,30 30,20 20))", "POLYGON ((-5 -5,-1 -5,-1 -1,-5 -5))"};
    const QStringList multipolygons = {"MULTIPOLYGON (((0 0,3 0,3 3,0 0)),((5 5,9 5,9 9,5 9,5 5),(6 6,6 7,7 7,7 6,6 6)))",
                                       "MULTIPOLYGON (((40 40,41 40,41 41,40 40)))"};
    const QStringList linesZ = {"LINESTRING Z (0 0 1,10 1 2,20 0 3)", "LINESTRING Z (5 5 0,5 15 9)"};
    const QStringList pointsM = {"POINT M (1 2 3)", "POINT M (7 8 9)"};
    struct Case {
        const char* name;
        OGRwkbGeometryType type;
        QStringList wkts;
    };
    const QList<Case> cases = {{"points", wkbPoint, points},
                               {"multipoints", wkbMultiPoint, multipoints},
                               {"lines", wkbLineString, lines},
                               {"multilines", wkbMultiLineString, multilines},
                               {"polygons", wkbPolygon, polygons},
                               {"multipolygons", wkbMultiPolygon, multipolygons},
                               {"lines Z", wkbLineString25D, linesZ},
                               {"points M", wkbPointM, pointsM}};
    for (const Case& c : cases) {
        for (const bool index : {false, true}) {
            for (const bool bbox : {false, true}) {
                const QByteArray name = QByteArray(c.name) + (index ? ", .qix" : "") + (bbox ? ", bbox" : "");
                QTest::newRow(name.constData()) << int(c.type) << c.wkts << index << bbox;
            }
        }
    }
}

// Same ids, geometry and values as OGR; with a bbox, ours may add shapes
// whose bounds meet the box without their lines doing so (MapServer's test,
// OGR's is exact): those must really have bounds that meet it.
void TestShapefile::readsLikeOgr()
{
    QFETCH(int, type);
    QFETCH(QStringList, wkts);
    QFETCH(bool, index);
    QFETCH(bool, withBbox);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("shapes.shp"));
    QList<QStringList> rows;
    for (qsizetype i = 0; i < wkts.size(); ++i) rows << QStringList{QStringLiteral("name %1").arg(i), QString::number(i * 7)};
    QVERIFY(writeShapefile(path, OGRwkbGeometryType(type), wkts, {{"name", OFTString, 20, 0}, {"n", OFTInteger, 6, 0}},
                           rows, index ? QList<QByteArray>{"SPATIAL_INDEX=YES"} : QList<QByteArray>{}));
    QCOMPARE(QFileInfo::exists(dir.filePath(QStringLiteral("shapes.qix"))), index);

    QString error;
    auto ours = ownReader(path, &error);
    QVERIFY2(ours, qPrintable(error));
    QVERIFY(dynamic_cast<ShapefileFeatureSource*>(ours.get()));
    auto ogrOpened = OgrFeatureSource::open(path, {}, {});
    QVERIFY2(ogrOpened, qPrintable(ogrOpened.message()));
    const auto ogr = std::move(ogrOpened).value();
    FeatureQuery q;
    q.attributes = {QStringLiteral("N"), QStringLiteral("name"), QStringLiteral("missing")};
    if (withBbox) q.bbox = Rect{0.5, 0.5, 9.5, 5.5};
    const Read a = readAll(*ours, q), b = readAll(*ogr, q);
    QVERIFY2(a.error.isEmpty(), qPrintable(a.error));
    QVERIFY(b.error.isEmpty());
    QVERIFY(!a.ids.isEmpty());
    for (qsizetype i = 0; i < a.ids.size(); ++i) {
        const qsizetype j = b.ids.indexOf(a.ids[i]);
        if (j < 0) {
            QVERIFY(withBbox);
            const Rect r = a.features[i].geometry.bounds();
            QVERIFY(r.minx <= q.bbox.maxx && r.maxx >= q.bbox.minx && r.miny <= q.bbox.maxy && r.maxy >= q.bbox.miny);
            continue;
        }
        const Feature& x = a.features[i];
        const Feature& y = b.features[j];
        QCOMPARE(int(x.geometry.type), int(y.geometry.type));
        QCOMPARE(sortedParts(x.geometry), sortedParts(y.geometry));
        QCOMPARE(x.values, y.values);
        QCOMPARE(x.values.value(0), QString::number(x.id * 7));
        QCOMPARE(x.values.value(2), QString());
    }
    for (qint64 id : b.ids) QVERIFY2(a.ids.contains(id), "OGR found a feature the reader missed");
    QVERIFY(std::is_sorted(a.ids.begin(), a.ids.end()));
}

// MapServer hands attributes over as written in the .dbf, trimmed: numbers
// keep their decimals, dates stay YYYYMMDD (OGR would say YYYY/MM/DD).
void TestShapefile::attributesAreMapServersRawText()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("attrs.shp"));
    QVERIFY(writeShapefile(path, wkbPoint, {"POINT (1 1)", "POINT (2 2)"},
                           {{"label", OFTString, 30, 0}, {"count", OFTInteger, 8, 0}, {"ratio", OFTReal, 12, 3},
                            {"day", OFTDate, 8, 0}},
                           {{"  padded text ", "42", "2.5", "2024/01/31"}, {"東京駅", "", "", ""}}, {"ENCODING=UTF-8"}));
    QString error;
    auto src = ownReader(path, &error);
    QVERIFY2(src, qPrintable(error));
    FeatureQuery q;
    q.attributes = {QStringLiteral("*")};
    const Read r = readAll(*src, q);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.features.size(), 2);
    QCOMPARE(src->fields(), QStringList({"label", "count", "ratio", "day"}));
    // Text keeps leading blanks and loses trailing ones, as MapServer reads it.
    QCOMPARE(r.features[0].values, QStringList({"  padded text", "42", "2.500", "20240131"}));
    // Unset numbers are '*' in the .dbf, an unset date is written 00000000:
    // MapServer reads both as "0".
    QCOMPARE(r.features[1].values, QStringList({"東京駅", "0", "0", "0"}));
}

void TestShapefile::latin1FileIsDecoded()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("latin.shp"));
    QVERIFY(writeShapefile(path, wkbPoint, {"POINT (1 1)"}, {{"city", OFTString, 20, 0}}, {{"Zürich Straße"}},
                           {"ENCODING=ISO-8859-1"}));
    QFile dbf(dir.filePath(QStringLiteral("latin.dbf")));
    QVERIFY(dbf.open(QIODevice::ReadOnly));
    QVERIFY(dbf.readAll().contains(QByteArray("Z\xfcrich Stra\xdf" "e")));  // stored as Latin-1
    QString error;
    auto src = ownReader(path, &error);
    QVERIFY2(src, qPrintable(error));
    FeatureQuery q;
    q.attributes = {QStringLiteral("city")};
    const Read r = readAll(*src, q);
    QCOMPARE(r.features.size(), 1);
    QCOMPARE(r.features[0].values, QStringList({QStringLiteral("Zürich Straße")}));
}

void TestShapefile::deletedRecordsAreSkipped()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("del.shp"));
    QVERIFY(writeShapefile(path, wkbPoint, {"POINT (1 1)", "POINT (2 2)", "POINT (3 3)"}, {{"v", OFTInteger, 4, 0}},
                           {{"1"}, {"2"}, {"3"}}));
    // Mark record 1 deleted the way dBASE does: '*' as its first byte (OGR
    // itself would repack the file when it deletes).
    QFile dbf(dir.filePath(QStringLiteral("del.dbf")));
    QVERIFY(dbf.open(QIODevice::ReadOnly));
    const QByteArray header = dbf.read(12);
    dbf.close();
    const int headerLength = uchar(header[8]) | uchar(header[9]) << 8;
    const int recordLength = uchar(header[10]) | uchar(header[11]) << 8;
    QVERIFY(damageFile(dbf.fileName(), headerLength + recordLength, "*"));
    auto ogrOpened = OgrFeatureSource::open(path, {}, {});
    QVERIFY2(ogrOpened, qPrintable(ogrOpened.message()));
    const auto ogr = std::move(ogrOpened).value();
    QCOMPARE(readAll(*ogr, FeatureQuery{}).ids, QList<qint64>({0, 2}));  // what OGR does
    QString error;
    auto src = ownReader(path, &error);
    QVERIFY2(src, qPrintable(error));
    FeatureQuery q;
    q.attributes = {QStringLiteral("v")};
    const Read r = readAll(*src, q);
    QCOMPARE(r.ids, QList<qint64>({0, 2}));
    QCOMPARE(r.features[1].values, QStringList({"3"}));
}

void TestShapefile::factoryChoosesTheReader()
{
    QTemporaryDir dir;
    QVERIFY(writeShapefile(dir.filePath(QStringLiteral("pts.shp")), wkbPoint, {"POINT (1 1)"}, {{"v", OFTInteger, 4, 0}},
                           {{"7"}}));
    MapDef map;
    map.path = dir.filePath(QStringLiteral("x.map"));
    LayerDef layer;
    layer.name = QStringLiteral("pts");
    layer.data = QStringLiteral("pts");  // MapServer style: no extension
    const EngineContext context;
    auto plain = openFeatureSource(map, layer, context);
    QVERIFY2(plain, qPrintable(plain.message()));
    QVERIFY(dynamic_cast<ShapefileFeatureSource*>(plain->get()));
    // An OGR SQL attribute filter needs OGR.
    layer.processing = {QStringLiteral("NATIVE_FILTER=v = 7")};
    auto filtered = openFeatureSource(map, layer, context);
    QVERIFY2(filtered, qPrintable(filtered.message()));
    QVERIFY(dynamic_cast<OgrFeatureSource*>(filtered->get()));
    // A missing file keeps OGR's message, naming layer and file, and the error
    // carries the LAYER's place for the editor.
    layer.processing.clear();
    layer.data = QStringLiteral("nothere.shp");
    layer.pos = {QStringLiteral("x.map"), 3, 1};
    const auto missing = openFeatureSource(map, layer, context);
    QVERIFY(!missing);
    const QString error = missing.message();
    QVERIFY2(error.contains(QLatin1String("layer 'pts'")) && error.contains(QLatin1String("nothere.shp")), qPrintable(error));
    QCOMPARE(missing.error().where.line, 3);
    QVERIFY(missing.error().toString().startsWith(QLatin1String("x.map:3:1: ")));
}

// Random boxes over 400 random segments: the index returns every record
// whose bounds meet the box (a superset is allowed: nodes are coarse).
void TestShapefile::qixSearchFindsEveryOverlappingShape()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("many.shp"));
    QRandomGenerator rng(7);
    QStringList wkts;
    QList<Rect> bounds;
    for (int i = 0; i < 400; ++i) {
        const double x = rng.bounded(1000.0), y = rng.bounded(1000.0);
        const double x2 = x + rng.bounded(40.0), y2 = y + rng.bounded(40.0);
        wkts << QStringLiteral("LINESTRING (%1 %2,%3 %4)").arg(x).arg(y).arg(x2).arg(y2);
        bounds << Rect{x, y, x2, y2};
    }
    QVERIFY(writeShapefile(path, wkbLineString, wkts, {}, {}, {"SPATIAL_INDEX=YES"}));
    auto qix = QixIndex::load(dir.filePath(QStringLiteral("many.qix")));
    QVERIFY(qix);
    for (int t = 0; t < 50; ++t) {
        const double x = rng.bounded(1000.0), y = rng.bounded(1000.0);
        const Rect box{x, y, x + 1 + rng.bounded(200.0), y + 1 + rng.bounded(200.0)};
        std::vector<int> ids;
        QVERIFY(qix->search(box, 400, ids));
        QVERIFY(std::is_sorted(ids.begin(), ids.end()));
        QVERIFY(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
        for (int i = 0; i < 400; ++i) {
            const Rect& r = bounds[i];
            const bool meets = r.minx <= box.maxx && r.maxx >= box.minx && r.miny <= box.maxy && r.maxy >= box.miny;
            if (meets) QVERIFY2(std::binary_search(ids.begin(), ids.end(), i), qPrintable(QString::number(i)));
        }
        QVERIFY(ids.size() < 400);  // it does prune
    }
}

void TestShapefile::hostileQixNeverCrashes_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("loads");
    const QByteArray header = QByteArray("SQT\x01\x01\0\0\0", 8) + le32(10) + le32(3);
    const QByteArray rect(32, '\0');  // 0,0,0,0 meets a box around the origin
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("old format") << QByteArray(16, '\x05') << false;
    QTest::newRow("header only") << header << true;
    QTest::newRow("huge shape count") << header + le32(0) + rect + le32(0x7fffffff) << true;
    QTest::newRow("negative skip") << header + le32(-100) + rect + le32(0) + le32(0) << true;
    QTest::newRow("too many children") << header + le32(0) + rect + le32(0) + le32(9) << true;
    QByteArray deep = header;
    for (int i = 0; i < 200; ++i) deep += le32(0) + rect + le32(0) + le32(1);  // a chain 200 deep
    QTest::newRow("200 levels") << deep << true;
    QTest::newRow("ids out of range") << header + le32(0) + rect + le32(3) + le32(-1) + le32(10) + le32(9999) + le32(0)
                                      << true;
}

void TestShapefile::hostileQixNeverCrashes()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, loads);
    auto qix = QixIndex::fromBytes(bytes);
    QCOMPARE(bool(qix), loads);
    if (!qix) return;
    std::vector<int> ids;
    const bool ok = qix->search(Rect{-1, -1, 1, 1}, 10, ids);
    for (int id : ids) QVERIFY(id >= 0 && id < 10);
    if (QByteArray(QTest::currentDataTag()) == "ids out of range") QVERIFY(ok && ids.empty());
    if (QByteArray(QTest::currentDataTag()) == "200 levels") QVERIFY(!ok);
}

void TestShapefile::damageIsAnError_data()
{
    QTest::addColumn<QString>("damage");
    QTest::newRow("shx entry points elsewhere") << "shx-offset";
    QTest::newRow("shp cut mid-record") << "shp-cut";
    QTest::newRow("part start past the points") << "parts";
    QTest::newRow("dbf cut short") << "dbf-cut";
    QTest::newRow("garbage qix") << "qix";
}

// Ten lines; record 5 is damaged. The reader stops with an error naming the
// file (the layer renderer adds the layer), except for a garbage index,
// which is ignored: then every record still comes back.
void TestShapefile::damageIsAnError()
{
    QFETCH(QString, damage);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("lines.shp"));
    QStringList wkts;
    QList<QStringList> rows;
    for (int i = 0; i < 10; ++i) {
        wkts << QStringLiteral("LINESTRING (%1 0,%1 1,%1 2)").arg(i);
        rows << QStringList{QString::number(i)};
    }
    QVERIFY(writeShapefile(path, wkbLineString, wkts, {{"v", OFTInteger, 4, 0}}, rows, {"SPATIAL_INDEX=YES"}));
    // Each record: 8 header + 44 + 4 (one part) + 3 * 16 points = 104 bytes.
    const qint64 record5 = 100 + 5 * 104;
    if (damage == QLatin1String("shx-offset")) {
        QVERIFY(damageFile(dir.filePath(QStringLiteral("lines.shx")), 100 + 5 * 8, QByteArray("\0\0\0\x32", 4)));
    } else if (damage == QLatin1String("shp-cut")) {
        QVERIFY(truncateFile(path, record5 + 60));
    } else if (damage == QLatin1String("parts")) {
        QVERIFY(damageFile(path, record5 + 8 + 44, le32(7)));
    } else if (damage == QLatin1String("dbf-cut")) {
        QFile dbf(dir.filePath(QStringLiteral("lines.dbf")));
        QVERIFY(truncateFile(dbf.fileName(), dbf.size() - 6 * 5));
    } else {
        QFile qix(dir.filePath(QStringLiteral("lines.qix")));
        QVERIFY(qix.open(QIODevice::ReadWrite));
        const qint64 size = qix.size();
        QVERIFY(qix.seek(16));
        QVERIFY(qix.write(QByteArray(size - 16, '\xff')) == size - 16);
    }
    QString error;
    auto src = ownReader(path, &error);
    QVERIFY2(src, qPrintable(error));
    QVERIFY(dynamic_cast<ShapefileFeatureSource*>(src.get()));
    for (const bool withBbox : {false, true}) {
        FeatureQuery q;
        q.attributes = {QStringLiteral("v")};
        if (withBbox) q.bbox = Rect{-1, -1, 20, 3};
        const Read r = readAll(*src, q);
        if (damage == QLatin1String("qix")) {
            QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
            QCOMPARE(r.ids.size(), 10);
            continue;
        }
        QVERIFY2(!r.error.isEmpty(), "damage went unnoticed");
        QVERIFY2(r.error.contains(QLatin1String("lines.")) || r.error.contains(QLatin1String(".dbf")), qPrintable(r.error));
        QVERIFY(r.ids.size() <= 5);
    }
}

QTEST_GUILESS_MAIN(TestShapefile)
#include "test_shapefile.moc"
