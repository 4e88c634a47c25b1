// Polygons filled with a symbol as MapServer tiles them (msDrawShadeSymbol,
// getTile, agg2RenderPolygonTiled).

#include "mapfile/map_loader.h"
#include "render/map_renderer.h"
#include "render/hatch_fill.h"
#include "render/symbol_fill.h"

#include "map_text_render.h"

#include <QtTest>

#include <cmath>

using namespace maptune;

namespace {

RenderResult render(const QByteArray& body)
{
    const QByteArray text = "MAP SIZE 100 100 EXTENT -0.5 -0.5 99.5 99.5 IMAGECOLOR 255 255 255\n" + body + "END\n";
    return test::renderMapText(text, QStringLiteral("/tmp/symbol_fill.map"));
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

    void hatchLinesStartFromTheImageCorner()
    {
        // createHatch: horizontal lines every 10 px counted from the image's
        // row 0, over the bounds grown by the line's reach.
        const QList<QLineF> lines = HatchFill::lines(QRectF(3, 4, 100, 50), 10, 0, 1);
        QCOMPARE(lines.size(), 5);  // rows 10 to 50
        for (qsizetype i = 0; i < lines.size(); ++i) {
            QCOMPARE(lines[i].y1(), lines[i].y2());
            QCOMPARE(lines[i].y1(), 10.0 * (i + 1));
        }
    }

    void hatchLinesGoThroughTheMapOrigin()
    {
        // MapServer's refpt: with the map's 0, 0 at pixel row 99, lines every
        // 10 px fall on rows 9, 19, ... (map2img draws exactly these).
        for (const QLineF& l : HatchFill::lines(QRectF(3, 4, 100, 50), 10, 0, 1, QPointF(0, 99)))
            QCOMPARE(std::fmod(l.y1(), 10.0), 9.0);
    }

    void hatchAngleTurnsCounterClockwise()
    {
        // ANGLE 45: lines rising to the right ("/"), 8 px apart.
        const QList<QLineF> lines = HatchFill::lines(QRectF(0, 0, 100, 100), 8, 45, 1);
        QVERIFY(lines.size() > 10);
        for (const QLineF& l : lines) {
            QVERIFY2(std::abs(std::abs(l.dx()) - std::abs(l.dy())) < 1e-6, "at 45 degrees");
            QVERIFY2(l.dx() * l.dy() < 0, "rising to the right");
        }
        // The distance between neighbours along the normal.
        const auto offset = [](const QLineF& l) { return (l.x1() + l.y1()) / std::sqrt(2.0); };
        QCOMPARE(std::round(std::abs(offset(lines[1]) - offset(lines[0])) * 1000) / 1000, 8.0);
    }

    void hatchSymbolDrawsClippedLines()
    {
        // A HATCH style: black lines 2 px wide every 10 px inside the polygon
        // only, white between them; no solid fill, no outline.
        const RenderResult r = render(" SYMBOL NAME 'hatch' TYPE HATCH END\n"
                                      " LAYER NAME 'p' TYPE POLYGON STATUS DEFAULT\n"
                                      "  FEATURE POINTS 20 20 20 80 80 80 80 20 20 20 END END\n"
                                      "  CLASS STYLE SYMBOL 'hatch' SIZE 10 WIDTH 2 COLOR 0 0 0 END END\n END\n");
        QVERIFY2(r.ok(), qPrintable(r.error));
        int dark = 0, light = 0;
        for (int y = 25; y < 75; ++y) {
            const int g = qGray(r.image.pixel(50, y));
            dark += g < 160, light += g > 240;
        }
        QVERIFY2(dark >= 8 && light >= 20, qPrintable(QStringLiteral("%1 dark, %2 light").arg(dark).arg(light)));
        for (int y = 0; y < 15; ++y) QCOMPARE(r.image.pixel(50, y), qRgb(255, 255, 255));  // outside
    }
};

QTEST_MAIN(TestSymbolFill)
#include "test_symbol_fill.moc"
