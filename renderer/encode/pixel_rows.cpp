#include "encode/pixel_rows.h"

#include "encode/cpu_features.h"

#include <array>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace maptune {
namespace {

std::vector<uint8_t> buildTable(Unpremultiply rule) {
    std::vector<uint8_t> t(256 * 256, 0);
    for (int a = 1; a < 256; ++a) {
        for (int c = 0; c < 256; ++c) {
            double v = rule == Unpremultiply::DivideByAlpha ? c / (a / 255.0) : c * (255.0 / a);
            // c > a cannot come out of a premultiplied canvas, but keep the table total
            t[a * 256 + c] = v >= 255.0 ? 255 : static_cast<uint8_t>(v);
        }
    }
    return t;
}

}  // namespace

const uint8_t* unpremultiplyTable(Unpremultiply rule) {
    static const std::vector<uint8_t> divide = buildTable(Unpremultiply::DivideByAlpha);
    static const std::vector<uint8_t> scale = buildTable(Unpremultiply::ScaleByInverse);
    return rule == Unpremultiply::DivideByAlpha ? divide.data() : scale.data();
}

bool isCanvasFormat(QImage::Format format) {
    return format == QImage::Format_ARGB32_Premultiplied || format == QImage::Format_ARGB32
        || format == QImage::Format_RGB32;
}

QImage prepareCanvas(const QImage& image) {
    if (isCanvasFormat(image.format())) return image;
    return image.convertToFormat(image.hasAlphaChannel() ? QImage::Format_ARGB32 : QImage::Format_RGB32);
}

namespace {

#if defined(__x86_64__) && defined(__GNUC__)
// Four pixels per shuffle: a drawn map's rows were converted a byte at a
// time, 8 % of its PNG encode.
__attribute__((target("ssse3"))) int rowToRgbSsse3(const uint32_t* in, int width, uint8_t* out) {
    const __m128i order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    int x = 0;
    // Each store writes 16 bytes of which 12 are pixels: stop while the
    // rest of the row still covers the other 4.
    for (; x + 6 <= width; x += 4) {
        const __m128i px = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + x));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 3 * x), _mm_shuffle_epi8(px, order));
    }
    return x;
}
#endif

}  // namespace

void rowToRgb(const uint32_t* in, int width, uint8_t* out) {
    int x = 0;
#if defined(__x86_64__) && defined(__GNUC__)
    if (cpu::hasSsse3()) x = rowToRgbSsse3(in, width, out);
#endif
    out += 3 * x;
    for (; x < width; ++x) {
        const uint32_t p = in[x];
        out[0] = static_cast<uint8_t>(p >> 16);
        out[1] = static_cast<uint8_t>(p >> 8);
        out[2] = static_cast<uint8_t>(p);
        out += 3;
    }
}

void rowToRgba(const uint32_t* in, int width, bool premultiplied, uint8_t* out) {
    const uint8_t* table = unpremultiplyTable(Unpremultiply::DivideByAlpha);
    for (int x = 0; x < width; ++x) {
        const uint32_t p = in[x];
        const uint32_t a = p >> 24;
        uint8_t r = static_cast<uint8_t>(p >> 16), g = static_cast<uint8_t>(p >> 8), b = static_cast<uint8_t>(p);
        if (premultiplied && a != 255) {
            const uint8_t* row = table + a * 256;
            r = row[r];
            g = row[g];
            b = row[b];
        } else if (a == 0) {
            r = g = b = 0;  // MapServer writes fully transparent pixels as 0,0,0,0
        }
        out[0] = r;
        out[1] = g;
        out[2] = b;
        out[3] = static_cast<uint8_t>(a);
        out += 4;
    }
}

}  // namespace maptune
