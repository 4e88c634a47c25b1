// Text as MapServer lays it out and draws it (TextPath, TextPainter), the
// label cache's placement order and tests, and the embedded scale bar and
// legend (msDrawScalebar, msDrawLegend, msEmbed*).

#include "expr/feature_classifier.h"
#include "mapfile/map_loader.h"
#include "mapfile/map_validator.h"
#include "render/embed_position.h"
#include "render/label_cache.h"
#include "render/legend.h"
#include "render/map_renderer.h"
#include "render/scalebar.h"
#include "render/text_painter.h"
#include "text/font_face.h"
#include "text/text_path.h"

#include "map_text_render.h"

#include <QtTest>

#include <cmath>

using namespace maptune;

namespace {

QList<QPoint> inkOf(const QImage& image, QRect within = {})
{
    if (within.isNull()) within = image.rect();
    QList<QPoint> out;
    for (int y = within.top(); y <= within.bottom(); ++y)
        for (int x = within.left(); x <= within.right(); ++x)
            if (qAlpha(image.pixel(x, y)) > 0 && qGray(image.pixel(x, y)) < 128) out << QPoint(x, y);
    return out;
}

QRect inkBox(const QImage& image, QRect within = {})
{
    QRect box;
    for (const QPoint& p : inkOf(image, within)) box = box.united(QRect(p, QSize(1, 1)));
    return box;
}

RenderResult render(const QByteArray& text)
{
    return test::renderMapText(text, QStringLiteral("text_labels.map"));
}

LabelCandidate point(const QString& text, QPointF at, int priority = 1)
{
    LabelCandidate c;
    c.text = text;
    c.anchor = at;
    c.glyphSize = 10;
    c.style.priority = priority;
    c.style.partials = true;
    return c;
}

}  // namespace

class TestTextLabels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void faceHasMapServerSizes()
    {
        const std::shared_ptr<FontFace> face = FontFace::forThread({});
        QVERIFY2(face, "the built-in font (DejaVu Sans Condensed) is installed");
        // Size 10 is a 13-pixel em: a capital is about 0.73 em tall.
        const auto h = face->glyph(U'H', 10);
        QVERIFY(!h->contours.empty());
        QVERIFY2(std::abs((h->maxY - h->minY) - 0.729 * 13) < 0.3, qPrintable(QString::number(h->maxY - h->minY)));
        // Unhinted: the advance is the design advance scaled, not rounded to pixels.
        QVERIFY(h->advance != std::round(h->advance));
        QVERIFY(face->hasGlyph(U'H'));
        QVERIFY(!FontFace::forThread(QStringLiteral("/nonexistent/font.ttf")));
    }

    void linesStackUpFromTheLastBaseline()
    {
        TextLayoutOptions o;
        o.glyphSize = 10;
        o.wrap = QLatin1Char('#');
        const TextPath one = TextPath::layout(QStringLiteral("Ab"), FontList(), o);
        const TextPath two = TextPath::layout(QStringLiteral("Ab#Abcdef"), FontList(), o);
        QCOMPARE(one.lines, 1);
        QCOMPARE(two.lines, 2);
        QCOMPARE(two.lineHeight, std::ceil(10 * 1.33));
        QCOMPARE(two.glyphs.first().pen.y(), -two.lineHeight);  // "A" of the first line
        QCOMPARE(two.glyphs.last().pen.y(), 0.0);
        QVERIFY(two.bounds.top() < one.bounds.top() - two.lineHeight + 0.01);
        QCOMPARE(two.bounds.left(), 0.0);
        QVERIFY(two.bounds.width() > one.bounds.width());  // the longer line
        // MAXLENGTH with WRAP: only lines at least that long break.
        o.maxLength = 3;
        o.wrap = QLatin1Char(' ');
        QCOMPARE(TextPath::layout(QStringLiteral("ab cdef gh"), FontList(), o).lines, 2);
    }

    void alignCentersShortLines()
    {
        TextLayoutOptions o;
        o.wrap = QLatin1Char('|');
        o.align = TextAlign::Center;
        const TextPath t = TextPath::layout(QStringLiteral("i|WWWWWW"), FontList(), o);
        const double longest = t.bounds.width();
        const double shortLine = t.glyphs.first().shape->advance;
        QCOMPARE(t.glyphs.first().pen.x(), double(int(int(longest) - int(shortLine))) / 2.0);
        o.align = TextAlign::Right;
        const TextPath r = TextPath::layout(QStringLiteral("i|WWWWWW"), FontList(), o);
        QCOMPARE(r.glyphs.first().pen.x(), double(int(longest) - int(shortLine)));
    }

    void painterDrawsOutlineUnderText()
    {
        const TextPath t = TextPath::layout(QStringLiteral("O"), FontList(), {20, {}, 0, TextAlign::Default});
        QImage image(60, 60, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        TextInk ink;
        ink.color = Color::rgb(0, 0, 0);
        ink.outline = Color::rgb(255, 0, 0);
        ink.outlineWidth = 2;
        TextPainter::draw(image, t, QPointF(10, 40), 0, ink);
        int red = 0, black = 0;
        for (int y = 0; y < 60; ++y)
            for (int x = 0; x < 60; ++x) {
                const QRgb p = image.pixel(x, y);
                if (qRed(p) > 200 && qGreen(p) < 60) ++red;
                if (qGray(p) < 40) ++black;
            }
        QVERIFY2(red > 40 && black > 40, qPrintable(QStringLiteral("%1 red %2 black").arg(red).arg(black)));
        // The counter of the O stays white: the outline does not fill it.
        QCOMPARE(image.pixel(10 + int(t.bounds.center().x()), 40 + int(t.bounds.center().y())), qRgb(255, 255, 255));
    }

    void higherPriorityWinsThenLastAdded()
    {
        QImage canvas(200, 100, QImage::Format_ARGB32_Premultiplied);
        for (const bool prioritised : {false, true}) {
            canvas.fill(Qt::white);
            LabelCache cache;
            LabelCandidate first = point(QStringLiteral("FIRST"), QPointF(100, 50), prioritised ? 5 : 1);
            first.group = cache.nextGroup();
            LabelCandidate second = point(QStringLiteral("SECOND"), QPointF(102, 52));
            second.group = cache.nextGroup();
            second.style.color.color = Color::rgb(0, 0, 255);
            cache.add(first);
            cache.add(second);
            QCOMPARE(cache.draw(canvas, MapDef{}), 1);
            // Same priority: the last added goes first (it is blue). PRIORITY 5: the first.
            bool blue = false;
            for (const QPoint& p : inkOf(canvas)) blue |= qBlue(canvas.pixel(p)) > 128;
            QCOMPARE(blue, !prioritised);
        }
    }

    void groupIsPlacedWholeOrNotAtAll()
    {
        QImage canvas(200, 100, QImage::Format_ARGB32_Premultiplied);
        canvas.fill(Qt::white);
        LabelCache cache;
        LabelCandidate blocker = point(QStringLiteral("BLOCK"), QPointF(150, 50), 10);
        blocker.group = cache.nextGroup();
        cache.add(blocker);
        const int group = cache.nextGroup();
        LabelCandidate a = point(QStringLiteral("free"), QPointF(40, 50));
        LabelCandidate b = point(QStringLiteral("BLOCK"), QPointF(150, 50));
        a.group = b.group = group;
        cache.add(a);
        cache.add(b);
        QCOMPARE(cache.draw(canvas, MapDef{}), 1);
        QVERIFY(inkOf(canvas, QRect(0, 0, 90, 100)).isEmpty());
    }

    void partialsFalseKeepsLabelsInside()
    {
        QImage canvas(100, 100, QImage::Format_ARGB32_Premultiplied);
        for (const bool partials : {true, false}) {
            canvas.fill(Qt::white);
            LabelCache cache;
            LabelCandidate c = point(QStringLiteral("EDGE"), QPointF(2, 50));
            c.style.partials = partials;
            cache.add(c);
            QCOMPARE(cache.draw(canvas, MapDef{}), partials ? 1 : 0);
        }
    }

    void partialsFalseCountsTheBuffer()
    {
        // labelInImage tests the label's bounds with its BUFFER: the label
        // closest to the left edge that fits without a buffer does not fit
        // with one.
        QImage canvas(100, 100, QImage::Format_ARGB32_Premultiplied);
        const auto placed = [&](double x, double buffer) {
            canvas.fill(Qt::white);
            LabelCache cache;
            LabelCandidate c = point(QStringLiteral("Ab"), QPointF(x, 50));
            c.style.partials = false;
            c.style.buffer = buffer;
            cache.add(c);
            return cache.draw(canvas, MapDef{});
        };
        double x = 0;
        while (x < 50 && placed(x, 0) == 0) x += 0.25;
        QVERIFY2(x < 50, "the label fits somewhere");
        QCOMPARE(placed(x, 4), 0);
        QCOMPARE(placed(x + 4, 4), 1);
    }

    void minDistanceSeparatesEqualTexts()
    {
        QImage canvas(300, 100, QImage::Format_ARGB32_Premultiplied);
        for (const bool sameText : {true, false}) {
            canvas.fill(Qt::white);
            LabelCache cache;
            for (int i = 0; i < 2; ++i) {
                LabelCandidate c = point(sameText || i == 0 ? QStringLiteral("A") : QStringLiteral("B"), QPointF(100 + 40 * i, 50));
                c.style.minDistance = 100;
                c.group = cache.nextGroup();
                cache.add(c);
            }
            QCOMPARE(cache.draw(canvas, MapDef{}), sameText ? 1 : 2);
        }
    }

    void autoPositionTriesTheNextPlace()
    {
        QImage canvas(200, 200, QImage::Format_ARGB32_Premultiplied);
        canvas.fill(Qt::white);
        LabelCache cache;
        // Placed first (priority 10), it takes the upper left of the point.
        LabelCandidate blocker = point(QStringLiteral("XXXXXX"), QPointF(100, 100), 10);
        blocker.style.position = LabelPosition::UL;
        blocker.style.color.color = Color::rgb(255, 0, 0);
        cache.add(blocker);
        LabelCandidate c = point(QStringLiteral("auto"), QPointF(100, 100));
        c.style.position = LabelPosition::Auto;
        c.group = cache.nextGroup();
        cache.add(c);
        QCOMPARE(cache.draw(canvas, MapDef{}), 2);
        // UL is taken, so AUTO's next choice for a point is LR: below right.
        const QRect black = inkBox(canvas, QRect(100, 100, 100, 100));
        QVERIFY2(!black.isEmpty(), "the AUTO label went below right of its point");
    }

    void labelStyleIsAMarkerAtTheLabelPoint()
    {
        // A label STYLE without GEOMTRANSFORM is labelpnt: its marker drawn at
        // the label point, the text (POSITION CR) kept clear of it by half
        // its size, and AUTO going around it as around a point's marker.
        const RenderResult r = render(R"(MAP
  SIZE 100 100
  EXTENT 0 0 100 100
  SYMBOL NAME "circle" TYPE ELLIPSE FILLED TRUE POINTS 1 1 END END
  LAYER NAME "areas" TYPE POLYGON STATUS ON
    FEATURE POINTS 20 20 80 20 80 80 20 80 20 20 END TEXT "Ab" END
    CLASS
      LABEL POSITION CR
        STYLE SYMBOL "circle" SIZE 20 COLOR 255 0 0 END
      END
    END
  END
END
)");
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QRgb centre = r.image.pixel(50, 50);
        QVERIFY2(qRed(centre) > 200 && qGreen(centre) < 50, "the marker sits on the label point");
        const QRect text = inkBox(r.image, QRect(61, 0, 39, 100));
        QVERIFY2(!text.isEmpty() && text.left() >= 61, "the text starts right of the 20 px marker");
        QVERIFY(inkBox(r.image, QRect(0, 0, 39, 100)).isEmpty());
    }

    void labelBoxKeepsItsFractionalEdges()
    {
        // A labelpoly box is drawn where the text's bounds put it, corners
        // unrounded, and filled as any polygon (AGG's 0.75 gamma): a pixel row
        // an edge cuts is a blend, not all or nothing (map2img: 213 red here).
        const RenderResult r = render(R"(MAP
  SIZE 100 60
  EXTENT 0 0 100 60
  IMAGECOLOR 255 255 255
  LAYER NAME "p" TYPE POINT STATUS ON
    FEATURE POINTS 40.3 30.6 END TEXT "Abc" END
    CLASS
      LABEL POSITION CC COLOR 0 0 0 SIZE 10
        STYLE GEOMTRANSFORM "labelpoly" COLOR 0 200 0 END
      END
    END
  END
END
)");
        QVERIFY2(r.ok(), qPrintable(r.error));
        // Across the box (the text's advances put its sides on whole pixels here).
        const int column = 40;
        int top = -1, bottom = -1;
        for (int y = 0; y < 60; ++y)
            if (r.image.pixel(column, y) != qRgb(255, 255, 255)) {
                if (top < 0) top = y;
                bottom = y;
            }
        QVERIFY2(top > 0 && bottom > top, "the box is drawn");
        const auto blend = [](QRgb c) { return qRed(c) > 5 && qRed(c) < 250; };
        QVERIFY2(blend(r.image.pixel(column, top)) || blend(r.image.pixel(column, bottom)),
                 qPrintable(QStringLiteral("edge pixels %1 and %2").arg(r.image.pixel(column, top), 0, 16).arg(r.image.pixel(column, bottom), 0, 16)));
    }

    void everyPointOfAMultipointIsLabelled()
    {
        // pointLayerDrawShape: each point of a POINT layer's feature gets its
        // own label, not only the first.
        const RenderResult r = render(R"(MAP
  SIZE 300 60
  EXTENT 0 0 300 60
  IMAGECOLOR 255 255 255
  LAYER NAME "towns" TYPE POINT STATUS ON
    FEATURE POINTS 50 30 150 30 250 30 END TEXT "Ab" END
    CLASS LABEL POSITION CC COLOR 0 0 0 SIZE 10 END END
  END
END
)");
        QVERIFY2(r.ok(), qPrintable(r.error));
        for (int x : {50, 150, 250})
            QVERIFY2(!inkBox(r.image, QRect(x - 20, 0, 40, 60)).isEmpty(), qPrintable(QStringLiteral("a label at x = %1").arg(x)));
    }

    void aMissingItemReadsAsNothing()
    {
        // msEvalTextExpression (issue 5558): "[Missing]" names no item of the
        // feature, so it is replaced by nothing; alone it leaves no label.
        const QByteArray map = R"(MAP
  SIZE 200 60
  EXTENT 0 0 200 60
  IMAGECOLOR 255 255 255
  LAYER NAME "towns" TYPE POINT STATUS ON
    FEATURE POINTS 100 30 END END
    CLASS LABEL TEXT "%1" POSITION CC COLOR 0 0 0 SIZE 10 END END
  END
END
)";
        const RenderResult alone = render(QString::fromLatin1(map).arg(QStringLiteral("[Missing]")).toLatin1());
        QVERIFY2(alone.ok(), qPrintable(alone.error));
        QVERIFY2(inkBox(alone.image).isEmpty(), "no label at all");
        const RenderResult around = render(QString::fromLatin1(map).arg(QStringLiteral("Ab[Missing]Ab")).toLatin1());
        const RenderResult plain = render(QString::fromLatin1(map).arg(QStringLiteral("AbAb")).toLatin1());
        QVERIFY2(around.ok() && plain.ok(), qPrintable(around.error + plain.error));
        QVERIFY(!inkBox(plain.image).isEmpty());
        QCOMPARE(around.image, plain.image);
    }

    void labelStylesBindAttributesAndOffset()
    {
        // A label STYLE's attributes are read with the feature
        // (msLayerWhichItems), and its OFFSET moves its marker.
        LayerDef layer;
        ClassDef cls;
        LabelDef label;
        StyleDef style;
        style.angle.attribute = QStringLiteral("wangle");
        style.color.attribute = QStringLiteral("tint");
        label.styles << style;
        label.outlineColor.attribute = QStringLiteral("halo");
        cls.labels << label;
        layer.classes << cls;
        const auto compiled = LayerExpressions::compile(layer);
        QVERIFY(compiled.ok());
        for (const char* item : {"wangle", "tint", "halo"})
            QVERIFY2((*compiled)->attributes().contains(QLatin1String(item)), item);

        const QByteArray map = R"(MAP
  SIZE 200 60
  EXTENT 0 0 200 60
  IMAGECOLOR 255 255 255
  LAYER NAME "towns" TYPE POINT STATUS ON
    FEATURE POINTS 100 30 END END
    CLASS LABEL STYLE GEOMTRANSFORM "labelpnt" SYMBOL 0 SIZE 6 COLOR 0 0 0 OFFSET %1 0 END FORCE TRUE END END
  END
END
)";
        const RenderResult still = render(QString::fromLatin1(map).arg(0).toLatin1());
        const RenderResult moved = render(QString::fromLatin1(map).arg(-30).toLatin1());
        QVERIFY2(still.ok() && moved.ok(), qPrintable(still.error + moved.error));
        const QRect a = inkBox(still.image), b = inkBox(moved.image);
        QVERIFY(!a.isEmpty());
        QCOMPARE(b, a.translated(-30, 0));
    }

    void labelsOffAMarkerUseMapServersIntegerOffsets()
    {
        // msDrawLabelCache: half the cached marker's box (w - 1 pixels wide)
        // plus half an outlined label's outline, truncated to a whole pixel.
        // Markers of 7 and 8 pixels put the text at the same place (3 px off);
        // an outline of 1 moves it one pixel further from the 8 pixel one.
        const auto textBox = [](int markerSize, bool outline) {
            const QByteArray map = "MAP SIZE 100 40 EXTENT 0 0 100 40 IMAGECOLOR 255 255 255\n"
                                   " SYMBOL NAME \"dot\" TYPE ELLIPSE FILLED TRUE POINTS 1 1 END END\n"
                                   " LAYER NAME \"p\" TYPE POINT STATUS ON FEATURE POINTS 30.5 20.5 END TEXT \"Ab\" END\n"
                                   "  CLASS STYLE SYMBOL \"dot\" SIZE " + QByteArray::number(markerSize) + " COLOR 255 255 0 END\n"
                                   "   LABEL POSITION CR COLOR 0 0 0 SIZE 10 " + (outline ? "OUTLINECOLOR 255 255 255" : "") + " END\n"
                                   "  END\n END\nEND\n";
            const RenderResult r = render(map);
            return r.ok() ? inkBox(r.image) : QRect();
        };
        const QRect seven = textBox(7, false), eight = textBox(8, false), outlined = textBox(8, true);
        QVERIFY(!seven.isEmpty());
        QCOMPARE(eight, seven);
        QCOMPARE(outlined.left(), eight.left() + 1);
    }

    void labelsKeepOffOtherPointsMarkers()
    {
        // A labelled point's marker is on the map before any label is placed:
        // another layer's label may not cover it. "B" goes 40 px above its
        // square, so only the square can stand in "Longer name"'s way.
        const QString map = QStringLiteral(R"(MAP
  SIZE 200 100
  EXTENT 0 0 200 100
  SYMBOL NAME "square" TYPE VECTOR FILLED TRUE POINTS 0 0 1 0 1 1 0 1 0 0 END END
  LAYER NAME "towns" TYPE POINT STATUS ON
    FEATURE POINTS 50 50 END TEXT "Longer name" END
    CLASS LABEL POSITION CR END END
  END
  LAYER NAME "marks" TYPE POINT STATUS ON
    FEATURE POINTS %1 50 END TEXT "B" END
    CLASS
      STYLE SYMBOL "square" SIZE 6 COLOR 0 0 255 END
      LABEL POSITION CC OFFSET 0 -40 END
    END
  END
END
)");
        const RenderResult inTheWay = render(map.arg(80).toLatin1());
        QVERIFY2(inTheWay.ok(), qPrintable(inTheWay.error));
        QCOMPARE(inTheWay.trace.layers[1].labelsPlaced, 1);
        QCOMPARE(inTheWay.trace.layers[0].labelsPlaced, 0);
        const RenderResult aside = render(map.arg(180).toLatin1());
        QCOMPARE(aside.trace.layers[0].labelsPlaced, 1);
    }

    void labelFontsAreChecked()
    {
        const LoadResult loaded = parseMapText(R"(MAP
  SIZE 100 100
  EXTENT 0 0 100 100
  LAYER NAME "towns" TYPE POINT STATUS ON
    FEATURE POINTS 50 50 END END
    CLASS
      LABEL FONT "nosuchfont" WRAP "ab" TEXT "x"
        STYLE GEOMTRANSFORM "bogus" COLOR 1 2 3 END
      END
    END
  END
END
)", QStringLiteral("fonts.map"));
        QVERIFY(loaded.ok());
        QStringList messages;
        for (const Diagnostic& d : validateMap(*loaded.map)) messages << d.message;
        const QString all = messages.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("FONT 'nosuchfont' is not in the FONTSET")) && all.contains(QLatin1String("'towns'")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("WRAP 'ab'")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("GEOMTRANSFORM 'bogus'")), qPrintable(all));
        // And the map still renders, the label in the built-in font.
        const RenderResult r = MapRenderer(loaded.map).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(!inkOf(r.image).isEmpty());
    }

    void hostileLabelsStillRender()
    {
        // Empty texts, a huge SIZE, a degenerate scale bar and legend: drawn
        // or skipped, never a crash (the same map seeds the mapfile fuzzer).
        const LoadResult loaded = loadMapFile(QStringLiteral(MAPTUNE_SOURCE_DIR "/tests/fuzz/corpus/mapfile/labels_bad_input.map"));
        QVERIFY(loaded.map);
        const RenderResult r = MapRenderer(loaded.map).render({});
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.image.size(), QSize(100, 100));
    }

    void traceCountsPlacements()
    {
        // Two points close together, both labelled: one label is placed, and
        // the layer's trace says how many placements were tried.
        const RenderResult r = render(R"(MAP
  SIZE 100 100
  EXTENT 0 0 100 100
  LAYER NAME "towns" TYPE POINT STATUS ON
    FEATURE POINTS 50 50 END TEXT "Alpha" END
    FEATURE POINTS 52 50 END TEXT "Beta" END
    CLASS LABEL POSITION CC END END
  END
END
)");
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.trace.layers.size(), 1);
        QCOMPARE(r.trace.layers[0].labelsPlaced, 1);
        QCOMPARE(r.trace.layers[0].labelsTried, 2);
        QVERIFY(r.trace.table().contains(QLatin1String("2 placements tried, 1 placed")));
    }

    void roundedIntervals_data()
    {
        QTest::addColumn<double>("in");
        QTest::addColumn<double>("out");
        QTest::newRow("tiny") << 0.000123 << 0.0001;
        QTest::newRow("thousandths") << 0.00123 << 0.001;
        QTest::newRow("tenths") << 0.2215 << 0.2;
        QTest::newRow("units") << 42.4 << 42.0;
        QTest::newRow("hundreds") << 1234.0 << 1200.0;
        QTest::newRow("big") << 98765.0 << 99000.0;
    }
    void roundedIntervals()
    {
        QFETCH(double, in);
        QFETCH(double, out);
        QCOMPARE(roundScalebarInterval(in), out);
    }

    void embedPositions()
    {
        const QSize canvas(160, 40), bar(150, 20);
        QCOMPARE(embedTopLeft(canvas, bar, QStringLiteral("LL")), QPoint(0, 20));
        QCOMPARE(embedTopLeft(canvas, bar, QStringLiteral("UR")), QPoint(10, 0));
        QCOMPARE(embedTopLeft(canvas, bar, QStringLiteral("lc"), QPoint(5, 5)), QPoint(10, 15));
    }

    void embeddedScalebarAlternatesBoxes()
    {
        const RenderResult r = render(R"(MAP
  EXTENT -180 -90 180 90
  SIZE 160 40
  IMAGECOLOR 0 0 0
  SCALEBAR
    LABEL COLOR 0 0 0 SIZE 9 END
    SIZE 150 3
    COLOR 0 0 0
    BACKGROUNDCOLOR 255 255 255
    OUTLINECOLOR 0 0 0
    UNITS kilometers
    INTERVALS 3
    STATUS EMBED
  END
END
)");
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QImage& img = r.image;
        // A white 150-pixel bar image at the lower left, on the black map.
        QCOMPARE(img.pixel(0, 39), qRgb(255, 255, 255));
        QCOMPARE(img.pixel(149, 20), qRgb(255, 255, 255));
        QCOMPARE(img.pixel(155, 39), qRgb(0, 0, 0));
        QCOMPARE(img.pixel(0, 19), qRgb(0, 0, 0));
        // Row 3 of the bar image is the outline; on the middle row the
        // boxes go black, white, black.
        const int row = 20 + 3 + 1;
        QList<int> changes;
        QRgb last = img.pixel(0, row);
        for (int x = 1; x < 150; ++x) {
            if (img.pixel(x, row) != last) changes << x;
            last = img.pixel(x, row);
        }
        // Black from the left outline, white inside the middle box (its
        // outlines are black), black again to the right outline.
        QCOMPARE(changes.size(), 4);
        QCOMPARE(img.pixel(changes[1], row), qRgb(255, 255, 255));
        QCOMPARE(changes[2] - changes[1], changes[1] - changes[0] - 2);
        QCOMPARE(changes[3] - changes[2], changes[1] - changes[0]);
        // Some text (the interval values) is drawn under the bar.
        QVERIFY(!inkOf(img, QRect(0, 28, 150, 12)).isEmpty());
    }

    void embeddedLegendInItsCorner()
    {
        const RenderResult r = render(R"(MAP
  EXTENT 0 0 100 100
  SIZE 200 200
  IMAGECOLOR 0 0 255
  LEGEND
    STATUS EMBED
    POSITION UR
  END
  LAYER
    NAME "l"
    TYPE POLYGON
    STATUS ON
    CLASS
      NAME "Parks"
      STYLE COLOR 0 200 0 END
    END
  END
END
)");
        QVERIFY2(r.ok(), qPrintable(r.error));
        const MapDef map = *parseMapText(R"(MAP
  LEGEND STATUS EMBED END
  LAYER NAME "l" TYPE POLYGON STATUS ON CLASS NAME "Parks" STYLE COLOR 0 200 0 END END END
END
)", QStringLiteral("legend.map")).map;
        const QSize size = legendSize(map, QList<int>{0});
        QVERIFY(size.width() > 2 * kLegendMargin + 20 + 5);
        QCOMPARE(size.height(), 2 * kLegendMargin + 10);
        // The legend's white box sits in the upper right corner (an odd
        // width leaves the last column, as MapServer rounds).
        const QPoint at = embedTopLeft(QSize(200, 200), size, QStringLiteral("UR"));
        QCOMPARE(at.y(), 0);
        QVERIFY(at.x() + size.width() >= 199);
        QCOMPARE(r.image.pixel(at.x(), 0), qRgb(255, 255, 255));
        QCOMPARE(r.image.pixel(at.x() + size.width() - 1, size.height() - 1), qRgb(255, 255, 255));
        QCOMPARE(r.image.pixel(at.x() - 1, 0), qRgb(0, 0, 255));
        QCOMPARE(r.image.pixel(at.x(), size.height()), qRgb(0, 0, 255));
        // The key is the class's green box.
        QCOMPARE(r.image.pixel(at.x() + kLegendMargin + 10, kLegendMargin + 5), qRgb(0, 200, 0));
    }
};

QTEST_GUILESS_MAIN(TestTextLabels)
#include "test_text_labels.moc"
