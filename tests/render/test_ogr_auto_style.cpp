// STYLEITEM "AUTO": OGR feature style strings become each feature's styles.

#include "mapfile/map_loader.h"
#include "render/engine.h"
#include "render/map_renderer.h"
#include "render/ogr_auto_style.h"
#include "render/prepared_map.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace maptune;

class TestOgrAutoStyle : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void penBrushAndSymbol();
    void labelPart();
    void sizesInUnitsAndWholePixels_data();
    void sizesInUnitsAndWholePixels();
    void nothingDrawableGivesNoStyle_data();
    void nothingDrawableGivesNoStyle();
    void featuresDrawnInTheirOwnStyles();

private:
    QTemporaryDir m_dir;
};

void TestOgrAutoStyle::initTestCase()
{
    initEngine();
    QVERIFY(m_dir.isValid());
}

void TestOgrAutoStyle::penBrushAndSymbol()
{
    MapDef map;
    SymbolDef hatch;
    hatch.name = QStringLiteral("rectsymbol");
    map.symbols << hatch;

    QList<StyleDef> line = ogrAutoStyles(QStringLiteral("PEN(c:#ff8000,w:3px)"), LayerType::Line, map);
    QCOMPARE(line.size(), 1);
    QCOMPARE(line[0].color.color, Color::rgb(255, 128, 0));
    QCOMPARE(line[0].width.value, 3.0);

    // A polygon's BRUSH background is a solid style under the brush's
    // symbol (the id matched case aside), its PEN the outline drawn after.
    QList<StyleDef> polygon = ogrAutoStyles(QStringLiteral("BRUSH(fc:#0000ff,bc:#ff0000,id:\"RectSymbol\",dx:6px,dy:6px);PEN(c:#00ff00)"),
                                            LayerType::Polygon, map);
    QCOMPARE(polygon.size(), 3);
    QCOMPARE(polygon[0].color.color, Color::rgb(255, 0, 0));
    QVERIFY(polygon[0].symbolName.isEmpty());
    QCOMPARE(polygon[1].color.color, Color::rgb(0, 0, 255));
    QCOMPARE(polygon[1].symbolName, QStringLiteral("rectsymbol"));
    QCOMPARE(polygon[1].gap, 6.0);
    QCOMPARE(polygon[2].outlineColor.color, Color::rgb(0, 255, 0));
    QVERIFY(!polygon[2].color.isSet());
    // Spacing that differs across and down is no GAP.
    QCOMPARE(ogrAutoStyles(QStringLiteral("BRUSH(fc:#0000ff,id:\"rectsymbol\",dx:6px,dy:4px)"), LayerType::Polygon, map)[0].gap, 0.0);

    // The invisible brush fills nothing, but its background still does; an
    // unknown symbol id is no symbol.
    QList<StyleDef> hollow = ogrAutoStyles(QStringLiteral("BRUSH(fc:#0000ff,id:\"ogr-brush-1\")"), LayerType::Polygon, map);
    QCOMPARE(hollow.size(), 1);
    QVERIFY(!hollow[0].color.isSet());
    QList<StyleDef> backed = ogrAutoStyles(QStringLiteral("BRUSH(bc:#ff0000,id:\"ogr-brush-1\")"), LayerType::Polygon, map);
    QCOMPARE(backed.size(), 2);
    QCOMPARE(backed[0].color.color, Color::rgb(255, 0, 0));
    QVERIFY(!backed[1].color.isSet());
    QList<StyleDef> point = ogrAutoStyles(QStringLiteral("SYMBOL(id:\"ogr-sym-3\",c:#ff000080,s:12px,a:45)"), LayerType::Point, map);
    QCOMPARE(point.size(), 1);
    QCOMPARE(point[0].color.color, Color::rgb(255, 0, 0, 128));
    QCOMPARE(point[0].size.value, 12.0);
    QCOMPARE(point[0].angle.value, 45.0);
    QVERIFY(point[0].symbolName.isEmpty());

    // A parameter named twice: the last counts, as in GDAL (which is never
    // shown the first: GDAL 3.6 leaks it), also in a list left unclosed.
    QCOMPARE(ogrAutoStyles(QStringLiteral("PEN(c:#ff0000,w:2px,C:#00ff00)"), LayerType::Line, map)[0].color.color, Color::rgb(0, 255, 0));
    QCOMPARE(ogrAutoStyles(QStringLiteral("PEN(c:\"#ff0000,\",c:#0000ff"), LayerType::Line, map)[0].color.color, Color::rgb(0, 0, 255));
}

// msOGRUpdateStyleParseLabel: the text as it is, the angle, colours and
// anchor; a FONTSET font by name (bold and italic variants first), else the
// built-in font, MEDIUM; an empty text is no label.
void TestOgrAutoStyle::sizesInUnitsAndWholePixels_data()
{
    QTest::addColumn<QString>("style");
    QTest::addColumn<double>("cellSize");
    QTest::addColumn<double>("size");
    // Ground units over the cell size; pixels and points one to one;
    // millimetres at 72 dpi; each cut to whole pixels (msOGRUpdateStyle).
    QTest::newRow("ground") << QStringLiteral("PEN(c:#ff0000,w:10g)") << 2.0 << 5.0;
    QTest::newRow("ground, cut") << QStringLiteral("PEN(c:#ff0000,w:10g)") << 2.0202 << 4.0;
    QTest::newRow("ground, fine cells") << QStringLiteral("PEN(c:#ff0000,w:10g)") << 0.5 << 20.0;
    QTest::newRow("pixels, cut") << QStringLiteral("PEN(c:#ff0000,w:3.9px)") << 2.0 << 3.0;
    QTest::newRow("points") << QStringLiteral("PEN(c:#ff0000,w:4pt)") << 2.0 << 4.0;
    QTest::newRow("millimetres") << QStringLiteral("PEN(c:#ff0000,w:2mm)") << 2.0 << 5.0;
    QTest::newRow("symbol in ground units") << QStringLiteral("SYMBOL(id:\"ogr-sym-0\",c:#ff0000,s:25g)") << 2.0202 << 12.0;
}

void TestOgrAutoStyle::sizesInUnitsAndWholePixels()
{
    QFETCH(QString, style);
    QFETCH(double, cellSize);
    QFETCH(double, size);
    const bool pen = style.startsWith(QLatin1String("PEN"));
    const QList<StyleDef> styles = ogrAutoStyles(style, pen ? LayerType::Line : LayerType::Point, MapDef(), cellSize);
    QCOMPARE(styles.size(), 1);
    QCOMPARE(pen ? styles[0].width.value : styles[0].size.value, size);
}

void TestOgrAutoStyle::labelPart()
{
    MapDef map;
    const OgrAutoStyle plain = ogrAutoStyle(QStringLiteral("LABEL(t:\"Tr\\\"uro [name]\",a:30,c:#ff0000,o:#ffffff,p:5,f:\"Arial\",s:12px)"),
                                            LayerType::Point, map);
    QVERIFY(plain.styles.isEmpty());
    QCOMPARE(plain.labels.size(), 1);
    const LabelDef& l = plain.labels[0];
    QCOMPARE(l.text.text, QStringLiteral("Tr\"uro [name]"));
    QCOMPARE(l.angle.value, 30.0);
    QCOMPARE(l.color.color, Color::rgb(255, 0, 0));
    QCOMPARE(l.outlineColor.color, Color::rgb(255, 255, 255));
    QCOMPARE(l.position, LabelPosition::CC);
    QCOMPARE(l.type, LabelType::Bitmap);  // no FONTSET: MEDIUM
    QCOMPARE(l.size.value, -1.0);

    map.fonts.set(QStringLiteral("Times-New-Roman-Bold"), QStringLiteral("/fonts/tb.ttf"));
    map.fonts.set(QStringLiteral("default"), QStringLiteral("/fonts/d.ttf"));
    const LabelDef bold = ogrAutoStyle(QStringLiteral("LABEL(t:\"x\",f:\"Times New Roman\",bo:1,s:14px)"), LayerType::Point, map).labels.value(0);
    QCOMPARE(bold.type, LabelType::TrueType);
    QCOMPARE(bold.font.compare(QStringLiteral("times-new-roman-bold"), Qt::CaseInsensitive), 0);
    QCOMPARE(bold.size.value, 14.0);
    QCOMPARE(bold.position, LabelPosition::UR);  // no anchor
    QCOMPARE(ogrAutoStyle(QStringLiteral("LABEL(t:\"x\",f:\"Courier\")"), LayerType::Point, map).labels.value(0).font, QStringLiteral("default"));
    QVERIFY(ogrAutoStyle(QStringLiteral("LABEL(t:\"\",c:#000000)"), LayerType::Point, map).labels.isEmpty());
}

void TestOgrAutoStyle::nothingDrawableGivesNoStyle_data()
{
    QTest::addColumn<QString>("style");
    QTest::newRow("empty") << QString();
    QTest::newRow("garbage") << QStringLiteral("PEN(c:#ff");
    QTest::newRow("label only") << QStringLiteral("LABEL(t:\"x\",s:12pt)");
    QTest::newRow("style table reference") << QStringLiteral("@roads");
}

void TestOgrAutoStyle::nothingDrawableGivesNoStyle()
{
    QFETCH(QString, style);
    QVERIFY(ogrAutoStyles(style, LayerType::Line, MapDef()).isEmpty());
}

void TestOgrAutoStyle::featuresDrawnInTheirOwnStyles()
{
    // The CSV driver reads an OGR_STYLE column as each feature's style string.
    QFile csv(m_dir.filePath(QStringLiteral("styled.csv")));
    QVERIFY(csv.open(QIODevice::WriteOnly));
    csv.write("WKT,OGR_STYLE\n"
              "\"POLYGON((10 10,40 10,40 40,10 40,10 10))\",\"BRUSH(fc:#ff0000)\"\n"
              "\"POLYGON((60 60,90 60,90 90,60 90,60 60))\",\"BRUSH(fc:#0000ff)\"\n"
              "\"POLYGON((60 10,90 10,90 40,60 40,60 10))\",\"BRUSH(fc:#00ff00,id:\"\"ogr-brush-1\"\")\"\n");
    csv.close();
    const QByteArray text = "MAP\n SIZE 100 100\n EXTENT 0.5 0.5 99.5 99.5\n IMAGECOLOR 255 255 255\n"
                            " LAYER\n  NAME \"styled\"\n  TYPE POLYGON\n  STATUS ON\n  CONNECTIONTYPE OGR\n"
                            "  CONNECTION \"styled.csv\"\n  STYLEITEM \"AUTO\"\n  CLASS END\n END\nEND\n";
    LoadResult loaded = parseMapText(text, m_dir.filePath(QStringLiteral("styled.map")));
    QVERIFY(loaded.ok());
    const RenderResult r = MapRenderer(PreparedMap::prepare(loaded.map)).render({});
    QVERIFY2(r.trace.layers.first().error.isEmpty(), qPrintable(r.trace.layers.first().error));
    QCOMPARE(r.image.pixelColor(25, 75), QColor(255, 0, 0));    // y flips: the first square is low
    QCOMPARE(r.image.pixelColor(75, 25), QColor(0, 0, 255));
    QCOMPARE(r.image.pixelColor(75, 75), QColor(255, 255, 255)); // the invisible brush
}

QTEST_GUILESS_MAIN(TestOgrAutoStyle)
#include "test_ogr_auto_style.moc"
