#pragma once
// Reduces a canvas to at most 256 colours for PNG8 output.
//
// Vector maps usually hold few distinct colours: then the palette is exact, so pixel
// comparisons with MapServer's PNG8 pass (MapServer's median cut also keeps every
// colour when there are no more than QUANTIZE_COLORS). Otherwise a median cut over a
// colour histogram (5 bits per channel when opaque, 4 bits RGBA otherwise) picks
// the palette, each entry the pixel-weighted mean of its box.
// Like MapServer, quantization happens on premultiplied values and the palette is
// un-premultiplied afterwards, non-opaque entries first (so tRNS stays short).

#include <QImage>
#include <QList>
#include <QRgb>

#include <cstdint>
#include <vector>

namespace maptune {

struct IndexedImage {
    int width = 0;
    int height = 0;
    QList<QRgb> palette;          // straight ARGB; non-opaque entries first
    std::vector<uint8_t> indices; // width * height, row-major
    bool exact = false;           // every pixel kept its colour
};

// canvas: Format_ARGB32_Premultiplied, ARGB32 or RGB32. keepAlpha false treats every
// pixel as opaque (IMAGEMODE RGB: alpha is dropped, as MapServer does).
// maxColors: 2..256 (QUANTIZE_COLORS).
IndexedImage quantizeToPalette(const QImage& canvas, int maxColors, bool keepAlpha);

}  // namespace maptune
