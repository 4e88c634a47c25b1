// Rules that decide what a vector layer draws: TRANSFORM FALSE (pixel
// coordinates), a LAYER EXTENT that misses the view, REQUIRES and
// LABELREQUIRES, CLASSGROUP, and HTML character references in label text.

#include "mapfile/map_loader.h"
#include "render/map_renderer.h"
#include "text/html_entities.h"

#include <QtTest>

using namespace maptune;

namespace {

QImage draw(const QByteArray& layers, const QByteArray& extent = "0 0 100 100")
{
    const QByteArray text = "MAP NAME 'rules' SIZE 100 100 EXTENT " + extent + " IMAGECOLOR 255 255 255\n"
                            "SYMBOL NAME 'sq' TYPE VECTOR FILLED TRUE POINTS 0 0 1 0 1 1 0 1 0 0 END END\n" + layers + "\nEND\n";
    const LoadResult loaded = parseMapText(text, QStringLiteral("rules.map"));
    if (!loaded.ok()) return {};
    return MapRenderer(loaded.map).render({}).image;
}

bool inked(const QImage& image, int x, int y)
{
    return qGray(image.pixel(x, y)) < 200;
}

}  // namespace

class TestLayerRules : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // TRANSFORM FALSE: FEATURE POINTS are pixels from the upper left,
    // whatever the map extent, and they are not filtered by it.
    void transformFalseDrawsInPixels()
    {
        const QByteArray layer = "LAYER NAME 'px' TYPE POINT STATUS ON TRANSFORM FALSE FEATURE POINTS 20 80 END END "
                                 "CLASS STYLE SYMBOL 'sq' SIZE 5 COLOR 0 0 0 END END END";
        for (const QByteArray& extent : {QByteArray("0 0 100 100"), QByteArray("5000 5000 6000 6000")}) {
            const QImage image = draw(layer, extent);
            QVERIFY(!image.isNull());
            QVERIFY2(inked(image, 20, 80), extent.constData());
            QVERIFY(!inked(image, 80, 20));
        }
    }

    // A layer whose EXTENT misses the view is skipped (msLayerIsVisible).
    void extentOutsideViewSkipsLayer()
    {
        const QByteArray feature = " TYPE POINT STATUS ON TRANSFORM FALSE FEATURE POINTS 50 50 END END "
                                   "CLASS STYLE SYMBOL 'sq' SIZE 5 COLOR 0 0 0 END END END";
        QVERIFY(inked(draw("LAYER NAME 'in' EXTENT 0 0 10 10" + feature), 50, 50));
        QVERIFY(!inked(draw("LAYER NAME 'out' EXTENT 500 500 600 600" + feature), 50, 50));
    }

    // REQUIRES (msEvalContext): "[name]" is 1 when that layer is visible --
    // on and in its scale range -- and the layer draws when the whole holds.
    void requiresFollowsOtherLayers()
    {
        const auto map = [](const QByteArray& statusA, const QByteArray& rangeA, const QByteArray& context) {
            return draw("LAYER NAME 'a' TYPE POINT STATUS " + statusA + " " + rangeA
                        + " TRANSFORM FALSE FEATURE POINTS 20 20 END END CLASS STYLE SYMBOL 'sq' SIZE 5 COLOR 0 0 0 END END END\n"
                          "LAYER NAME 'b' TYPE POINT STATUS ON REQUIRES '" + context
                        + "' TRANSFORM FALSE FEATURE POINTS 80 80 END END CLASS STYLE SYMBOL 'sq' SIZE 5 COLOR 0 0 0 END END END");
        };
        QVERIFY(!inked(map("ON", "", "![a]"), 80, 80));
        QVERIFY(inked(map("ON", "", "![a]"), 20, 20));
        QVERIFY(inked(map("OFF", "", "![a]"), 80, 80));
        QVERIFY(inked(map("ON", "", "[a]"), 80, 80));
        QVERIFY(!inked(map("OFF", "", "[a]"), 80, 80));
        // Out of its scale range the layer counts as off.
        QVERIFY(inked(map("ON", "MAXSCALEDENOM 10", "![a]"), 80, 80));
        QVERIFY(inked(map("ON", "", "![a] OR 1 = 1"), 80, 80));
        // A context that does not parse is false.
        QVERIFY(!inked(map("ON", "", "[a] AND ("), 80, 80));
    }

    // Layers requiring each other end without drawing either, not in an endless loop.
    void requiresCycleEnds()
    {
        const QImage image = draw(
            "LAYER NAME 'a' TYPE POINT STATUS ON REQUIRES '[b]' TRANSFORM FALSE FEATURE POINTS 20 20 END END "
            "CLASS STYLE SYMBOL 'sq' SIZE 5 COLOR 0 0 0 END END END\n"
            "LAYER NAME 'b' TYPE POINT STATUS ON REQUIRES '[a]' TRANSFORM FALSE FEATURE POINTS 80 80 END END "
            "CLASS STYLE SYMBOL 'sq' SIZE 5 COLOR 0 0 0 END END END");
        QVERIFY(!image.isNull());
        QVERIFY(!inked(image, 20, 20));
        QVERIFY(!inked(image, 80, 80));
    }

    // LABELREQUIRES and LABELMAXSCALEDENOM take the labels away and leave the features.
    void labelRulesKeepFeatures()
    {
        const auto map = [](const QByteArray& rules) {
            return draw("LAYER NAME 'a' TYPE POINT STATUS ON FEATURE POINTS 1 1 END END END\n"
                        "LAYER NAME 'b' TYPE POINT STATUS ON " + rules
                        + " TRANSFORM FALSE FEATURE POINTS 20 20 END TEXT 'WWWW' END "
                          "CLASS STYLE SYMBOL 'sq' SIZE 5 COLOR 0 0 0 END LABEL POSITION LR OFFSET 30 30 COLOR 0 0 0 SIZE 10 END END END");
        };
        const auto labelled = [](const QImage& image) {
            for (int y = 40; y < 100; ++y)
                for (int x = 40; x < 100; ++x)
                    if (inked(image, x, y)) return true;
            return false;
        };
        QVERIFY(labelled(map("")));
        QVERIFY(inked(map(""), 20, 20));
        for (const QByteArray& rules : {QByteArray("LABELREQUIRES '![a]'"), QByteArray("LABELMAXSCALEDENOM 10"),
                                       QByteArray("LABELMINSCALEDENOM 1e12")}) {
            const QImage image = map(rules);
            QVERIFY2(!labelled(image), rules.constData());
            QVERIFY2(inked(image, 20, 20), rules.constData());
        }
    }

    // CLASSGROUP draws with the classes of that GROUP only; a CLASSGROUP no
    // class has leaves all classes in play.
    void classGroupChoosesClasses()
    {
        const auto layer = [](const QByteArray& group) {
            return "LAYER NAME 'g' TYPE POINT STATUS ON CLASSGROUP '" + group + "' FEATURE POINTS 50 50 END END "
                   "CLASS GROUP 'red' STYLE SYMBOL 'sq' SIZE 9 COLOR 255 0 0 END END "
                   "CLASS GROUP 'blue' STYLE SYMBOL 'sq' SIZE 9 COLOR 0 0 255 END END END";
        };
        QCOMPARE(QColor(draw(layer("blue")).pixel(50, 50)), QColor(0, 0, 255));
        QCOMPARE(QColor(draw(layer("red")).pixel(50, 50)), QColor(255, 0, 0));
        QCOMPARE(QColor(draw(layer("none")).pixel(50, 50)), QColor(255, 0, 0));
    }

    // A TrueType FONT the FONTSET lacks fails the layer with MapServer's
    // msGetFontFace message, once a feature carries the label.
    void missingTrueTypeFontFails()
    {
        const QByteArray text = "MAP NAME 'fonts' SIZE 100 100 EXTENT 0 0 100 100\n"
                                "LAYER NAME 'l' TYPE POINT STATUS ON FEATURE POINTS 50 50 END END\n"
                                "CLASS LABEL TYPE TRUETYPE FONT 'nosuch' SIZE 8 TEXT 'x' END END END\nEND\n";
        const LoadResult loaded = parseMapText(text, QStringLiteral("fonts.map"));
        QVERIFY(loaded.ok());
        const RenderResult r = MapRenderer(loaded.map).render({});
        QCOMPARE(r.trace.layers.size(), 1);
        QCOMPARE(r.trace.layers[0].error,
                 QStringLiteral("msGetFontFace(): General error message. Could not find font with key \"nosuch\" in fontset"));
    }

    void htmlEntities_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("decimal and named") << "&#169;&nbsp;Logo" << QStringLiteral("\u00A9\u00A0Logo");
        QTest::newRow("hex") << "&#xE9;t&#XE9;" << QStringLiteral("\u00E9t\u00E9");
        QTest::newRow("markup") << "&lt;b&gt; &amp; &quot;q&quot;" << "<b> & \"q\"";
        QTest::newRow("Latin-1 names") << "&Auml;&szlig;&yuml;" << QStringLiteral("\u00C4\u00DF\u00FF");
        QTest::newRow("unknown stays") << "&bogus; & &#; &#xZZ;" << "&bogus; & &#; &#xZZ;";
        QTest::newRow("no surrogates or NUL") << "&#xD800;&#0;&#1114112;" << "&#xD800;&#0;&#1114112;";
        QTest::newRow("outside the BMP") << "&#128512;" << QString::fromUcs4(U"\U0001F600");
    }
    void htmlEntities()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QCOMPARE(decodeHtmlEntities(text), expected);
    }
};

QTEST_MAIN(TestLayerRules)
#include "test_layer_rules.moc"
