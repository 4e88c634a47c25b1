// Legend keys as msDrawLegendIcon draws them: marker outlines as wide as
// the style's WIDTH, label styles with GEOMTRANSFORM labelpnt at a scale,
// "Az" for classes that only label, OUTLINEWIDTH on line keys, styles out
// of scale left out and STYLE GEOMTRANSFORMs on the key's shape.

#include "mapfile/map_loader.h"
#include "render/legend_icon.h"

#include <QtTest>

using namespace maptune;

namespace {

const QRect kKey(0, 0, 20, 10);

struct Drawn {
    QImage image;
    bool ok = false;
};

// The key of the first class of the map's first layer, on white.
Drawn key(const QByteArray& layer, double scaleDenom, const QRect& box = kKey)
{
    const QByteArray text = "MAP NAME 'k' SIZE 100 100 EXTENT 0 0 100 100\n"
                            "SYMBOL NAME 'circle' TYPE ELLIPSE POINTS 1 1 END FILLED TRUE END\n" + layer + "\nEND\n";
    const LoadResult loaded = parseMapText(text, QStringLiteral("k.map"));
    Drawn out;
    if (!loaded.ok() || loaded.map->layers.isEmpty()) return out;
    out.image = QImage(box.size() + QSize(box.x(), box.y()) * 2, QImage::Format_ARGB32_Premultiplied);
    out.image.fill(Qt::white);
    QPainter p(&out.image);
    p.setRenderHint(QPainter::Antialiasing);
    const LayerDef& l = loaded.map->layers.first();
    drawLegendIcon(p, *loaded.map, l, l.classes.first(), box, scaleDenom);
    out.ok = true;
    return out;
}

int count(const QImage& image, const std::function<bool(QColor)>& test)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) n += test(QColor(image.pixel(x, y)));
    return n;
}

bool dark(QColor c) { return c.red() < 80 && c.green() < 80 && c.blue() < 80; }

}  // namespace

class TestLegendIcon : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void trueTypeMarkerStaysInsideItsKey()
    {
        // A glyph larger than the key is cut at the key, as every key's drawing is.
        const Drawn d = key("SYMBOL NAME 'w' TYPE TRUETYPE CHARACTER 'W' END\n"
                            "LAYER NAME 'p' TYPE POINT CLASS NAME 'c' STYLE SYMBOL 'w' SIZE 30 COLOR 0 0 0 END END END",
                            0, QRect(10, 10, 20, 10));
        QVERIFY(d.ok);
        int inside = 0, outside = 0;
        for (int y = 0; y < d.image.height(); ++y)
            for (int x = 0; x < d.image.width(); ++x)
                (QRect(10, 10, 20, 10).contains(x, y) ? inside : outside) += dark(QColor(d.image.pixel(x, y)));
        QVERIFY(inside > 20);
        QCOMPARE(outside, 0);
    }

    void markerOutlineIsTheStyleWidth()
    {
        const Drawn d = key("LAYER NAME 'p' TYPE POINT CLASS NAME 'c' STYLE SYMBOL 'circle' SIZE 9 COLOR 255 0 0 "
                            "OUTLINECOLOR 0 0 0 END END END", 0);
        QVERIFY(d.ok);
        QCOMPARE(QColor(d.image.pixel(10, 5)), QColor(255, 0, 0));
        QVERIFY2(count(d.image, dark) >= 12, "a black ring round the red disc");
    }

    void labelPointStylesNeedAScale()
    {
        const QByteArray layer = "LAYER NAME 'p' TYPE POLYGON CLASS NAME 'c' LABEL SIZE 8 COLOR 0 0 0 "
                                 "STYLE GEOMTRANSFORM 'labelpnt' SYMBOL 'circle' SIZE 5 COLOR 200 200 200 END END END END";
        const Drawn atScale = key(layer, 25000);
        QVERIFY(atScale.ok);
        QCOMPARE(QColor(atScale.image.pixel(10, 5)), QColor(200, 200, 200));
        QCOMPARE(count(atScale.image, dark), 0);  // a marker, so no "Az"
        // Scale-independent (GetLegendGraphic): no label marker, the text sample instead.
        const Drawn independent = key(layer, 0);
        QVERIFY(count(independent.image, [](QColor c) { return c == QColor(200, 200, 200); }) == 0);
        QVERIFY(count(independent.image, dark) > 5);
    }

    void textOnlyClassShowsAz()
    {
        const Drawn d = key("LAYER NAME 'p' TYPE POINT CLASS NAME 'c' LABEL SIZE 8 COLOR 0 0 255 END END END", 5000);
        QVERIFY(d.ok);
        const int blue = count(d.image, [](QColor c) { return c.blue() > 200 && c.red() < 60; });
        QVERIFY2(blue > 5, qPrintable(QString::number(blue)));
        // Centred: ink on both halves of the key.
        int left = 0, right = 0;
        for (int y = 0; y < d.image.height(); ++y)
            for (int x = 0; x < d.image.width(); ++x)
                if (QColor(d.image.pixel(x, y)).red() < 128) (x < 10 ? left : right)++;
        QVERIFY(left > 0 && right > 0);
    }

    void lineOutlineWidth()
    {
        const Drawn d = key("LAYER NAME 'l' TYPE LINE CLASS NAME 'c' STYLE COLOR 65 134 240 WIDTH 3 OUTLINEWIDTH 1 "
                            "OUTLINECOLOR 0 0 0 END END END", 0);
        QVERIFY(d.ok);
        QVERIFY(count(d.image, dark) > 10);
        QVERIFY(count(d.image, [](QColor c) { return c.blue() > 200 && c.red() < 100; }) > 10);
        const Drawn plain = key("LAYER NAME 'l' TYPE LINE CLASS NAME 'c' STYLE COLOR 65 134 240 WIDTH 3 "
                                "OUTLINECOLOR 0 0 0 END END END", 0);
        QCOMPARE(count(plain.image, dark), 0);  // OUTLINECOLOR alone outlines no line
    }

    void stylesOutOfScaleAreLeftOut()
    {
        const QByteArray layer = "LAYER NAME 'p' TYPE POLYGON CLASS NAME 'c' STYLE COLOR 255 0 0 MAXSCALEDENOM 500 END END END";
        QCOMPARE(QColor(key(layer, 1000).image.pixel(10, 5)), QColor(Qt::white));
        QCOMPARE(QColor(key(layer, 100).image.pixel(10, 5)), QColor(255, 0, 0));
        QCOMPARE(QColor(key(layer, 0).image.pixel(10, 5)), QColor(255, 0, 0));
    }

    // STYLE GEOMTRANSFORM 'start' marks the zigzag's first point, not the line.
    void styleTransformsOnTheKey()
    {
        const Drawn d = key("LAYER NAME 'l' TYPE LINE CLASS NAME 'c' STYLE GEOMTRANSFORM 'start' SYMBOL 'circle' SIZE 5 "
                            "COLOR 255 0 0 END END END", 0, QRect(0, 0, 40, 20));
        QVERIFY(d.ok);
        // The zigzag starts at (0.5, 19.5): red there, nothing in the key's middle.
        QCOMPARE(QColor(d.image.pixel(1, 18)), QColor(255, 0, 0));
        QCOMPARE(QColor(d.image.pixel(20, 10)), QColor(Qt::white));
    }
};

QTEST_MAIN(TestLegendIcon)
#include "test_legend_icon.moc"
