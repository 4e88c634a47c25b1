#pragma once
// Row conversions from Qt's 32-bit canvas formats to the byte layouts encoders
// write, including MapServer's exact un-premultiplication arithmetic.

#include <QImage>

#include <cstdint>

namespace maptune {

// How to turn a premultiplied channel back into a straight one. MapServer uses two
// slightly different truncating formulas (src/mapimageio.c); we reproduce each so
// that decoded pixels match its output bit for bit.
enum class Unpremultiply {
    DivideByAlpha,   // RGBA PNG: c / (a / 255.0), truncated
    ScaleByInverse,  // palette entries: c * (255.0 / a), truncated
};

// Table of 256 * 256 bytes: entry [a * 256 + c] is the straight value of premultiplied
// channel c at alpha a (0 when a == 0). Built once, thread-safe.
const uint8_t* unpremultiplyTable(Unpremultiply rule);

// True for the formats the row functions read directly: ARGB32_Premultiplied,
// ARGB32 and RGB32 (anything else is converted first by prepareCanvas()).
bool isCanvasFormat(QImage::Format format);

// image itself when it is in a canvas format, else a converted copy.
QImage prepareCanvas(const QImage& image);

// Packs one row as R,G,B, dropping alpha (for premultiplied input on an opaque
// canvas alpha is 255 and nothing is lost).
void rowToRgb(const uint32_t* in, int width, uint8_t* out);

// Packs one row as R,G,B,A with straight alpha; premultiplied rows are divided by
// alpha with MapServer's rounding, fully transparent pixels become 0,0,0,0.
void rowToRgba(const uint32_t* in, int width, bool premultiplied, uint8_t* out);

}  // namespace maptune
