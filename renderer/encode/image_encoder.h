#pragma once
// Encodes a rendered canvas in memory as the ImageFormat says: PNG (RGB or RGBA),
// PNG8 (palette, exact when the image has few colours) or JPEG.
//
// Input: normally the renderer's Format_ARGB32_Premultiplied canvas. RGB output drops
// alpha (the canvas is opaque IMAGECOLOR then); RGBA output un-premultiplies the way
// MapServer does (truncating), so decoded pixels match MapServer's for equal canvases.
//
// PNG speed vs size (512x512, Debian 12 on this project's 2-core box; MapServer 8 =
// libpng, zlib level 6, filter NONE; see bench/encode for the benchmark):
//   photo-like RGB: MapServer ~25 ms / 690 KB;  ours ~10 ms / ~495 KB (0.72x)
//   map-like RGB, antialiased: MapServer ~18 ms / 225 KB; ours ~7 ms / ~226 KB (1.0x)
//   map-like RGB, flat colours: MapServer ~13 ms / 48 KB;  ours ~5 ms / ~56 KB (1.16x)
// Default (no COMPRESSION option): per row, Sub filter for noisy rows and no filter
// for rows of mostly repeated pixels; libdeflate level 1 for mostly-noisy images
// and 4 for mostly-flat ones. COMPRESSION=n uses libdeflate level n instead.

#include "encode/output_format.h"

#include <QByteArray>
#include <QImage>
#include <QString>

namespace maptune {

// The encoded file, or an empty array with *error saying why.
QByteArray encodeImage(const QImage& image, const ImageFormat& format, QString* error = nullptr);

}  // namespace maptune
