#include "text/font_face.h"

#include <QFile>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#include <cmath>

namespace maptune {

namespace {

// Past these the caches start over rather than grow (maps reloaded with
// ever new FONTSETs, text in ever new scripts).
constexpr std::size_t kMaxFaces = 256;
constexpr std::size_t kMaxGlyphs = 20000;

struct ThreadFonts {
    FT_Library library = nullptr;
    std::unordered_map<QString, std::shared_ptr<FontFace>> faces;
    ThreadFonts() { FT_Init_FreeType(&library); }
    ~ThreadFonts()
    {
        faces.clear();
        if (library) FT_Done_FreeType(library);
    }
};

ThreadFonts& threadFonts()
{
    thread_local ThreadFonts fonts;
    return fonts;
}

// FT_Outline_Decompose into flattened contours, y flipped to image rows.
struct Flattener {
    std::vector<QPolygonF> contours;
    QPointF last;

    static QPointF px(const FT_Vector* v) { return {v->x / 64.0, -v->y / 64.0}; }
    // Enough segments that the chord stays within ~0.1 px of the curve.
    static int segments(double deviation) { return std::clamp(int(std::ceil(std::sqrt(deviation / 0.1))), 1, 32); }

    static int moveTo(const FT_Vector* to, void* user)
    {
        auto* f = static_cast<Flattener*>(user);
        f->last = px(to);
        f->contours.emplace_back();
        f->contours.back() << f->last;
        return 0;
    }
    static int lineTo(const FT_Vector* to, void* user)
    {
        auto* f = static_cast<Flattener*>(user);
        f->last = px(to);
        f->contours.back() << f->last;
        return 0;
    }
    static int conicTo(const FT_Vector* control, const FT_Vector* to, void* user)
    {
        auto* f = static_cast<Flattener*>(user);
        const QPointF p0 = f->last, p1 = px(control), p2 = px(to);
        const QPointF d = (p0 + p2) / 2 - p1;
        const int n = segments(std::hypot(d.x(), d.y()) / 2);
        for (int i = 1; i <= n; ++i) {
            const double t = double(i) / n, u = 1 - t;
            f->contours.back() << u * u * p0 + 2 * u * t * p1 + t * t * p2;
        }
        f->last = p2;
        return 0;
    }
    static int cubicTo(const FT_Vector* c1, const FT_Vector* c2, const FT_Vector* to, void* user)
    {
        auto* f = static_cast<Flattener*>(user);
        const QPointF p0 = f->last, p1 = px(c1), p2 = px(c2), p3 = px(to);
        const QPointF d1 = p1 - (2 * p0 + p3) / 3, d2 = p2 - (p0 + 2 * p3) / 3;
        const int n = segments(std::max(std::hypot(d1.x(), d1.y()), std::hypot(d2.x(), d2.y())) * 0.75);
        for (int i = 1; i <= n; ++i) {
            const double t = double(i) / n, u = 1 - t;
            f->contours.back() << u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3;
        }
        f->last = p3;
        return 0;
    }
};

}  // namespace

struct FontFace::Impl {
    FT_Face face = nullptr;
    QByteArray data;  // FT_New_Memory_Face reads from here for the face's life
    int pixelSize = 0;
    ~Impl()
    {
        if (face) FT_Done_Face(face);
    }
};

FontFace::FontFace(std::unique_ptr<Impl> impl, QString path) : m_impl(std::move(impl)), m_path(std::move(path)) {}

FontFace::~FontFace() = default;

QString FontFace::defaultFontPath()
{
    for (const char* p : {"/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf",
                          "/usr/share/fonts/dejavu/DejaVuSansCondensed.ttf",
                          "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"})
        if (QFile::exists(QLatin1String(p))) return QLatin1String(p);
    return {};
}

std::shared_ptr<FontFace> FontFace::forThread(const QString& requested)
{
    ThreadFonts& fonts = threadFonts();
    const QString path = requested.isEmpty() ? defaultFontPath() : requested;
    if (auto it = fonts.faces.find(path); it != fonts.faces.end()) return it->second;
    if (fonts.faces.size() >= kMaxFaces) fonts.faces.clear();
    std::shared_ptr<FontFace> made;
    auto impl = std::make_unique<Impl>();
    QFile file(path);
    if (fonts.library && !path.isEmpty() && file.open(QIODevice::ReadOnly)) {
        impl->data = file.readAll();
        const auto* bytes = reinterpret_cast<const FT_Byte*>(impl->data.constData());
        if (FT_New_Memory_Face(fonts.library, bytes, FT_Long(impl->data.size()), 0, &impl->face) == 0) {
            // A font without a Unicode map (symbol fonts): use what it has.
            if (!impl->face->charmap && FT_Select_Charmap(impl->face, FT_ENCODING_MS_SYMBOL) != 0)
                FT_Select_Charmap(impl->face, FT_ENCODING_APPLE_ROMAN);
            made = std::make_shared<FontFace>(std::move(impl), path);
        }
    }
    fonts.faces.emplace(path, made);
    return made;
}

bool FontFace::hasGlyph(char32_t unicode) const
{
    return FT_Get_Char_Index(m_impl->face, unicode) != 0;
}

std::shared_ptr<const GlyphShape> FontFace::glyph(char32_t unicode, int size)
{
    const unsigned long long key = (static_cast<unsigned long long>(unicode) << 16) | unsigned(std::clamp(size, 1, 0xffff));
    if (auto it = m_glyphs.find(key); it != m_glyphs.end()) return it->second;
    if (m_glyphs.size() >= kMaxGlyphs) m_glyphs.clear();

    FT_Face face = m_impl->face;
    char32_t code = unicode;
    if (face->charmap && face->charmap->encoding == FT_ENCODING_MS_SYMBOL) code |= 0xf000;
    auto shape = std::make_shared<GlyphShape>();
    shape->index = FT_Get_Char_Index(face, code);
    shape->isSpace = unicode == U' ' || unicode == U'\t';
    const int pixels = int(std::lround(size * 96.0 / 72.0));
    if (m_impl->pixelSize != pixels && FT_Set_Pixel_Sizes(face, 0, FT_UInt(std::max(1, pixels))) == 0)
        m_impl->pixelSize = pixels;
    constexpr FT_Int32 flags = FT_LOAD_DEFAULT | FT_LOAD_NO_BITMAP | FT_LOAD_NO_HINTING | FT_LOAD_IGNORE_GLOBAL_ADVANCE_WIDTH;
    FT_Error error = FT_Load_Glyph(face, shape->index, flags);
    // A glyph that does not load is drawn as '?', as MapServer does.
    if (error) error = FT_Load_Glyph(face, FT_Get_Char_Index(face, U'?'), flags);
    if (!error) {
        const FT_Glyph_Metrics& m = face->glyph->metrics;
        shape->minX = m.horiBearingX / 64.0;
        shape->maxX = shape->minX + m.width / 64.0;
        shape->maxY = m.horiBearingY / 64.0;
        shape->minY = shape->maxY - m.height / 64.0;
        shape->advance = m.horiAdvance / 64.0;
        if (face->glyph->format == FT_GLYPH_FORMAT_OUTLINE) {
            static const FT_Outline_Funcs funcs{&Flattener::moveTo, &Flattener::lineTo, &Flattener::conicTo,
                                                &Flattener::cubicTo, 0, 0};
            Flattener flat;
            FT_Outline_Decompose(&face->glyph->outline, &funcs, &flat);
            shape->contours = std::move(flat.contours);
        }
    }
    m_glyphs.emplace(key, shape);
    return shape;
}

}  // namespace maptune
