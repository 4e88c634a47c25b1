#include "text/text_path.h"

#include <fribidi.h>
#include <hb.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

namespace maptune {

namespace {

// Control characters other than the line break are not drawn (skip_unicode).
bool skipped(char32_t u)
{
    return u < 0x20 && u != U'\n';
}

std::u32string codePoints(const QString& text, const TextLayoutOptions& o)
{
    std::u32string out;
    for (char32_t u : text.toUcs4())
        if (!skipped(u)) out += u;
    const char32_t wrap = o.wrap.isNull() ? 0 : o.wrap.unicode();
    if (wrap && o.maxLength <= 0) {
        for (char32_t& u : out)
            if (u == wrap) u = U'\n';
    } else if (o.maxLength > 0 && qsizetype(out.size()) > o.maxLength) {
        int onLine = 0;
        for (char32_t& u : out) {
            if ((u == wrap || u == 0x200b) && onLine >= o.maxLength) {
                u = U'\n';
                onLine = 0;
            } else {
                ++onLine;
            }
        }
    }
    return out;
}

// A stretch of one line in one direction and script, written with one face.
struct Run {
    int offset = 0;
    int length = 0;
    int line = 0;
    int level = -1;  // bidi embedding level (odd: right to left); -1: Latin-1 only, no shaping
    hb_script_t script = HB_SCRIPT_LATIN;
    std::shared_ptr<FontFace> face;
    unsigned missing = 0;  // glyph for code points the face lacks ('?' with the last font)
};

enum class Direction { Ltr, Rtl, Mixed };

bool latin1Only(const char32_t* u, int n)
{
    for (int i = 0; i < n; ++i)
        if (u[i] >= 0x2b0) return false;
    return true;
}

// MapServer's language prefixes for a script's preferred fonts.
const char* prefixOf(hb_script_t script)
{
    switch (script) {
    case HB_SCRIPT_LATIN: return "en:";
    case HB_SCRIPT_ARABIC: return "ar:";
    case HB_SCRIPT_HAN: return "cn:";
    case HB_SCRIPT_ARMENIAN: return "hy:";
    case HB_SCRIPT_BENGALI: return "bn:";
    case HB_SCRIPT_CANADIAN_SYLLABICS: return "iu";
    case HB_SCRIPT_CHEROKEE: return "chr:";
    case HB_SCRIPT_COPTIC: return "cop:";
    case HB_SCRIPT_CYRILLIC: return "ru:";
    case HB_SCRIPT_DEVANAGARI: return "hi:";
    case HB_SCRIPT_GEORGIAN: return "ka:";
    case HB_SCRIPT_GREEK: return "el:";
    case HB_SCRIPT_GUJARATI: return "gu:";
    case HB_SCRIPT_GURMUKHI: return "pa:";
    case HB_SCRIPT_HANGUL: return "ko:";
    case HB_SCRIPT_HEBREW: return "he:";
    case HB_SCRIPT_HIRAGANA: return "ja:";
    case HB_SCRIPT_KANNADA: return "kn:";
    case HB_SCRIPT_KATAKANA: return "ja:";
    case HB_SCRIPT_LAO: return "lo:";
    case HB_SCRIPT_MALAYALAM: return "ml:";
    case HB_SCRIPT_MONGOLIAN: return "mn:";
    case HB_SCRIPT_ORIYA: return "or:";
    case HB_SCRIPT_SYRIAC: return "syr:";
    case HB_SCRIPT_TAMIL: return "ta:";
    case HB_SCRIPT_TELUGU: return "te:";
    case HB_SCRIPT_THAI: return "th:";
    case HB_SCRIPT_TIBETAN: return "bo:";
    case HB_SCRIPT_ETHIOPIC: return "am:";
    case HB_SCRIPT_KHMER: return "km:";
    case HB_SCRIPT_MYANMAR: return "my:";
    case HB_SCRIPT_SINHALA: return "si:";
    case HB_SCRIPT_THAANA: return "dv:";
    case HB_SCRIPT_BUHID: return "bku:";
    case HB_SCRIPT_HANUNOO: return "hnn:";
    case HB_SCRIPT_TAGALOG: return "tl:";
    case HB_SCRIPT_TAGBANWA: return "tbw:";
    case HB_SCRIPT_UGARITIC: return "uga:";
    case HB_SCRIPT_BUGINESE: return "bug:";
    case HB_SCRIPT_OLD_PERSIAN: return "peo:";
    case HB_SCRIPT_SYLOTI_NAGRI: return "syl:";
    case HB_SCRIPT_NKO: return "nko:";
    default: return nullptr;
    }
}

// Each code point's script; common and inherited ones take their
// neighbours' (the preceding, else the following).
std::vector<hb_script_t> scriptsOf(const char32_t* u, int n)
{
    hb_unicode_funcs_t* funcs = hb_unicode_funcs_get_default();
    std::vector<hb_script_t> s(n);
    auto neutral = [](hb_script_t x) { return x == HB_SCRIPT_COMMON || x == HB_SCRIPT_INHERITED; };
    hb_script_t last = HB_SCRIPT_UNKNOWN;
    bool backwards = false;
    for (int i = 0; i < n; ++i) {
        s[i] = hb_unicode_script(funcs, u[i]);
        if (!neutral(s[i])) last = s[i];
        else if (last != HB_SCRIPT_UNKNOWN) s[i] = last;
        else backwards = true;
    }
    last = HB_SCRIPT_UNKNOWN;
    for (int i = n - 1; i >= 0 && backwards; --i) {
        if (!neutral(s[i])) last = s[i];
        else if (last != HB_SCRIPT_UNKNOWN) s[i] = last;
    }
    return s;
}

// Splits `runs[i]` wherever `key` changes; the new runs inherit the rest.
template <class Key, class Assign>
void splitRun(std::vector<Run>& runs, std::size_t i, const Key& key, const Assign& assign)
{
    const Run whole = runs[i];
    std::vector<Run> parts;
    Run cur = whole;
    cur.length = 0;
    for (int j = 0; j < whole.length; ++j) {
        const auto k = key(whole.offset + j);
        if (j == 0) assign(cur, k);
        else if (k != key(whole.offset + j - 1)) {
            parts.push_back(cur);
            cur.offset = whole.offset + j;
            cur.length = 0;
            assign(cur, k);
        }
        ++cur.length;
    }
    parts.push_back(cur);
    runs.erase(runs.begin() + qsizetype(i));
    runs.insert(runs.begin() + qsizetype(i), parts.begin(), parts.end());
}

// check_single_font: the face writes every code point of the run, or
// (the last font of the list) writes '?' for those it lacks.
bool tryFace(const std::shared_ptr<FontFace>& face, Run& run, const std::u32string& text, bool ignoreMissing)
{
    if (!face) return false;
    bool complete = true;
    for (int i = 0; i < run.length && complete; ++i) complete = face->glyphIndex(text[run.offset + i]) != 0;
    if (!complete && !ignoreMissing) return false;
    run.face = face;
    run.missing = complete ? 0 : face->glyphIndex(U'?');
    return true;
}

bool faceForRun(const FontList& fonts, const QList<std::shared_ptr<FontFace>>& faces, Run& run, const std::u32string& text)
{
    if (fonts.isBuiltIn()) return tryFace(faces.first(), run, text, true);
    if (const char* prefix = run.level >= 0 ? prefixOf(run.script) : "en:") {
        for (qsizetype i = 0; i < fonts.entries.size(); ++i)
            if (fonts.entries[i].prefix == QLatin1String(prefix) && tryFace(faces[i], run, text, false)) return true;
    }
    for (qsizetype i = 0; i < fonts.entries.size(); ++i)
        if (tryFace(faces[i], run, text, i == fonts.entries.size() - 1)) return true;
    return false;
}

// One run per line, then split by bidi level and by script (msLayoutTextSymbol).
std::vector<Run> runsOf(const std::u32string& text, std::vector<Direction>& lineDirection)
{
    std::vector<Run> runs;
    Run run;
    for (int i = 0; i < int(text.size()); ++i) {
        if (text[i] != U'\n') continue;
        run.length = i - run.offset;
        runs.push_back(run);
        run.offset = i + 1;
        ++run.line;
    }
    if (text.back() != U'\n') {
        run.length = int(text.size()) - run.offset;
        runs.push_back(run);
    }
    lineDirection.assign(runs.back().line + 1, Direction::Ltr);

    std::vector<FriBidiLevel> levels(text.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        Run& r = runs[i];
        if (latin1Only(text.data() + r.offset, r.length)) continue;
        std::vector<FriBidiCharType> types(r.length);
        const auto* chars = reinterpret_cast<const FriBidiChar*>(text.data() + r.offset);
        fribidi_get_bidi_types(chars, r.length, types.data());
        FriBidiParType base = FRIBIDI_PAR_LTR;
        if (!fribidi_get_par_embedding_levels_ex(types.data(), nullptr, r.length, &base, levels.data() + r.offset))
            std::fill_n(levels.begin() + r.offset, r.length, FriBidiLevel(0));  // out of memory: left to right
        const int line = r.line;
        splitRun(runs, i, [&](int k) { return int(levels[k]); }, [](Run& x, int level) { x.level = level; });
        std::size_t last = i;
        while (last + 1 < runs.size() && runs[last + 1].line == line) ++last;
        lineDirection[line] = last > i ? Direction::Mixed : (runs[i].level % 2 ? Direction::Rtl : Direction::Ltr);
        i = last;
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].level < 0 || runs[i].length == 0) continue;
        const std::vector<hb_script_t> scripts = scriptsOf(text.data() + runs[i].offset, runs[i].length);
        const int base = runs[i].offset;
        const std::size_t before = runs.size();
        splitRun(runs, i, [&](int k) { return scripts[k - base]; }, [](Run& x, hb_script_t s) { x.script = s; });
        i += runs.size() - before;
    }
    return runs;
}

}  // namespace

double lineHeightFor(int glyphSize)
{
    return std::ceil(glyphSize * 1.33);
}

TextPath TextPath::layout(const QString& text, const FontList& fonts, const TextLayoutOptions& o)
{
    TextPath path;
    const std::u32string chars = codePoints(text, o);
    if (chars.empty()) return path;
    std::vector<Direction> lineDirection;
    std::vector<Run> runs = runsOf(chars, lineDirection);

    QList<std::shared_ptr<FontFace>> faces;
    if (fonts.isBuiltIn()) faces << FontFace::forThread(QString());
    for (const FontList::Entry& e : fonts.entries) faces << (e.path.isEmpty() ? nullptr : FontFace::forThread(e.path));
    for (Run& r : runs)
        if (!faceForRun(fonts, faces, r, chars)) return {};

    path.lines = runs.back().line + 1;
    path.glyphSize = o.glyphSize;
    path.lineHeight = lineHeightFor(o.glyphSize);

    double minY = DBL_MAX, maxY = -DBL_MAX, maxX = 0;
    std::vector<int> lengths(path.lines, 0);  // MapServer keeps line lengths as integers
    QList<int> lineOf;
    double x = 0;
    int currentLine = -1;
    auto place = [&](const Run& r, const std::shared_ptr<const GlyphShape>& shape, QPointF pen) {
        path.glyphs << PlacedGlyph{shape, pen};
        lineOf << r.line;
        if (r.line == 0) minY = std::min(minY, pen.y() - shape->maxY);
        maxY = std::max(maxY, pen.y() - shape->minY);
    };
    for (const Run& r : runs) {
        const double y = (1 - path.lines + r.line) * path.lineHeight;
        if (r.line != currentLine) {
            currentLine = r.line;
            x = 0;
        }
        if (r.level < 0 || r.script == HB_SCRIPT_LATIN || r.script == HB_SCRIPT_COMMON) {
            for (int i = 0; i < r.length; ++i) {
                const unsigned index = r.face->glyphIndex(chars[r.offset + i]);
                const auto shape = r.face->glyphAt(index ? index : r.missing, o.glyphSize);
                place(r, shape, QPointF(x, y));
                x += shape->advance;
            }
        } else {
            const std::u32string part = chars.substr(r.offset, r.length);
            for (const FontFace::ShapedGlyph& g : r.face->shape(part, r.script, r.level % 2, o.glyphSize, r.missing)) {
                place(r, r.face->glyphAt(g.index, o.glyphSize), QPointF(x + g.xOffset, y - g.yOffset));
                x += g.xAdvance;
            }
        }
        lengths[r.line] = int(x);
        maxX = std::max(maxX, x);
    }
    if (path.glyphs.isEmpty()) return {};
    if (minY == DBL_MAX) minY = maxY;  // a first line that is empty
    path.bounds = QRectF(QPointF(0, minY), QPointF(maxX, maxY));

    if (path.lines > 1) {
        const int longest = *std::max_element(lengths.begin(), lengths.end());
        // A line of mixed directions aligns as the line before; MapServer's
        // initial value for that reads as right to left (ALIGN LEFT and its
        // RTL flag share the number 1).
        Direction previous = Direction::Rtl;
        std::vector<double> shift(path.lines, 0);
        for (int line = 0; line < path.lines; ++line) {
            const int spare = longest - lengths[line];
            switch (o.align) {
            case TextAlign::Center: shift[line] = spare / 2.0; break;
            case TextAlign::Right: shift[line] = spare; break;
            case TextAlign::Left: break;
            case TextAlign::Default:
                if (lineDirection[line] != Direction::Mixed) previous = lineDirection[line];
                shift[line] = previous == Direction::Rtl ? spare : 0;
                break;
            }
        }
        for (qsizetype i = 0; i < path.glyphs.size(); ++i) path.glyphs[i].pen.rx() += shift[lineOf[i]];
    }
    return path;
}

}  // namespace maptune
