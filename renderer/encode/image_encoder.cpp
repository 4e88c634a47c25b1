#include "encode/image_encoder.h"

#include "encode/gdal_writer.h"

#include "encode/jpeg_writer.h"
#include "encode/palette_quantizer.h"
#include "encode/pixel_rows.h"
#include "encode/png_writer.h"

#include <cstring>

namespace maptune {
namespace {

Result<QByteArray> encodeTrueColorPng(const QImage& canvas, const ImageFormat& format) {
    const bool rgba = format.rgba && canvas.format() != QImage::Format_RGB32;
    const bool premultiplied = canvas.format() == QImage::Format_ARGB32_Premultiplied;
    PngHeader header;
    header.width = canvas.width();
    header.height = canvas.height();
    header.colorType = rgba ? PngHeader::ColorType::Rgba : PngHeader::ColorType::Rgb;
    const int width = canvas.width();
    PngRowSource rows = [&](int y, uint8_t* out) {
        const auto* in = reinterpret_cast<const uint32_t*>(canvas.constScanLine(y));
        if (rgba)
            rowToRgba(in, width, premultiplied, out);
        else
            rowToRgb(in, width, out);
    };
    return writePng(header, rows, PngWriteOptions{format.compressionLevel});
}

int paletteBitDepth(qsizetype entries) {
    if (entries <= 2) return 1;
    if (entries <= 4) return 2;
    if (entries <= 16) return 4;
    return 8;
}

Result<QByteArray> encodePalettePng(const QImage& canvas, const ImageFormat& format) {
    const IndexedImage indexed = quantizeToPalette(canvas, format.quantizeColors, format.rgba);
    PngHeader header;
    header.width = indexed.width;
    header.height = indexed.height;
    header.colorType = PngHeader::ColorType::Indexed;
    header.palette = indexed.palette;
    header.bitDepth = paletteBitDepth(indexed.palette.size());
    const int depth = header.bitDepth;
    const int width = indexed.width;
    PngRowSource rows = [&](int y, uint8_t* out) {
        const uint8_t* in = indexed.indices.data() + static_cast<size_t>(y) * width;
        if (depth == 8) {
            std::memcpy(out, in, static_cast<size_t>(width));
            return;
        }
        const int perByte = 8 / depth;
        const size_t bytes = (static_cast<size_t>(width) * depth + 7) / 8;
        std::memset(out, 0, bytes);
        for (int x = 0; x < width; ++x) {  // most significant bits first (PNG order)
            const int shift = 8 - depth * (x % perByte + 1);
            out[x / perByte] |= static_cast<uint8_t>(in[x] << shift);
        }
    };
    return writePng(header, rows, PngWriteOptions{format.compressionLevel});
}

}  // namespace

Result<QByteArray> encodeImage(const QImage& image, const ImageFormat& format) {
    if (image.isNull() || image.width() <= 0 || image.height() <= 0)
        return Error(QStringLiteral("cannot encode an empty image"));
    switch (format.kind) {
    case ImageFormat::Kind::Jpeg: {
        JpegWriteOptions o;
        o.quality = format.jpegQuality;
        o.optimized = format.jpegOptimized;
        o.arithmetic = format.options.value(QStringLiteral("OPTIMIZED"), {})
                           .compare(QLatin1String("ARITHMETIC"), Qt::CaseInsensitive) == 0;
        return writeJpeg(image, o);
    }
    case ImageFormat::Kind::Png8:
        return encodePalettePng(prepareCanvas(image), format);
    case ImageFormat::Kind::Png:
        return encodeTrueColorPng(prepareCanvas(image), format);
    case ImageFormat::Kind::Gdal:
        return writeGdalImage(image, format, Georeference{});
    case ImageFormat::Kind::Raw:
        return Error(QStringLiteral("OUTPUTFORMAT '%1' holds raster values (IMAGEMODE %2), not an image").arg(format.name, format.rawType));
    case ImageFormat::Kind::Svg:
        return Error(QStringLiteral("OUTPUTFORMAT '%1' is SVG: it is drawn as vectors, not encoded from pixels").arg(format.name));
    case ImageFormat::Kind::Mixed: {
        const ImageFormat& chosen = format.formatFor(image);
        if (chosen.kind == ImageFormat::Kind::Mixed)
            return Error(QStringLiteral("OUTPUTFORMAT '%1': its OPAQUE_FORMAT and TRANSPARENT_FORMAT are not resolved").arg(format.name));
        return encodeImage(image, chosen);
    }
    }
    return Error(QStringLiteral("unknown image format kind"));
}

}  // namespace maptune
