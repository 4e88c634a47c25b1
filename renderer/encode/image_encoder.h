#pragma once
// Encodes a rendered canvas in memory as the ImageFormat says: PNG (RGB or RGBA),
// PNG8 (palette, exact when the image has few colours) or JPEG.
//
// Input: normally the renderer's Format_ARGB32_Premultiplied canvas. RGB output drops
// alpha (the canvas is opaque IMAGECOLOR then); RGBA output un-premultiplies the way
// MapServer does (truncating), so decoded pixels match MapServer's for equal canvases.
//
// PNG speed vs size (512x512 RGB, CPU ms on this project's 2-core box; MapServer 8 =
// libpng, zlib level 6, filter NONE, reproduced in bench/encode):
//   photo-like:          MapServer 27 ms / 683 KB;  ours  9 ms / 497 KB (0.73x)
//   antialiased map:     MapServer 13 ms / 170 KB;  ours  6 ms / 165 KB (0.98x)
//   flat-colour map:     MapServer 10 ms /  36 KB;  ours  6 ms /  38 KB (1.07x)
// Default (no COMPRESSION option): per row, Sub filter for noisy rows and no filter
// for rows of mostly repeated pixels; libdeflate level 1 for mostly-noisy images
// and 6 for mostly-flat ones. COMPRESSION=n uses libdeflate level n instead.

#include "core/result.h"
#include "encode/output_format.h"

#include <QByteArray>
#include <QImage>
#include <QString>

namespace maptune {

// The encoded file, or why it could not be encoded.
Result<QByteArray> encodeImage(const QImage& image, const ImageFormat& format);

}  // namespace maptune
