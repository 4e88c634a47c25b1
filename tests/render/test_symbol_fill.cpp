// Polygons filled with a symbol as MapServer tiles them (msDrawShadeSymbol,
// getTile, agg2RenderPolygonTiled).

#include "mapfile/map_loader.h"
#include "render/map_renderer.h"
#include "render/symbol_fill.h"

#include <QtTest>

using namespace maptune;

namespace {

RenderResult render(const QByteArray& body)
{
    const QByteArray text = "MAP SIZE 100 100 EXTENT -0.5 -0.5 99.5 99.5 IMAGECOLOR 255 255 255\n" + body + "END\n";
    const LoadResult loaded = parseMapText(text, QStringLiteral("/tmp/symbol_fill.map"));
    if (!loaded.ok()) {
        RenderResult r;
        r.error = QStringLiteral("mapfile does not parse");
        return r;
    }
    return MapRenderer(loaded.map).render({});
}

const QByteArray kRect = " SYMBOL NAME 'rect' TYPE VECTOR POINTS 0 0 20 0 20 10 0 10 0 0 END END\n";

}  // namespace

class TestSymbolFill : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void vectorSymbolTilesTheFill()
    {
        // An unfilled 20 x 10 rectangle at its own size, no GAP: a seamless
        // 20 x 10 tile repeated from the image's corner, the inside of each
        // cell left unpainted, and no outline around the polygon.
        const RenderResult r = render(kRect + " LAYER NAME 'p' TYPE POLYGON STATUS DEFAULT\n"
                                              "  FEATURE POINTS 5 5 5 95 95 95 95 5 5 5 END END\n"
                                              "  CLASS STYLE SYMBOL 'rect' SIZE 10 COLOR 0 0 255 OUTLINECOLOR 255 0 0 END END\n END\n");
        QVERIFY2(r.ok(), qPrintable(r.error));
        int white = 0, blue = 0;
        for (int y = 20; y < 90; ++y)
            for (int x = 10; x < 70; ++x) {
                const QRgb c = r.image.pixel(x, y);
                QCOMPARE(c, r.image.pixel(x + 20, y));  // the tile repeats across
                QCOMPARE(c, r.image.pixel(x, y - 10));  // and down
                white += c == qRgb(255, 255, 255);
                blue += qBlue(c) > qRed(c) + 60;
                QVERIFY(qRed(c) == qGreen(c));  // no red: no outline, only the tile
            }
        QVERIFY2(white > 1000 && blue > 200, qPrintable(QStringLiteral("%1 white, %2 blue").arg(white).arg(blue)));
    }

    void tileSizeFollowsGapAndSize_data()
    {
        QTest::addColumn<double>("size");
        QTest::addColumn<double>("gap");
        QTest::addColumn<QSize>("tile");
        QTest::newRow("own size, seamless") << 10.0 << 0.0 << QSize(20, 10);
        QTest::newRow("scaled by SIZE over the height") << 5.0 << 0.0 << QSize(10, 5);
        QTest::newRow("a GAP wider than the symbol") << 10.0 << 30.0 << QSize(30, 30);
        QTest::newRow("a GAP under the symbol's width") << 10.0 << 15.0 << QSize(20, 15);
    }
    void tileSizeFollowsGapAndSize()
    {
        QFETCH(double, size);
        QFETCH(double, gap);
        QFETCH(QSize, tile);
        SymbolDef rect;
        rect.type = SymbolType::Vector;
        rect.points = {{0, 0}, {20, 0}, {20, 10}, {0, 10}, {0, 0}};
        MarkerStyle m;
        m.symbol = &rect;
        m.size = size;
        m.fill = Qt::blue;
        QCOMPARE(SymbolFill::tile(m, gap).size(), tile);
    }
};

QTEST_MAIN(TestSymbolFill)
#include "test_symbol_fill.moc"
