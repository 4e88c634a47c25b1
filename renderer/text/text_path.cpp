#include "text/text_path.h"

#include <cfloat>
#include <cmath>

namespace maptune {

namespace {

// Control characters other than the line break are not drawn (skip_unicode).
bool skipped(char32_t u)
{
    return u < 0x20 && u != U'\n';
}

QList<char32_t> codePoints(const QString& text, const TextLayoutOptions& o)
{
    QList<char32_t> out;
    for (char32_t u : text.toUcs4())
        if (!skipped(u)) out << u;
    const char32_t wrap = o.wrap.isNull() ? 0 : o.wrap.unicode();
    if (wrap && o.maxLength <= 0) {
        for (char32_t& u : out)
            if (u == wrap) u = U'\n';
    } else if (o.maxLength > 0 && out.size() > o.maxLength) {
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

}  // namespace

double lineHeightFor(int glyphSize)
{
    return std::ceil(glyphSize * 1.33);
}

TextPath TextPath::layout(const QString& text, FontFace& face, const TextLayoutOptions& o)
{
    TextPath path;
    const QList<char32_t> chars = codePoints(text, o);
    if (chars.isEmpty()) return path;
    QList<QList<char32_t>> lines{{}};
    for (char32_t u : chars) {
        if (u == U'\n') lines.append(QList<char32_t>());
        else lines.last() << u;
    }
    if (lines.size() > 1 && lines.last().isEmpty()) lines.removeLast();
    path.lines = int(lines.size());
    path.glyphSize = o.glyphSize;
    path.lineHeight = lineHeightFor(o.glyphSize);

    double minY = DBL_MAX, maxY = -DBL_MAX, maxX = 0;
    QList<double> lengths;
    QList<int> lineOf;
    for (int line = 0; line < lines.size(); ++line) {
        const double y = (1 - path.lines + line) * path.lineHeight;
        double x = 0;
        for (char32_t u : lines[line]) {
            PlacedGlyph g{face.glyph(u, o.glyphSize), QPointF(x, y)};
            x += g.shape->advance;
            if (line == 0) minY = std::min(minY, y - g.shape->maxY);
            maxY = std::max(maxY, y - g.shape->minY);
            path.glyphs << g;
            lineOf << line;
        }
        lengths << x;
        maxX = std::max(maxX, x);
    }
    if (path.glyphs.isEmpty()) return {};
    if (minY == DBL_MAX) minY = maxY;  // a first line that is empty
    path.bounds = QRectF(QPointF(0, minY), QPointF(maxX, maxY));

    // MapServer keeps line lengths as integers when it aligns.
    if (path.lines > 1 && (o.align == TextAlign::Center || o.align == TextAlign::Right)) {
        const int longest = int(maxX);
        for (qsizetype i = 0; i < path.glyphs.size(); ++i) {
            const int spare = longest - int(lengths[lineOf[i]]);
            path.glyphs[i].pen.rx() += o.align == TextAlign::Center ? spare / 2.0 : spare;
        }
    }
    return path;
}

}  // namespace maptune
