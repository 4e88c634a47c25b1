#pragma once
// In-memory JPEG encoding with libjpeg-turbo, as MapServer's saveAsJPEG does it:
// baseline RGB, jpeg_set_quality(QUALITY), Huffman tables optimized unless
// FORMATOPTION OPTIMIZED=NO (MapServer's default is YES), ISLOW DCT.

#include "core/result.h"

#include <QByteArray>
#include <QImage>
#include <QString>

namespace maptune {

struct JpegWriteOptions {
    int quality = 75;        // 1..100
    bool optimized = true;
    bool arithmetic = false; // OPTIMIZED=ARITHMETIC
};

// canvas: any QImage; 32-bit canvas formats are read in place (the colour channels
// as stored: on an opaque canvas premultiplied and straight values are the same).
Result<QByteArray> writeJpeg(const QImage& canvas, const JpegWriteOptions& options);

}  // namespace maptune
