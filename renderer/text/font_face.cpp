#include "text/font_face.h"

#include <QPainterPath>

#include <QFile>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H

#include <hb-ft.h>
#include <hb.h>

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

// FT_Outline_Decompose into flattened contours, y flipped to image rows;
// and into the curves cairo keeps (conics raised to cubics on its 1/256
// grid, as cairo-ft's _conic_to rounds them), for vector output.
struct Flattener {
    std::vector<QPolygonF> contours;
    QPointF last;
    QPainterPath curves;
    long long lastX = 0, lastY = 0;  // 1/256 pixel, y down

    static long long fx(const FT_Vector* v) { return static_cast<long long>(v->x) * 4; }
    static long long fy(const FT_Vector* v) { return -static_cast<long long>(v->y) * 4; }
    static QPointF fixedPx(long long x, long long y) { return {x / 256.0, y / 256.0}; }
    void curveMoveTo(const FT_Vector* to)
    {
        lastX = fx(to), lastY = fy(to);
        curves.moveTo(fixedPx(lastX, lastY));
    }
    void curveLineTo(const FT_Vector* to)
    {
        lastX = fx(to), lastY = fy(to);
        curves.lineTo(fixedPx(lastX, lastY));
    }
    void curveConicTo(const FT_Vector* control, const FT_Vector* to)
    {
        const long long cx = fx(control), cy = fy(control), x3 = fx(to), y3 = fy(to);
        // cairo_fixed_t arithmetic: the sum in double, truncated to an integer.
        const auto third = [](long long a, long long c) { return static_cast<long long>(static_cast<int>(a + 2.0 / 3.0 * (c - a))); };
        curves.cubicTo(fixedPx(third(lastX, cx), third(lastY, cy)), fixedPx(third(x3, cx), third(y3, cy)), fixedPx(x3, y3));
        lastX = x3, lastY = y3;
    }
    void curveCubicTo(const FT_Vector* c1, const FT_Vector* c2, const FT_Vector* to)
    {
        lastX = fx(to), lastY = fy(to);
        curves.cubicTo(fixedPx(fx(c1), fy(c1)), fixedPx(fx(c2), fy(c2)), fixedPx(lastX, lastY));
    }

    static QPointF px(const FT_Vector* v) { return {v->x / 64.0, -v->y / 64.0}; }
    // Enough segments that the chord stays within ~0.1 px of the curve.
    static int segments(double deviation) { return std::clamp(int(std::ceil(std::sqrt(deviation / 0.1))), 1, 32); }

    static int moveTo(const FT_Vector* to, void* user)
    {
        auto* f = static_cast<Flattener*>(user);
        f->curveMoveTo(to);
        f->last = px(to);
        f->contours.emplace_back();
        f->contours.back() << f->last;
        return 0;
    }
    static int lineTo(const FT_Vector* to, void* user)
    {
        auto* f = static_cast<Flattener*>(user);
        f->curveLineTo(to);
        f->last = px(to);
        f->contours.back() << f->last;
        return 0;
    }
    static int conicTo(const FT_Vector* control, const FT_Vector* to, void* user)
    {
        auto* f = static_cast<Flattener*>(user);
        f->curveConicTo(control, to);
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
        f->curveCubicTo(c1, c2, to);
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

    // HarfBuzz over the same face: its tables and FreeType's scale from
    // `parent`, our glyph lookup and advances from `font`'s functions.
    hb_font_t* parent = nullptr;
    hb_font_t* font = nullptr;
    hb_buffer_t* buffer = nullptr;
    int shapingPixels = 0;
    // What the callbacks need during one shape().
    FontFace* owner = nullptr;
    int size = 0;
    unsigned missing = 0;

    ~Impl()
    {
        if (buffer) hb_buffer_destroy(buffer);
        if (font) hb_font_destroy(font);
        if (parent) hb_font_destroy(parent);
        if (face) FT_Done_Face(face);
    }
};

namespace {

unsigned indexIn(FT_Face face, char32_t unicode)
{
    if (face->charmap && face->charmap->encoding == FT_ENCODING_MS_SYMBOL) unicode |= 0xf000;
    return FT_Get_Char_Index(face, unicode);
}

hb_bool_t nominalGlyph(hb_font_t*, void* data, hb_codepoint_t unicode, hb_codepoint_t* glyph, void*)
{
    const auto* d = static_cast<const FontFace::Impl*>(data);
    const unsigned index = indexIn(d->face, unicode);
    *glyph = index ? index : d->missing;
    return *glyph != 0;
}

hb_bool_t variationGlyph(hb_font_t*, void* data, hb_codepoint_t unicode, hb_codepoint_t selector,
                         hb_codepoint_t* glyph, void*)
{
    const auto* d = static_cast<const FontFace::Impl*>(data);
    *glyph = FT_Face_GetCharVariantIndex(d->face, unicode, selector);
    return *glyph != 0;
}

hb_position_t horizontalAdvance(hb_font_t*, void* data, hb_codepoint_t glyph, void*)
{
    auto* d = static_cast<FontFace::Impl*>(data);
    return hb_position_t(d->owner->glyphAt(glyph, d->size)->advance * 64);
}

hb_position_t verticalAdvance(hb_font_t*, void*, hb_codepoint_t, void*)
{
    return 0;  // no vertical layouts
}

hb_font_funcs_t* shapingFuncs()
{
    static hb_font_funcs_t* funcs = [] {
        hb_font_funcs_t* f = hb_font_funcs_create();
        hb_font_funcs_set_nominal_glyph_func(f, nominalGlyph, nullptr, nullptr);
        hb_font_funcs_set_variation_glyph_func(f, variationGlyph, nullptr, nullptr);
        hb_font_funcs_set_glyph_h_advance_func(f, horizontalAdvance, nullptr, nullptr);
        hb_font_funcs_set_glyph_v_advance_func(f, verticalAdvance, nullptr, nullptr);
        hb_font_funcs_make_immutable(f);
        return f;
    }();
    return funcs;
}

}  // namespace

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

unsigned FontFace::glyphIndex(char32_t unicode) const
{
    return indexIn(m_impl->face, unicode);
}

void FontFace::setPixelSize(int size)
{
    const int pixels = int(std::lround(size * 96.0 / 72.0));
    if (m_impl->pixelSize != pixels && FT_Set_Pixel_Sizes(m_impl->face, 0, FT_UInt(std::max(1, pixels))) == 0)
        m_impl->pixelSize = pixels;
}

std::shared_ptr<const GlyphShape> FontFace::glyph(char32_t unicode, int size)
{
    return glyphAt(glyphIndex(unicode), size);
}

std::shared_ptr<const GlyphShape> FontFace::glyphAt(unsigned index, int size)
{
    const unsigned long long key = (static_cast<unsigned long long>(index) << 16) | unsigned(std::clamp(size, 1, 0xffff));
    if (auto it = m_glyphs.find(key); it != m_glyphs.end()) return it->second;
    if (m_glyphs.size() >= kMaxGlyphs) m_glyphs.clear();

    FT_Face face = m_impl->face;
    auto shape = std::make_shared<GlyphShape>();
    shape->index = index;
    shape->isSpace = index != 0 && (index == glyphIndex(U' ') || index == glyphIndex(U'\t'));
    setPixelSize(size);
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
            shape->curves = std::move(flat.curves);
        }
    }
    m_glyphs.emplace(key, shape);
    return shape;
}

std::vector<FontFace::ShapedGlyph> FontFace::shape(const std::u32string& run, unsigned script, bool rightToLeft,
                                                   int size, unsigned missing)
{
    Impl& d = *m_impl;
    setPixelSize(size);
    if (!d.parent) {
        d.parent = hb_ft_font_create_referenced(d.face);
        d.font = hb_font_create_sub_font(d.parent);
        hb_font_set_funcs(d.font, shapingFuncs(), &d, nullptr);
        d.buffer = hb_buffer_create();
        d.shapingPixels = d.pixelSize;
    } else if (d.shapingPixels != d.pixelSize) {
        hb_ft_font_changed(d.parent);
        int x = 0, y = 0;
        hb_font_get_scale(d.parent, &x, &y);
        hb_font_set_scale(d.font, x, y);
        hb_font_set_ppem(d.font, unsigned(d.pixelSize), unsigned(d.pixelSize));
        d.shapingPixels = d.pixelSize;
    }
    d.owner = this;
    d.size = size;
    d.missing = missing;

    hb_buffer_clear_contents(d.buffer);
    hb_buffer_set_script(d.buffer, hb_script_t(script));
    hb_buffer_set_direction(d.buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
    hb_buffer_add_utf32(d.buffer, reinterpret_cast<const uint32_t*>(run.data()), int(run.size()), 0, int(run.size()));
    static const hb_feature_t features[] = {{HB_TAG('v', 'e', 'r', 't'), 0, 0, unsigned(-1)},
                                            {HB_TAG('k', 'e', 'r', 'n'), 0, 0, unsigned(-1)}};
    hb_shape(d.font, d.buffer, features, 2);

    unsigned count = 0;
    const hb_glyph_info_t* info = hb_buffer_get_glyph_infos(d.buffer, &count);
    const hb_glyph_position_t* pos = hb_buffer_get_glyph_positions(d.buffer, &count);
    std::vector<ShapedGlyph> out(count);
    for (unsigned i = 0; i < count; ++i) {
        // MapServer divides the offsets as integers (whole pixels), the advance not.
        out[i] = {info[i].codepoint, double(pos[i].x_offset / 64), double(pos[i].y_offset / 64), pos[i].x_advance / 64.0};
    }
    return out;
}

}  // namespace maptune
