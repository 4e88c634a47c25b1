// Text in several scripts as MapServer's textlayout.c writes it: each line
// cut into runs of one direction and script, each run in the first font of
// the FONT list that has all its glyphs ("ar:" tagged fonts first for
// Arabic), right-to-left runs shaped by HarfBuzz, the last font writing '?'
// for what it lacks. DejaVu Serif has no Arabic, DejaVu Sans has.

#include "text/font_face.h"
#include "text/font_list.h"
#include "text/text_path.h"

#include <QtTest>

using namespace maptune;

namespace {

const QString kSerif = QStringLiteral("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf");
const QString kSans = QStringLiteral("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
const QString kSalam = QString::fromUtf8("\u0633\u0644\u0627\u0645");  // seen lam alef meem

KeyValues fontset()
{
    KeyValues k;
    k.set(QStringLiteral("serif"), kSerif);
    k.set(QStringLiteral("sans"), kSans);
    return k;
}

TextLayoutOptions options(QChar wrap = {})
{
    TextLayoutOptions o;
    o.glyphSize = 12;
    o.wrap = wrap;
    return o;
}

}  // namespace

class TestTextRuns : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFile::exists(kSerif) && QFile::exists(kSans), "fonts-dejavu-core is installed");
        QVERIFY(!FontFace::forThread(kSerif)->hasGlyph(U'\u0633'));
        QVERIFY(FontFace::forThread(kSans)->hasGlyph(U'\u0633'));
    }

    void fontListReadsPrefixesAndKeys()
    {
        const FontList l = FontList::parse(QStringLiteral("serif,ar:sans,nosuch,"), fontset());
        QCOMPARE(l.entries.size(), 4);
        QCOMPARE(l.entries[0].path, kSerif);
        QCOMPARE(l.entries[1].prefix, QStringLiteral("ar:"));
        QCOMPARE(l.entries[1].path, kSans);
        QVERIFY(l.entries[2].path.isEmpty());
        QVERIFY(l.entries[3].path.isEmpty());
        QVERIFY(FontList::parse(QString(), fontset()).isBuiltIn());
    }

    void eachRunTakesTheFirstFontWithAllItsGlyphs()
    {
        const TextPath t = TextPath::layout(QStringLiteral("ab ") + kSalam, FontList::parse(QStringLiteral("serif,sans"), fontset()), options());
        QVERIFY(!t.isEmpty());
        const std::shared_ptr<FontFace> serif = FontFace::forThread(kSerif), sans = FontFace::forThread(kSans);
        // "ab " is Latin: the serif, the first font, writes it.
        QCOMPARE(t.glyphs[0].shape, serif->glyphAt(serif->glyphIndex(U'a'), 12));
        // The Arabic run needs the sans: every one of its glyphs is the sans's.
        for (qsizetype i = 3; i < t.glyphs.size(); ++i) QCOMPARE(t.glyphs[i].shape, sans->glyphAt(t.glyphs[i].shape->index, 12));
    }

    void arabicIsJoinedAndRightToLeft()
    {
        const TextPath t = TextPath::layout(kSalam, FontList::parse(QStringLiteral("sans"), fontset()), options());
        QVERIFY(!t.isEmpty());
        const std::shared_ptr<FontFace> sans = FontFace::forThread(kSans);
        // The rightmost glyph is the first letter, seen, in its initial
        // (joined) form: not the isolated glyph the character maps to.
        const auto rightmost = std::max_element(t.glyphs.cbegin(), t.glyphs.cend(),
                                                [](const PlacedGlyph& a, const PlacedGlyph& b) { return a.pen.x() < b.pen.x(); });
        QVERIFY(rightmost->shape->index != 0);
        QVERIFY(rightmost->shape->index != sans->glyphIndex(U'\u0633'));
        QVERIFY(rightmost->shape->index != sans->glyphIndex(U'\u0645'));
        // Shaped glyphs come in visual order: pens increase left to right.
        for (qsizetype i = 1; i < t.glyphs.size(); ++i) QVERIFY(t.glyphs[i].pen.x() >= t.glyphs[i - 1].pen.x());
    }

    void scriptPrefixedFontsComeFirst()
    {
        // "ar:sans" is tried first for Arabic even though the serif comes first.
        const TextPath t = TextPath::layout(kSalam, FontList::parse(QStringLiteral("serif,ar:sans"), fontset()), options());
        QVERIFY(!t.isEmpty());
        const std::shared_ptr<FontFace> sans = FontFace::forThread(kSans);
        for (const PlacedGlyph& g : t.glyphs) QCOMPARE(g.shape, sans->glyphAt(g.shape->index, 12));
    }

    void lastFontWritesQuestionMarks()
    {
        const std::shared_ptr<FontFace> serif = FontFace::forThread(kSerif);
        const TextPath t = TextPath::layout(kSalam, FontList::parse(QStringLiteral("serif"), fontset()), options());
        QVERIFY(!t.isEmpty());
        for (const PlacedGlyph& g : t.glyphs) QCOMPARE(g.shape->index, serif->glyphIndex(U'?'));
    }

    void noFontThatCanWriteGivesNothing()
    {
        // A list ending in an empty key has no last font to fall back on,
        // and a key the FONTSET lacks writes nothing.
        QVERIFY(TextPath::layout(kSalam, FontList::parse(QStringLiteral("serif,"), fontset()), options()).isEmpty());
        QVERIFY(TextPath::layout(QStringLiteral("ab"), FontList::parse(QStringLiteral("nosuch"), fontset()), options()).isEmpty());
    }

    void defaultAlignmentFollowsEachLinesDirection()
    {
        // An Arabic line aligns right, a Latin one left, under ALIGN DEFAULT.
        const TextPath t = TextPath::layout(kSalam + QStringLiteral("#abcdefghijklmnop"),
                                            FontList::parse(QStringLiteral("sans"), fontset()), options(QLatin1Char('#')));
        QCOMPARE(t.lines, 2);
        double arabicLeft = 1e9, arabicRight = 0, latinLeft = 1e9;
        for (const PlacedGlyph& g : t.glyphs) {
            if (g.pen.y() < 0) {
                arabicLeft = std::min(arabicLeft, g.pen.x());
                arabicRight = std::max(arabicRight, g.pen.x() + g.shape->advance);
            } else {
                latinLeft = std::min(latinLeft, g.pen.x());
            }
        }
        QCOMPARE(latinLeft, 0.0);
        QVERIFY2(arabicLeft > 20, qPrintable(QString::number(arabicLeft)));
        QVERIFY2(std::abs(arabicRight - t.bounds.right()) < 1.5, qPrintable(QStringLiteral("%1 %2").arg(arabicRight).arg(t.bounds.right())));
    }
};

QTEST_MAIN(TestTextRuns)
#include "test_text_runs.moc"
