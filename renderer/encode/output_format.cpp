#include "encode/output_format.h"
#include "mapfile/map_def.h"

#include <gdal.h>

#include <algorithm>
#include <array>

namespace maptune {
namespace {

struct BuiltIn {
    const char* name;
    const char* driver;
    const char* mimeType;
};

// MapServer 8's defaultoutputformats[] order, restricted to what we can encode.
// "cairopng" draws through our renderer like every raster driver.
constexpr std::array<BuiltIn, 9> kBuiltIns{{
    {"png", "AGG/PNG", "image/png"},
    {"jpeg", "AGG/JPEG", "image/jpeg"},
    {"png8", "AGG/PNG8", "image/png; mode=8bit"},
    {"png24", "AGG/PNG", "image/png; mode=24bit"},
    {"jpegpng", "AGG/MIXED", "image/vnd.jpeg-png"},
    {"jpegpng8", "AGG/MIXED", "image/vnd.jpeg-png8"},
    {"cairopng", "CAIRO/PNG", "image/png"},
    {"svg", "CAIRO/SVG", "image/svg+xml"},
    {"GTiff", "GDAL/GTiff", "image/tiff"},
}};

bool equalsCi(const QString& a, const QString& b) { return a.compare(b, Qt::CaseInsensitive) == 0; }

bool isOn(const QString& v) {
    return equalsCi(v, QStringLiteral("on")) || equalsCi(v, QStringLiteral("yes"))
        || equalsCi(v, QStringLiteral("true"));
}

bool isRawMode(const QString& imageMode) {
    const QString m = imageMode.toUpper();
    return m == QLatin1String("BYTE") || m == QLatin1String("INT16") || m == QLatin1String("FLOAT32");
}

// msInitDefaultGDALOutputFormat: a GDAL driver that writes, its MIME type and extension.
std::optional<ImageFormat> gdalFormat(const QString& shortName, const QString& imageMode) {
    GDALDriverH driver = GDALGetDriverByName(shortName.toUtf8().constData());
    if (!driver || (!GDALGetMetadataItem(driver, GDAL_DCAP_CREATE, nullptr) && !GDALGetMetadataItem(driver, GDAL_DCAP_CREATECOPY, nullptr)))
        return std::nullopt;
    ImageFormat f;
    f.driver = QStringLiteral("GDAL/") + shortName;
    f.gdalDriver = QString::fromUtf8(GDALGetDescription(driver));
    f.name = shortName;
    f.kind = isRawMode(imageMode) ? ImageFormat::Kind::Raw : ImageFormat::Kind::Gdal;
    if (f.kind == ImageFormat::Kind::Raw) f.rawType = imageMode.toUpper();
    f.mimeType = QString::fromUtf8(GDALGetMetadataItem(driver, GDAL_DMD_MIMETYPE, nullptr));
    f.extension = QString::fromUtf8(GDALGetMetadataItem(driver, GDAL_DMD_EXTENSION, nullptr));
    return f;
}

// The driver's defaults (msCreateDefaultOutputFormat); nullopt when we cannot encode it.
std::optional<ImageFormat> formatForDriver(const QString& driverIn, const QString& imageMode = {}) {
    QString driver = driverIn.toUpper();
    const bool gdal = driver.startsWith(QLatin1String("GDAL/"));
    const bool ownEncoder = driver == QLatin1String("GDAL/PNG") || driver == QLatin1String("GDAL/JPEG");
    if (gdal && (isRawMode(imageMode) || !ownEncoder)) return gdalFormat(driverIn.mid(5), imageMode);
    if (driver.startsWith(QLatin1String("GD/")))  // MapServer maps every GD driver to AGG/PNG8
        driver = QStringLiteral("AGG/PNG8");
    // GDAL/PNG and GDAL/JPEG write the same pixels through GDAL: encode them ourselves.
    if (driver == QLatin1String("GDAL/PNG")) driver = QStringLiteral("AGG/PNG");
    if (driver == QLatin1String("GDAL/JPEG")) driver = QStringLiteral("AGG/JPEG");
    ImageFormat f;
    f.driver = driver;
    if (driver == QLatin1String("AGG/PNG") || driver == QLatin1String("CAIRO/PNG")
        || driver == QLatin1String("SKIA/PNG")) {
        f.kind = ImageFormat::Kind::Png;
        f.mimeType = QStringLiteral("image/png");
        f.extension = QStringLiteral("png");
        f.name = QStringLiteral("png");
    } else if (driver == QLatin1String("AGG/PNG8")) {
        f.kind = ImageFormat::Kind::Png8;
        f.mimeType = QStringLiteral("image/png; mode=8bit");
        f.extension = QStringLiteral("png");
        f.name = QStringLiteral("png8");
        f.options.set(QStringLiteral("QUANTIZE_FORCE"), QStringLiteral("on"));
        f.options.set(QStringLiteral("QUANTIZE_COLORS"), QStringLiteral("256"));
    } else if (driver == QLatin1String("AGG/JPEG") || driver == QLatin1String("CAIRO/JPEG")
               || driver == QLatin1String("SKIA/JPEG")) {
        f.kind = ImageFormat::Kind::Jpeg;
        f.mimeType = QStringLiteral("image/jpeg");
        f.extension = QStringLiteral("jpg");
        f.name = QStringLiteral("jpeg");
    } else if (driver == QLatin1String("CAIRO/SVG")) {
        f.kind = ImageFormat::Kind::Svg;
        f.mimeType = QStringLiteral("image/svg+xml");
        f.extension = QStringLiteral("svg");
        f.name = QStringLiteral("svg");
    } else if (driver == QLatin1String("AGG/MIXED")) {
        f.kind = ImageFormat::Kind::Mixed;
        f.mimeType = QStringLiteral("image/mixed");
        f.extension = QStringLiteral("XXX");
        f.name = QStringLiteral("mixed");
        f.rgba = true;  // IMAGEMODE RGBA: the choice depends on the alpha
    } else {
        return std::nullopt;
    }
    return f;
}

bool parseInt(const QString& text, int lo, int hi, int* out) {
    bool ok = false;
    const int v = text.trimmed().toInt(&ok);
    if (!ok || v < lo || v > hi) return false;
    *out = v;
    return true;
}

// Reads the FORMATOPTIONs we act on and applies MapServer's validation fix-ups
// (msOutputFormatValidate). Returns an empty string or what is wrong.
QString finish(ImageFormat& f) {
    const QString where = QStringLiteral("OUTPUTFORMAT '%1': ").arg(f.name);
    if (f.kind == ImageFormat::Kind::Jpeg) {  // JPEG is RGB and opaque
        f.transparent = false;
        f.rgba = false;
    }
    if (f.transparent || f.kind == ImageFormat::Kind::Mixed) f.rgba = true;
    if (f.kind == ImageFormat::Kind::Mixed || f.kind == ImageFormat::Kind::Svg) return {};
    if (f.kind == ImageFormat::Kind::Raw || f.kind == ImageFormat::Kind::Gdal) {
        // msOutputFormatValidate: BAND_COUNT bands of raw data.
        if (auto v = f.options.value(QStringLiteral("BAND_COUNT")); v && f.kind == ImageFormat::Kind::Raw) {
            if (!parseInt(*v, 1, 1000, &f.bandCount))
                return where + QStringLiteral("FORMATOPTION \"BAND_COUNT=%1\" is not an integer from 1 to 1000").arg(*v);
        }
        return {};
    }

    const bool quantize = isOn(f.options.value(QStringLiteral("QUANTIZE_FORCE"), {}));
    const bool palette = isOn(f.options.value(QStringLiteral("PALETTE_FORCE"), {}));
    if (f.kind != ImageFormat::Kind::Jpeg)
        f.kind = (quantize || palette) ? ImageFormat::Kind::Png8 : ImageFormat::Kind::Png;

    if (auto v = f.options.value(QStringLiteral("COMPRESSION")); v && !v->trimmed().isEmpty()) {
        if (!parseInt(*v, -1, 9, &f.compressionLevel))
            return where + QStringLiteral("FORMATOPTION \"COMPRESSION=%1\" is not an integer from 0 to 9").arg(*v);
    }
    if (auto v = f.options.value(QStringLiteral("QUALITY"))) {
        int q = 0;
        if (!parseInt(*v, -1000000, 1000000, &q))
            return where + QStringLiteral("FORMATOPTION \"QUALITY=%1\" is not an integer from 1 to 100").arg(*v);
        f.jpegQuality = std::clamp(q, 1, 100);  // libjpeg clamps the same way
    }
    if (auto v = f.options.value(QStringLiteral("OPTIMIZED")))
        f.jpegOptimized = isOn(*v);
    if (auto v = f.options.value(QStringLiteral("QUANTIZE_COLORS"))) {
        if (!parseInt(*v, 2, 256, &f.quantizeColors))
            return where + QStringLiteral("FORMATOPTION \"QUANTIZE_COLORS=%1\" is not an integer from 2 to 256").arg(*v);
    }
    return {};
}

// An OUTPUTFORMAT without NAME is named after its driver, as MapServer's
// msCreateDefaultOutputFormat names them (AGG/PNG is "png", CAIRO/PNG
// "cairopng", GDAL/GTiff "GTiff").
QString effectiveName(const OutputFormatDef& def) {
    if (!def.name.isEmpty()) return def.name;
    const QString driver = def.driver.toUpper();
    if (driver == QLatin1String("AGG/PNG")) return QStringLiteral("png");
    if (driver == QLatin1String("AGG/PNG8")) return QStringLiteral("png8");
    if (driver == QLatin1String("AGG/JPEG")) return QStringLiteral("jpeg");
    if (driver == QLatin1String("CAIRO/PNG")) return QStringLiteral("cairopng");
    if (driver == QLatin1String("CAIRO/SVG")) return QStringLiteral("svg");
    if (driver.startsWith(QLatin1String("GD/"))) return def.driver.mid(3).toLower();
    const qsizetype slash = def.driver.indexOf(QLatin1Char('/'));
    return slash >= 0 ? def.driver.mid(slash + 1) : def.driver;
}

Result<ImageFormat> fromDef(const OutputFormatDef& def) {
    auto f = formatForDriver(def.driver, def.imageMode);
    if (!f) {
        return Error(QStringLiteral("OUTPUTFORMAT '%1': DRIVER '%2' is not supported by MapTune "
                                    "(use AGG/PNG, AGG/PNG8, AGG/JPEG, CAIRO/SVG or a GDAL driver that writes files)").arg(def.name, def.driver));
    }
    f->name = effectiveName(def);
    if (!def.mimeType.isEmpty()) f->mimeType = def.mimeType;
    if (!def.extension.isEmpty()) f->extension = def.extension;
    // loadOutputFormat: IMAGEMODE RGBA alone means TRANSPARENT ON (RGB alone
    // OFF); said OFF, the image keeps its alpha channel over an opaque IMAGECOLOR.
    const bool rgbaMode = equalsCi(def.imageMode, QStringLiteral("RGBA"));
    f->transparent = def.transparentGiven ? def.transparent : def.transparent || rgbaMode;
    f->rgba = f->rgba || rgbaMode;
    f->opaqueBackground = rgbaMode && def.transparentGiven && !def.transparent;
    for (const auto& [k, v] : def.formatOptions.items) f->options.set(k, v);
    if (QString e = finish(*f); !e.isEmpty()) return Error(e);
    return std::move(*f);
}

ImageFormat fromBuiltIn(const BuiltIn& b) {
    ImageFormat f = *formatForDriver(QLatin1String(b.driver));
    f.name = QLatin1String(b.name);
    f.mimeType = QLatin1String(b.mimeType);
    if (f.kind == ImageFormat::Kind::Mixed) {
        f.options.set(QStringLiteral("OPAQUE_FORMAT"), QStringLiteral("jpeg"));
        f.options.set(QStringLiteral("TRANSPARENT_FORMAT"), f.name == QLatin1String("jpegpng8") ? QStringLiteral("png8")
                                                                                                 : QStringLiteral("png24"));
    }
    finish(f);
    return f;
}

Result<ImageFormat> findFormat(const MapDef& map, const QString& nameOrMime, bool allowMixed);

// A mixed format's two formats, looked up by name in the map (msOutputFormatResolveFromImage).
Result<ImageFormat> resolveMixed(const MapDef& map, ImageFormat f) {
    if (f.kind != ImageFormat::Kind::Mixed) return f;
    for (const char* option : {"OPAQUE_FORMAT", "TRANSPARENT_FORMAT"}) {
        const QString name = f.options.value(QLatin1String(option), {});
        if (name.trimmed().isEmpty())
            return Error(QStringLiteral("OUTPUTFORMAT '%1': DRIVER AGG/MIXED needs FORMATOPTION \"%2=...\"").arg(f.name, QLatin1String(option)));
        Result<ImageFormat> sub = findFormat(map, name, false);
        if (!sub)
            return Error(QStringLiteral("OUTPUTFORMAT '%1': %2 '%3' is not an image format MapTune writes (%4)")
                             .arg(f.name, QLatin1String(option), name, sub.message()));
        ImageFormat chosen = std::move(sub).value();
        // The transparent one keeps the alpha that chose it.
        if (QLatin1String(option) == QLatin1String("TRANSPARENT_FORMAT")) chosen = withTransparency(chosen, true);
        (QLatin1String(option) == QLatin1String("OPAQUE_FORMAT") ? f.opaque : f.translucent) =
            std::make_shared<const ImageFormat>(std::move(chosen));
    }
    return f;
}

QStringList knownNames(const MapDef& map) {
    QStringList names;
    for (const auto& def : map.outputFormats) names << effectiveName(def);
    for (const auto& b : kBuiltIns)
        if (!names.contains(QLatin1String(b.name), Qt::CaseInsensitive)) names << QLatin1String(b.name);
    return names;
}

Result<ImageFormat> findFormat(const MapDef& map, const QString& nameOrMime, bool allowMixed) {
    const QString key = nameOrMime.trimmed();
    std::optional<Result<ImageFormat>> found;
    if (!key.isEmpty()) {
        for (const auto& def : map.outputFormats)
            if (!found && !def.mimeType.isEmpty() && equalsCi(def.mimeType, key)) found = fromDef(def);
        for (const auto& def : map.outputFormats)
            if (!found && equalsCi(effectiveName(def), key)) found = fromDef(def);
        for (const auto& b : kBuiltIns)
            if (!found && (equalsCi(key, QLatin1String(b.name)) || equalsCi(key, QLatin1String(b.mimeType))))
                found = fromBuiltIn(b);
    }
    if (!found)
        return Error(QStringLiteral("unknown output format '%1' (available: %2)")
                         .arg(nameOrMime, knownNames(map).join(QStringLiteral(", "))));
    if (!*found || (*found)->kind != ImageFormat::Kind::Mixed) return std::move(*found);
    if (!allowMixed) return Error(QStringLiteral("'%1' is itself a mixed format").arg(key));
    return resolveMixed(map, std::move(*found).value());
}

}  // namespace

const ImageFormat& ImageFormat::formatFor(const QImage& image) const {
    if (kind != Kind::Mixed || !opaque || !translucent) return *this;
    if (!image.hasAlphaChannel()) return *opaque;
    for (int y = 0; y < image.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x)
            if (qAlpha(row[x]) != 255) return *translucent;
    }
    return *opaque;
}

Result<ImageFormat> findImageFormat(const MapDef& map, const QString& nameOrMime) {
    return findFormat(map, nameOrMime, true);
}

QString defaultImageTypeName(const MapDef& map) {
    QString type = map.imageType;
    if (type.isEmpty() && !map.outputFormats.isEmpty()) type = effectiveName(map.outputFormats.first());
    if (type.isEmpty()) type = QStringLiteral("png");
    return type;
}

Result<ImageFormat> defaultImageFormat(const MapDef& map) {
    Result<ImageFormat> f = findImageFormat(map, defaultImageTypeName(map));
    if (!f) return f.error().prefixed(QStringLiteral("IMAGETYPE: "));
    return f;
}

ImageFormat fallbackImageFormat() { return fromBuiltIn(kBuiltIns[0]); }

ImageFormat withTransparency(const ImageFormat& format, bool transparent) {
    ImageFormat f = format;
    if (f.kind == ImageFormat::Kind::Jpeg) return f;
    f.transparent = transparent;
    if (transparent) {
        f.rgba = true;
        f.opaqueBackground = false;
    }
    return f;
}

QStringList availableFormatMimeTypes(const MapDef& map) {
    QStringList mimes;
    auto add = [&mimes](const QString& m) {
        if (!m.isEmpty() && !mimes.contains(m, Qt::CaseInsensitive)) mimes << m;
    };
    QStringList userNames;
    for (const auto& def : map.outputFormats) {
        userNames << def.name;
        if (auto f = fromDef(def)) add(f->mimeType);
    }
    for (const auto& b : kBuiltIns) {
        // msApplyDefaultOutputFormats adds a built-in unless the map already defines that name
        if (userNames.contains(QLatin1String(b.name), Qt::CaseInsensitive)) continue;
        add(QLatin1String(b.mimeType));
    }
    return mimes;
}

}  // namespace maptune
