#pragma once
// A small, fast in-memory PNG writer: our own filtering, then for photos our
// own Huffman-only deflate (huffman_deflate.h), for drawn maps one ISA-L call
// (isal_deflate.h), libdeflate for a level the mapfile sets.
//
// Why not libspng/libpng: both drive zlib, which is about twice as slow as
// libdeflate for the same ratio on map images (512x512 flat map: zlib 6 13 ms,
// libdeflate 6 5.8 ms, same size); on noisy photo tiles they tie (~9 ms at level 1).
// One-shot compression of the whole filtered image also avoids zlib's streaming.
// Figures and the default level choice: png_writer.cpp, bench/encode.

#include "core/result.h"

#include <QByteArray>
#include <QList>
#include <QRgb>

#include <cstdint>
#include <functional>

namespace maptune {

struct PngHeader {
    enum class ColorType : uint8_t { Rgb = 2, Indexed = 3, Rgba = 6 };
    int width = 0;
    int height = 0;
    ColorType colorType = ColorType::Rgb;
    int bitDepth = 8;                 // 1, 2, 4 or 8 (below 8 only for Indexed)
    QList<QRgb> palette;              // Indexed: straight (non-premultiplied) ARGB entries
};

struct PngWriteOptions {
    // 0..9 as zlib/MapServer's FORMATOPTION COMPRESSION (libdeflate at that
    // level); -1 chooses per image: Huffman-only coding of adaptively filtered
    // rows for photos, ISA-L level 2 on unfiltered rows for drawn maps.
    int compressionLevel = -1;
};

// Fills `out` with row y's packed, unfiltered bytes (width * bytes per pixel, or
// the packed bit length for bit depths below 8).
using PngRowSource = std::function<void(int y, uint8_t* out)>;

// The PNG file, or why it could not be written.
Result<QByteArray> writePng(const PngHeader& header, const PngRowSource& rows, const PngWriteOptions& options);

}  // namespace maptune
