#pragma once
// What to encode a rendered map as: a map's OUTPUTFORMATs plus MapServer 8's
// built-in formats, resolved the way MapServer resolves IMAGETYPE and WMS FORMAT.
//
// MapServer 8 facts (src/mapoutput.c, src/mapimageio.c):
// - Built-ins: "png" AGG/PNG image/png RGB; "jpeg" AGG/JPEG image/jpeg RGB (.jpg);
//   "png8" AGG/PNG8 "image/png; mode=8bit" RGB with QUANTIZE_FORCE=on and
//   QUANTIZE_COLORS=256 (quantized to a palette when saved); "png24" AGG/PNG
//   "image/png; mode=24bit"; "jpegpng" / "jpegpng8" AGG/MIXED "image/vnd.jpeg-png(8)":
//   RGBA, written as OPAQUE_FORMAT (jpeg) when every pixel is opaque, else as
//   TRANSPARENT_FORMAT (png24, png8), answered with that format's MIME type.
//   GDAL/<driver>: written through GDAL (msSaveImageGDAL); with IMAGEMODE BYTE,
//   INT16 or FLOAT32 the bands hold raster values (raw mode). Built-in "GTiff".
//   "svg" CAIRO/SVG image/svg+xml: drawn as vectors (svg_writer.h).
//   (kml, mvt, pdf... are not handled here.)
// - Lookup: the map's OUTPUTFORMATs by MIME type first, then by NAME, then the
//   built-ins by name or MIME type; all case-insensitive.
// - IMAGETYPE unset: the first OUTPUTFORMAT of the map, else "png".
// - TRANSPARENT ON turns IMAGEMODE RGB into RGBA; JPEG is always opaque RGB.
// - A user OUTPUTFORMAT starts from its driver's defaults (so DRIVER AGG/PNG8 is
//   quantized unless it says QUANTIZE_FORCE=OFF); GD/* drivers mean AGG/PNG8.

#include "core/result.h"
#include "mapfile/key_values.h"

#include <QImage>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace maptune {

struct MapDef;

struct ImageFormat {
    // Gdal: the drawn RGB(A) image written by a GDAL driver (GDAL/GTiff ...);
    // Raw: band values, not colours (GDAL/* with IMAGEMODE BYTE, INT16, FLOAT32).
    // Svg: drawn as vectors on a VectorSurface (CAIRO/SVG), written by svg_writer.
    enum class Kind { Png, Png8, Jpeg, Mixed, Gdal, Raw, Svg };

    QString name;                 // "png", or the OUTPUTFORMAT NAME
    QString mimeType;             // "image/png", "image/png; mode=8bit", ...
    QString extension;            // "png", "jpg"
    QString driver;               // "AGG/PNG", "AGG/PNG8", "AGG/JPEG", ...
    Kind kind = Kind::Png;
    bool transparent = false;     // TRANSPARENT ON
    bool opaqueBackground = false; // IMAGEMODE RGBA with TRANSPARENT OFF: drawn on IMAGECOLOR
    bool rgba = false;            // IMAGEMODE RGBA (or TRANSPARENT ON): keep alpha
    int jpegQuality = 75;         // FORMATOPTION "QUALITY=n", 1..100
    bool jpegOptimized = true;    // FORMATOPTION "OPTIMIZED=YES" (MapServer default)
    int compressionLevel = -1;    // FORMATOPTION "COMPRESSION=n", 0..9; -1: our fast default
    int quantizeColors = 256;     // FORMATOPTION "QUANTIZE_COLORS=n" for Kind::Png8
    KeyValues options;            // every FORMATOPTION, driver defaults first
    QString gdalDriver;           // Gdal, Raw: the GDAL driver's short name
    QString rawType;              // Raw: "BYTE", "INT16" or "FLOAT32"
    int bandCount = 1;            // Raw: FORMATOPTION BAND_COUNT
    // Kind::Mixed: the formats OPAQUE_FORMAT and TRANSPARENT_FORMAT name,
    // resolved against the map (never Mixed themselves).
    std::shared_ptr<const ImageFormat> opaque, translucent;

    bool isPng() const { return kind == Kind::Png || kind == Kind::Png8; }
    // The format an image is written in: for Mixed, by whether every pixel is opaque.
    const ImageFormat& formatFor(const QImage& image) const;
};

// By OUTPUTFORMAT NAME or MIME type, then built-in name or MIME type; case-insensitive.
// Fails (with a message saying what is available) for unknown names, drivers MapTune
// cannot encode, and malformed FORMATOPTIONs (COMPRESSION, QUALITY, QUANTIZE_COLORS).
Result<ImageFormat> findImageFormat(const MapDef& map, const QString& nameOrMime);

// What IMAGETYPE names: itself, else the first OUTPUTFORMAT's name, else "png".
QString defaultImageTypeName(const MapDef& map);

// The format IMAGETYPE names (else the first OUTPUTFORMAT, else "png"). An error,
// saying why, when that cannot be resolved: MapServer then draws in its built-in
// "png", so callers take defaultImageFormat(map).valueOr(fallbackImageFormat()).
Result<ImageFormat> defaultImageFormat(const MapDef& map);

// The built-in "png" (not a map's OUTPUTFORMAT of that name): what a map whose
// IMAGETYPE does not resolve is drawn in.
ImageFormat fallbackImageFormat();

// A copy of format as WMS TRANSPARENT=TRUE/FALSE asks for it (msApplyOutputFormat):
// turning transparency on makes an RGB format RGBA; JPEG stays opaque.
ImageFormat withTransparency(const ImageFormat& format, bool transparent);

// Distinct MIME types of the map's encodable OUTPUTFORMATs followed by the built-ins,
// in MapServer's order (for WMS GetCapabilities <Format>).
QStringList availableFormatMimeTypes(const MapDef& map);

}  // namespace maptune
