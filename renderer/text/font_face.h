#pragma once
// A TrueType face as MapServer 8 uses it (fontcache.c): glyphs loaded
// unhinted at round(size * 96/72) pixels per em, advances unhinted too, and
// the outline itself drawn, not a hinted bitmap. That is what puts a label
// on the same pixels as MapServer's; Qt's font engines hint and round.
//
// FreeType faces are not thread-safe, so each thread keeps its own library
// and faces (forThread). Glyphs are shared pointers, so a laid-out text
// keeps its glyphs even when a full cache starts over.

#include <QPainterPath>
#include <QPolygonF>
#include <QString>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace maptune {

struct GlyphShape {
    unsigned index = 0;                // glyph index in the face
    std::vector<QPolygonF> contours;   // flattened outline: pixels, y down, origin at the pen position
    QPainterPath curves;               // the same outline as curves on cairo's 1/256 grid (vector output)
    double advance = 0;                // unhinted horizontal advance, pixels
    // FreeType's metrics with y up, as MapServer keeps them (glyph_element).
    double minX = 0, maxX = 0, minY = 0, maxY = 0;
    bool isSpace = false;
};

class FontFace {
public:
    // The face of a font file; an empty path is MapServer's built-in font,
    // DejaVu Sans Condensed. Null when the file cannot be read as a font.
    static std::shared_ptr<FontFace> forThread(const QString& path);
    static QString defaultFontPath();

    ~FontFace();
    FontFace(const FontFace&) = delete;
    FontFace& operator=(const FontFace&) = delete;

    // A Unicode code point at MapServer's integer glyph size (points at
    // 96 dpi). A code point the face lacks gives its .notdef glyph.
    std::shared_ptr<const GlyphShape> glyph(char32_t unicode, int size);
    std::shared_ptr<const GlyphShape> glyphAt(unsigned index, int size);
    // The face's glyph for a code point; 0 when it has none.
    unsigned glyphIndex(char32_t unicode) const;
    bool hasGlyph(char32_t unicode) const { return glyphIndex(unicode) != 0; }

    // A run of one script and direction shaped by HarfBuzz as MapServer
    // shapes it: no kerning, advances of our unhinted glyphs; a code
    // point the face lacks becomes `missing` (0: .notdef). Glyphs come in
    // visual order; offsets and advances in pixels.
    struct ShapedGlyph {
        unsigned index = 0;
        double xOffset = 0, yOffset = 0, xAdvance = 0;
    };
    std::vector<ShapedGlyph> shape(const std::u32string& run, unsigned script, bool rightToLeft, int size,
                                   unsigned missing);
    QString path() const { return m_path; }

    // Opaque (FreeType and HarfBuzz state); public for their callbacks.
    struct Impl;
    FontFace(std::unique_ptr<Impl> impl, QString path);

private:
    void setPixelSize(int size);

    std::unique_ptr<Impl> m_impl;
    QString m_path;
    std::unordered_map<unsigned long long, std::shared_ptr<const GlyphShape>> m_glyphs;
};

}  // namespace maptune
