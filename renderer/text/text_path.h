#pragma once
// A text laid out line by line as MapServer lays it out (textlayout.c):
// each line cut into runs of one bidi direction and script, each run
// written with the first font of the FONT list that has all its glyphs;
// Latin runs advance by the unhinted advances, others are shaped by
// HarfBuzz (in visual order within the run, runs in logical order); no kerning;
// the last line's baseline is y = 0 and earlier lines sit a line height
// above; WRAP turns a character into a line break (with MAXLENGTH only once
// a line is that long); ALIGN shifts shorter lines within the longest.

#include "text/font_face.h"
#include "text/font_list.h"

#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <memory>

namespace maptune {

enum class TextAlign { Default, Left, Center, Right };

struct TextLayoutOptions {
    int glyphSize = 10;      // MapServer's rounded size (points at 96 dpi)
    QChar wrap;              // null: no wrap character
    int maxLength = 0;       // characters; with wrap, only break lines this long
    TextAlign align = TextAlign::Default;
};

struct PlacedGlyph {
    std::shared_ptr<const GlyphShape> shape;
    QPointF pen;             // relative to the path origin
};

struct TextPath {
    QList<PlacedGlyph> glyphs;
    int lines = 0;
    int glyphSize = 0;
    double lineHeight = 0;
    // MapServer's bounds: x from 0 to the longest line's advance; y from the
    // first line's highest ink to the lowest ink of any line.
    QRectF bounds;

    bool isEmpty() const { return glyphs.isEmpty(); }
    // Empty when no font of the list can write the text.
    static TextPath layout(const QString& text, const FontList& fonts, const TextLayoutOptions& options);
};

// MapServer's line height for a glyph size.
double lineHeightFor(int glyphSize);

}  // namespace maptune
