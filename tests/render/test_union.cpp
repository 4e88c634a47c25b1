// CONNECTIONTYPE UNION: the listed layers' features drawn as one layer,
// each with its source's class (STYLEITEM "AUTO") or with the union's.

#include "mapfile/map_loader.h"
#include "mapfile/map_validator.h"
#include "render/engine.h"
#include "render/map_renderer.h"
#include "render/prepared_map.h"

#include <QTemporaryDir>
#include <QTest>

using namespace maptune;

class TestUnion : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void autoStyleKeepsEachSourcesClass();
    void unionClassesStyleEverySource();
    void statusAndScaleChecks();
    void badSourcesNameTheLayer_data();
    void badSourcesNameTheLayer();

private:
    QTemporaryDir m_dir;
};

namespace {

// Two squares in two OFF layers: green on the left, red on the right.
QByteArray unionMap(const QByteArray& unionBody, const QByteArray& secondExtra = "")
{
    return "MAP\n SIZE 100 100\n EXTENT 0.5 0.5 99.5 99.5\n IMAGECOLOR 255 255 255\n"
           " LAYER\n  NAME \"both\"\n  TYPE POLYGON\n  STATUS ON\n  CONNECTIONTYPE UNION\n" + unionBody + " END\n"
           " LAYER\n  NAME \"left\"\n  TYPE POLYGON\n  STATUS OFF\n"
           "  FEATURE WKT \"POLYGON((10 40,40 40,40 60,10 60,10 40))\" END\n"
           "  CLASS STYLE COLOR 0 255 0 END END\n END\n"
           " LAYER\n  NAME \"right\"\n  TYPE POLYGON\n  STATUS OFF\n" + secondExtra +
           "  FEATURE WKT \"POLYGON((60 40,90 40,90 60,60 60,60 40))\" END\n"
           "  CLASS STYLE COLOR 255 0 0 END END\n END\n"
           "END\n";
}

RenderResult render(const QByteArray& text, const QString& path)
{
    LoadResult loaded = parseMapText(text, path);
    if (!loaded.ok()) return {};
    return MapRenderer(PreparedMap::prepare(loaded.map)).render({});
}

}  // namespace

void TestUnion::initTestCase()
{
    initEngine();
    QVERIFY(m_dir.isValid());
}

void TestUnion::autoStyleKeepsEachSourcesClass()
{
    const RenderResult r = render(unionMap("  CONNECTION \"left,right\"\n  STYLEITEM \"AUTO\"\n  CLASS END\n"), m_dir.filePath("u.map"));
    QCOMPARE(r.trace.layers.size(), 1);
    const LayerTrace& t = r.trace.layers.first();
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    QCOMPARE(t.layer, QStringLiteral("both"));
    QCOMPARE(t.features, qint64(2));
    QCOMPARE(r.image.pixelColor(25, 50), QColor(0, 255, 0));
    QCOMPARE(r.image.pixelColor(75, 50), QColor(255, 0, 0));
    QCOMPARE(r.image.pixelColor(50, 50), QColor(255, 255, 255));
}

void TestUnion::unionClassesStyleEverySource()
{
    const RenderResult r = render(unionMap("  CONNECTION \"left, right\"\n  CLASS STYLE COLOR 0 0 255 END END\n"), m_dir.filePath("u.map"));
    QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
    QCOMPARE(r.image.pixelColor(25, 50), QColor(0, 0, 255));
    QCOMPARE(r.image.pixelColor(75, 50), QColor(0, 0, 255));
}

void TestUnion::statusAndScaleChecks()
{
    // UNION_STATUS_CHECK: only sources that are on; "right" is, "left" is not.
    QByteArray text = unionMap("  CONNECTION \"left,right\"\n  STYLEITEM \"AUTO\"\n  PROCESSING \"UNION_STATUS_CHECK=TRUE\"\n  CLASS END\n");
    text.replace("NAME \"right\"\n  TYPE POLYGON\n  STATUS OFF", "NAME \"right\"\n  TYPE POLYGON\n  STATUS ON");
    RenderResult r = render(text, m_dir.filePath("u.map"));
    QCOMPARE(r.image.pixelColor(25, 50), QColor(255, 255, 255));
    QCOMPARE(r.image.pixelColor(75, 50), QColor(255, 0, 0));
    // A source out of its scale range is left out (the map is at about 1:1400).
    r = render(unionMap("  CONNECTION \"left,right\"\n  STYLEITEM \"AUTO\"\n  CLASS END\n", "  MAXSCALEDENOM 100\n"), m_dir.filePath("u.map"));
    QCOMPARE(r.image.pixelColor(25, 50), QColor(0, 255, 0));
    QCOMPARE(r.image.pixelColor(75, 50), QColor(255, 255, 255));
    // ... unless UNION_SCALE_CHECK is off.
    r = render(unionMap("  CONNECTION \"left,right\"\n  STYLEITEM \"AUTO\"\n  PROCESSING \"UNION_SCALE_CHECK=FALSE\"\n  CLASS END\n",
                        "  MAXSCALEDENOM 100\n"),
               m_dir.filePath("u.map"));
    QCOMPARE(r.image.pixelColor(75, 50), QColor(255, 0, 0));
}

void TestUnion::badSourcesNameTheLayer_data()
{
    QTest::addColumn<QByteArray>("connection");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown") << QByteArray("  CONNECTION \"left,nope\"\n") << QStringLiteral("names no layer 'nope'");
    QTest::newRow("itself") << QByteArray("  CONNECTION \"both\"\n") << QStringLiteral("names no layer 'both'");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("needs a CONNECTION");
}

void TestUnion::badSourcesNameTheLayer()
{
    QFETCH(QByteArray, connection);
    QFETCH(QString, message);
    LoadResult loaded = parseMapText(unionMap(connection + "  CLASS END\n"), m_dir.filePath("bad.map"));
    QVERIFY(loaded.ok());
    QString found;
    for (const Diagnostic& d : validateMap(*loaded.map)) found += d.toString() + QLatin1Char('\n');
    QVERIFY2(found.contains(message) && found.contains(QStringLiteral("'both'")), qPrintable(found));
    const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
    const QString error = r.trace.layers.first().error;
    QVERIFY2(error.startsWith(QStringLiteral("layer 'both'")) && error.contains(message), qPrintable(error));
    // A source of another type.
    QByteArray text = unionMap("  CONNECTION \"left\"\n  CLASS END\n");
    text.replace("NAME \"left\"\n  TYPE POLYGON", "NAME \"left\"\n  TYPE LINE");
    const RenderResult typed = render(text, m_dir.filePath("bad.map"));
    QVERIFY2(typed.trace.layers.first().error.contains(QStringLiteral("differs from the union's")),
             qPrintable(typed.trace.layers.first().error));
}

QTEST_GUILESS_MAIN(TestUnion)
#include "test_union.moc"
