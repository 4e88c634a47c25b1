// Label text laid out and drawn as MapServer writes it: any UTF-8 (bidi
// controls, combining marks, scripts the fonts lack) through the run
// splitting, font fallback, HarfBuzz shaping and alignment. The first byte
// picks the FONT list and the layout options.

#include "fuzz_targets.h"

#include "render/text_painter.h"
#include "text/font_list.h"
#include "text/text_path.h"

#include <QImage>

#include <cmath>

namespace maptune::fuzz {

int text(const uint8_t* data, size_t size)
{
    if (size < 1) return 0;
    const uint8_t options = data[0];
    const QString text = QString::fromUtf8(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));

    KeyValues fontset;
    fontset.set(QStringLiteral("serif"), QStringLiteral("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"));
    fontset.set(QStringLiteral("sans"), QStringLiteral("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"));
    static const char* const kLists[] = {"", "serif", "serif,sans", "serif,ar:sans", ",,sans,,", "nosuch,serif,"};
    const FontList fonts = FontList::parse(QLatin1String(kLists[options % 6]), fontset);

    TextLayoutOptions o;
    o.glyphSize = 1 + (options >> 3) % 24;
    o.wrap = (options & 0x40) ? QLatin1Char(' ') : QChar();
    o.maxLength = (options & 0x80) ? 4 : 0;
    o.align = TextAlign((options >> 2) % 4);
    const TextPath path = TextPath::layout(text, fonts, o);
    if (path.isEmpty()) return 0;
    check(path.lines >= 1, "a laid-out text has a line");
    check(std::isfinite(path.bounds.width()) && std::isfinite(path.bounds.height()), "text bounds are finite");
    for (const PlacedGlyph& g : path.glyphs) {
        check(g.shape != nullptr, "every placed glyph has a shape");
        check(std::isfinite(g.pen.x()) && std::isfinite(g.pen.y()), "glyph pens are finite");
    }
    QImage image(48, 48, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    TextInk ink;
    ink.color = Color::rgb(0, 0, 0);
    ink.outline = Color::rgb(255, 255, 0);
    ink.outlineWidth = 1;
    TextPainter::draw(image, TextPainter::place(path, QPointF(4, 40), (options & 1) ? 30 : 0), ink);
    return 0;
}

}  // namespace maptune::fuzz
