#include "encode/jpeg_writer.h"

#include "encode/pixel_rows.h"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>

#include <jpeglib.h>

namespace maptune {
namespace {

struct ErrorManager {
    jpeg_error_mgr pub;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void onError(j_common_ptr cinfo) {
    auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, err->message);
    std::longjmp(err->jump, 1);
}

void ignoreMessage(j_common_ptr) {}

// Kept free of C++ objects with destructors: libjpeg reports errors by longjmp.
bool compress(const QImage& img, const JpegWriteOptions& o, unsigned char** data, unsigned long* size,
              char* message) {
    jpeg_compress_struct cinfo;
    ErrorManager err;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = onError;
    err.pub.output_message = ignoreMessage;
    if (setjmp(err.jump)) {
        std::snprintf(message, JMSG_LENGTH_MAX, "%s", err.message);
        jpeg_destroy_compress(&cinfo);
        return false;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, data, size);
    cinfo.image_width = static_cast<JDIMENSION>(img.width());
    cinfo.image_height = static_cast<JDIMENSION>(img.height());
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_BGRX;  // QImage's 32-bit layout in memory (little-endian)
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, o.quality, TRUE);
    if (o.arithmetic)
        cinfo.arith_code = TRUE;
    else if (o.optimized)
        cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = const_cast<JSAMPROW>(img.constScanLine(static_cast<int>(cinfo.next_scanline)));
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return true;
}

}  // namespace

Result<QByteArray> writeJpeg(const QImage& canvas, const JpegWriteOptions& options) {
    static_assert(Q_BYTE_ORDER == Q_LITTLE_ENDIAN, "JCS_EXT_BGRX assumes little-endian ARGB32");
    if (canvas.isNull() || canvas.width() > JPEG_MAX_DIMENSION || canvas.height() > JPEG_MAX_DIMENSION)
        return Error(QStringLiteral("JPEG: invalid image size %1x%2").arg(canvas.width()).arg(canvas.height()));
    const QImage img = prepareCanvas(canvas);
    JpegWriteOptions o = options;
    o.quality = std::clamp(o.quality, 1, 100);
    unsigned char* data = nullptr;
    unsigned long size = 0;
    char message[JMSG_LENGTH_MAX] = {0};
    const bool ok = compress(img, o, &data, &size, message);
    QByteArray out;
    if (ok) out = QByteArray(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    std::free(data);
    if (!ok) return Error(QStringLiteral("JPEG: %1").arg(QString::fromLocal8Bit(message)));
    return out;
}

}  // namespace maptune
