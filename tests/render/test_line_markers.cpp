// Markers along lines and outlines as MapServer places and sizes them
// (msImagePolylineMarkers, msDrawShadeSymbol, TrueType symbol sizes).

#include "map_text_render.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace maptune;

namespace {

// One pixel per map unit, pixel centres on whole coordinates.
RenderResult render(const QByteArray& layers, const QString& path = QStringLiteral("/tmp/line_markers.map"))
{
    return test::renderMapText("MAP SIZE 100 100 EXTENT -0.5 -0.5 99.5 99.5 IMAGECOLOR 255 255 255\n"
                               " SYMBOL NAME 'vert' TYPE VECTOR POINTS 0 0 0 1 END ANCHORPOINT 0 0 END\n"
                                   + layers + "END\n",
                               path);
}

bool writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    QFile f(dir.filePath(name));
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

double darkness(QRgb c) { return 1 - qGray(c) / 255.0; }

}  // namespace

class TestLineMarkers : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void zeroWidthSymbolAnchorsOnOnePixel()
    {
        // A "vert" tick has no width; msImagePolylineMarkers measures its
        // ANCHORPOINT 0 0 on a symbol one pixel wide, so the tick lands half
        // a pixel further along the line than its point: the first one, 20
        // px along a line from x = 10, is centred on x = 30.5 + 0.5.
        const RenderResult r = render(" LAYER NAME 'l' TYPE LINE STATUS DEFAULT FEATURE POINTS 10 50 90 50 END END\n"
                                      "  CLASS STYLE SYMBOL 'vert' SIZE 10 GAP -40 COLOR 0 0 0 END END\n END\n");
        QVERIFY2(r.ok(), qPrintable(r.error));
        double weight = 0, moment = 0;
        for (int y = 40; y < 60; ++y)
            for (int x = 24; x < 38; ++x) {
                const double d = darkness(r.image.pixel(x, y));
                weight += d, moment += d * (x + 0.5);
            }
        QVERIFY2(weight > 2, "a tick is drawn");
        QVERIFY2(std::abs(moment / weight - 31.0) < 0.15, qPrintable(QString::number(moment / weight)));
    }

    void outlineOnlyPolygonStyleDrawsItsMarkers()
    {
        // msDrawShadeSymbol: an outline-only style with a symbol and a GAP
        // draws the ring as a line of markers (ticks across the edges), not
        // a plain outline.
        const RenderResult r = render(" LAYER NAME 'p' TYPE POLYGON STATUS DEFAULT FEATURE POINTS 20 20 20 80 80 80 80 20 20 20 END END\n"
                                      "  CLASS STYLE OUTLINECOLOR 0 160 0 SYMBOL 'vert' SIZE 6 GAP -10 END END\n END\n");
        QVERIFY2(r.ok(), qPrintable(r.error));
        // The bottom edge runs along row 79 (map y = 20): ticks reach 3-5 px off it.
        int ticked = 0;
        for (int x = 22; x < 78; ++x)
            for (int y : {74, 75, 83, 84}) ticked += qGreen(r.image.pixel(x, y)) < 250 || qRed(r.image.pixel(x, y)) < 250;
        QVERIFY2(ticked >= 4, qPrintable(QString::number(ticked)));
    }

    void svgSymbolIsScaledToItsSizeWithItsTransparency()
    {
        // An SVG symbol 10 x 20 at SIZE 40: scaled by 40 / 20 into a tile of
        // 20 x 40 pixels centred on the point, its drawing's own opacity kept
        // (left half opaque red, right half red at 50 %).
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // (No raw string: moc misreads this one and drops the class.)
        QVERIFY(writeFile(dir, QStringLiteral("bar.svg"),
                          "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='20' viewBox='0 0 10 20'>\n"
                          " <rect x='0' y='0' width='5' height='20' fill='#ff0000'/>\n"
                          " <rect x='5' y='0' width='5' height='20' fill='#ff0000' fill-opacity='0.5'/>\n"
                          "</svg>\n"));
        const RenderResult r = render(" SYMBOL NAME 'bar' TYPE SVG IMAGE 'bar.svg' END\n"
                                      " LAYER NAME 'p' TYPE POINT STATUS DEFAULT FEATURE POINTS 50 50 END END\n"
                                      "  CLASS STYLE SYMBOL 'bar' SIZE 40 END END\n END\n",
                                      dir.filePath(QStringLiteral("svg.map")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        QRect ink;
        for (int y = 0; y < 100; ++y)
            for (int x = 0; x < 100; ++x)
                if (r.image.pixel(x, y) != qRgb(255, 255, 255)) ink = ink.united(QRect(x, y, 1, 1));
        QCOMPARE(ink.size(), QSize(20, 40));
        QVERIFY2(std::abs(ink.center().x() - 49.5) <= 1.5 && std::abs(ink.center().y() - 49.5) <= 1.5,
                 qPrintable(QStringLiteral("centred on the point, not %1,%2").arg(ink.center().x()).arg(ink.center().y())));
        // Put on whole pixels, not resampled: the tile's edge columns are solid.
        QCOMPARE(r.image.pixel(ink.left(), ink.top() + 20), qRgb(255, 0, 0));
        QCOMPARE(r.image.pixel(ink.left() + 4, ink.top() + 20), qRgb(255, 0, 0));
        const QRgb half = r.image.pixel(ink.right() - 4, ink.top() + 20);
        QVERIFY2(qRed(half) == 255 && std::abs(qGreen(half) - 128) <= 2 && std::abs(qBlue(half) - 128) <= 2,
                 qPrintable(QString::number(half, 16)));
    }

    void trueTypeSymbolSizeIsInPoints()
    {
        // MapServer asks FreeType for a TrueType symbol's SIZE in points at
        // 96 dpi: SIZE 12 draws an "H" 16 px tall in its em (cap height
        // about 0.73 of it: 11-12 px), not 12 px (about 9).
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeFile(dir, QStringLiteral("fonts.txt"), "sans /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\n"));
        const RenderResult r = render(" FONTSET 'fonts.txt'\n"
                                      " SYMBOL NAME 'h' TYPE TRUETYPE FONT 'sans' CHARACTER 'H' END\n"
                                      " LAYER NAME 'p' TYPE POINT STATUS DEFAULT FEATURE POINTS 50 50 END END\n"
                                      "  CLASS STYLE SYMBOL 'h' SIZE 12 COLOR 0 0 0 END END\n END\n",
                                      dir.filePath(QStringLiteral("tt.map")));
        QVERIFY2(r.ok(), qPrintable(r.error));
        int top = 100, bottom = -1;
        for (int y = 0; y < 100; ++y)
            for (int x = 30; x < 70; ++x)
                if (darkness(r.image.pixel(x, y)) > 0.5) top = std::min(top, y), bottom = std::max(bottom, y);
        QVERIFY2(bottom >= 0, "the glyph is drawn");
        const int height = bottom - top + 1;
        QVERIFY2(height >= 11 && height <= 13, qPrintable(QString::number(height)));
    }

    void trueTypeCharacterAsHtmlReference()
    {
        // CHARACTER "&#72;" is the character H, as MapServer reads it.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(writeFile(dir, QStringLiteral("fonts.txt"), "sans /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\n"));
        const auto draw = [&](const QByteArray& character) {
            return render(" FONTSET 'fonts.txt'\n"
                          " SYMBOL NAME 'h' TYPE TRUETYPE FONT 'sans' CHARACTER '" + character + "' END\n"
                          " LAYER NAME 'p' TYPE POINT STATUS DEFAULT FEATURE POINTS 50 50 END END\n"
                          "  CLASS STYLE SYMBOL 'h' SIZE 12 COLOR 0 0 0 END END\n END\n",
                          dir.filePath(QStringLiteral("tt.map")));
        };
        const RenderResult literal = draw("H"), reference = draw("&#72;"), hex = draw("&#x48;");
        QVERIFY2(literal.ok() && reference.ok() && hex.ok(), qPrintable(literal.error + reference.error + hex.error));
        QCOMPARE(reference.image, literal.image);
        QCOMPARE(hex.image, literal.image);
    }

    // drawGlyphMarker: the glyph's ink box centred on the point, ANCHORPOINT
    // moving that box (0 0: its top left on the point), ANGLE turning it
    // about the anchor.
    void trueTypeInkBoxAndAnchor()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir, QStringLiteral("fonts.txt"), "sans /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf\n"));
        const auto draw = [&](const QByteArray& anchor, int angle) {
            return render(" FONTSET 'fonts.txt'\n"
                          " SYMBOL NAME 'h' TYPE TRUETYPE FONT 'sans' CHARACTER 'H' " + anchor + " END\n"
                          " LAYER NAME 'p' TYPE POINT STATUS DEFAULT FEATURE POINTS 50 50 END END\n"
                          "  CLASS STYLE SYMBOL 'h' SIZE 20 ANGLE " + QByteArray::number(angle) + " COLOR 0 0 0 END END\n END\n",
                          dir.filePath(QStringLiteral("tt.map")));
        };
        // The ink's bounding box, from pixels at least half dark.
        const auto inkBox = [](const QImage& image) {
            QRect box;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x)
                    if (darkness(image.pixel(x, y)) > 0.5) box |= QRect(x, y, 1, 1);
            return box;
        };
        const RenderResult centred = draw("", 0), topLeft = draw("ANCHORPOINT 0 0", 0), turned = draw("ANCHORPOINT 0 0", 90),
                           turnedCentred = draw("", 90);
        QVERIFY2(centred.ok() && topLeft.ok() && turned.ok() && turnedCentred.ok(), qPrintable(centred.error + topLeft.error));
        // Each box is map2img's for the same map (checked: the same pixels).
        // Centred on the point (50.5, 50.5): 16 x 20 pixels of ink.
        QCOMPARE(inkBox(centred.image), QRect(QPoint(42, 39), QPoint(57, 58)));
        QCOMPARE(inkBox(turnedCentred.image), QRect(QPoint(40, 41), QPoint(59, 56)));
        // ANCHORPOINT 0 0: the box's top left on the point ...
        QCOMPARE(inkBox(topLeft.image), QRect(QPoint(50, 49), QPoint(64, 68)));
        // ... and turned 90 degrees counter-clockwise about it: the box above the point.
        QCOMPARE(inkBox(turned.image), QRect(QPoint(50, 34), QPoint(69, 48)));
    }
};

QTEST_MAIN(TestLineMarkers)
#include "test_line_markers.moc"
