#include "raster/raster_composer.h"

#include "raster/raster_luts.h"

#include "mapfile/map_def.h"
#include "mapfile/processing.h"
#include "raster/lut.h"
#include "raster/raster_classifier.h"
#include "trace/trace.h"

#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>

#include <QRegularExpression>

#include <array>
#include <cmath>
#include <vector>

namespace maptune {

namespace {

// Which dataset bands feed output colour indexes 1..count. count 2 is
// grey+alpha, 3 is RGB, 4 is RGBA (MapServer's band_numbers / band_count).
struct BandChoice {
    std::array<int, 4> numbers{0, 0, 0, 0};
    int count = 1;
    bool rgb = false;
    bool alpha = false;
};

QStringList splitTokens(const QString& s)
{
    QStringList out;
    for (const QString& t : s.split(QRegularExpression(QStringLiteral("[ ,]")), Qt::SkipEmptyParts)) out << t;
    return out;
}

std::optional<BandChoice> chooseBands(GDALDatasetH ds, const ProcessingOptions& opt, bool classified, QString* error)
{
    const int n = GDALGetRasterCount(ds);
    if (n == 0) {
        *error = QStringLiteral("the dataset has no bands");
        return std::nullopt;
    }
    int red = 0, green = 0, blue = 0, alpha = 0;
    if (const auto bands = opt.value(QStringLiteral("BANDS"))) {
        const QStringList items = splitTokens(*bands);
        if (items.isEmpty() || items.size() > 4) {
            *error = QStringLiteral("PROCESSING BANDS=%1 must list 1 to 4 bands").arg(*bands);
            return std::nullopt;
        }
        std::vector<int> list;
        for (const QString& item : items) {
            const int b = item.toInt();
            if (b < 1 || b > n) {
                *error = QStringLiteral("PROCESSING BANDS includes illegal band '%1', should be from 1 to %2")
                             .arg(item)
                             .arg(n);
                return std::nullopt;
            }
            list.push_back(b);
        }
        red = list[0];
        if (list.size() > 2) {
            green = list[1];
            blue = list[2];
        }
        if (list.size() > 3) alpha = list[3];
    } else {
        red = 1;
        for (int i = 4; i <= n && n >= 4; ++i) {
            if (GDALGetRasterColorInterpretation(GDALGetRasterBand(ds, i)) == GCI_AlphaBand) {
                alpha = i;
                break;
            }
        }
        if (n >= 3) {
            green = 2;
            blue = 3;
        }
        if (n == 2 && GDALGetRasterColorInterpretation(GDALGetRasterBand(ds, 2)) == GCI_AlphaBand) alpha = 2;
        if (classified || GDALGetRasterColorTable(GDALGetRasterBand(ds, red))) green = blue = alpha = 0;
    }
    BandChoice c;
    c.numbers = {red, green, blue, 0};
    if (blue && alpha) {
        c.numbers[3] = alpha;
        c.count = 4;
    } else if (blue) {
        c.count = 3;
    } else if (alpha) {
        c.numbers[1] = alpha;
        c.count = 2;
    }
    c.rgb = green != 0;
    c.alpha = alpha != 0;
    return c;
}

}  // namespace

std::optional<double> rasterNoDataValue(const ProcessingOptions& opt, GDALRasterBandH band)
{
    if (const auto v = opt.value(QStringLiteral("NODATA"))) {
        const QString t = v->trimmed();
        if (t.isEmpty() || t.compare(QLatin1String("OFF"), Qt::CaseInsensitive) == 0) return std::nullopt;
        if (t.compare(QLatin1String("AUTO"), Qt::CaseInsensitive) != 0) return std::atof(t.toLatin1().constData());
    }
    if (!band) return std::nullopt;
    int got = 0;
    const double nd = GDALGetRasterNoDataValue(band, &got);
    if (!got) return std::nullopt;
    return nd;
}

namespace {

inline bool isNoData(float v, float nd) { return std::isnan(v) || v == nd; }

bool hasAnyScale(const ProcessingOptions& opt)
{
    for (const char* k : {"SCALE", "SCALE_1", "SCALE_2", "SCALE_3", "SCALE_4"})
        if (opt.has(QLatin1String(k))) return true;
    return false;
}

struct ScaleState {
    bool scaled = false;
    double min = 0, ratio = 0;
};

// Planes of bytes, one per colour index, plus the per-pixel "is nodata" flags
// MapServer keeps for scaled data.
struct Planes {
    std::vector<uint8_t> bytes;  // count * pixels
    std::vector<uint8_t> noData; // empty or pixels
    size_t pixels = 0;
    // 8-bit LUTs of the R, G, B planes not applied yet: paintRgb applies
    // them while it composes. Measured in the server, the fused lookups cost
    // less than any separate pass, even an AVX-512 one (docs/PERFORMANCE.md).
    std::array<const Lut*, 3> rgbLut{};
    uint8_t* plane(int i) { return bytes.data() + size_t(i) * pixels; }
};

bool rasterIo(GDALDatasetH ds, const RasterWindow& w, void* buf, GDALDataType type, int count, const int* bands,
              QString* error)
{
    const CPLErr err = GDALDatasetRasterIO(ds, GF_Read, w.srcX, w.srcY, w.srcWidth, w.srcHeight, buf, w.dstWidth,
                                           w.dstHeight, type, count, const_cast<int*>(bands), 0, 0, 0);
    if (err != CE_None) {
        *error = QStringLiteral("reading pixels failed: %1").arg(QString::fromUtf8(CPLGetLastErrorMsg()));
        return false;
    }
    return true;
}

// No SCALE: read as Byte, or UInt16 when a LUT asks for 16-bit input.
bool loadUnscaled(const RasterSource& src, const RasterWindow& w, const BandChoice& bc, Planes& out,
                  LayerTrace& trace, QString* error)
{
    const RasterLuts& luts = *src.luts;
    const bool wide = luts.wide(bc.count);
    if (const QString e = luts.errorFor(bc.count, wide); !e.isEmpty()) {
        *error = e;
        return false;
    }

    Stopwatch sw;
    if (!wide) {
        if (!rasterIo(src.dataset, w, out.bytes.data(), GDT_Byte, bc.count, bc.numbers.data(), error)) return false;
    }
    std::vector<uint16_t> wideBuf;
    if (wide) {
        wideBuf.resize(out.pixels * size_t(bc.count));
        if (!rasterIo(src.dataset, w, wideBuf.data(), GDT_UInt16, bc.count, bc.numbers.data(), error)) return false;
    }
    trace.readMs += sw.restartMs();
    for (int i = 0; i < bc.count; ++i) {
        const Lut* lut = luts.table(i + 1, wide);
        const uint16_t* in16 = wide ? wideBuf.data() + size_t(i) * out.pixels : nullptr;
        if (!lut) {
            if (wide) GDALCopyWords(const_cast<uint16_t*>(in16), GDT_UInt16, 2, out.plane(i), GDT_Byte, 1, int(out.pixels));
            continue;
        }
        if (!wide && bc.rgb && i < 3) {
            out.rgbLut[size_t(i)] = lut;
            continue;
        }
        if (wide)
            lut->apply(in16, out.plane(i), out.pixels);
        else
            lut->apply(out.plane(i), out.plane(i), out.pixels);
    }
    trace.lutMs += sw.elapsedMs();
    return true;
}

// SCALE / SCALE_n: read as Float32, v = (x-min)*256/(max-min), clamp, truncate, then LUT.
bool loadScaled(const RasterSource& src, const RasterWindow& w, const BandChoice& bc, Planes& out, ScaleState& scale,
                LayerTrace& trace, QString* error)
{
    Stopwatch sw;
    std::vector<float> raw(out.pixels * size_t(bc.count));
    if (!rasterIo(src.dataset, w, raw.data(), GDT_Float32, bc.count, bc.numbers.data(), error)) return false;
    trace.readMs += sw.restartMs();
    const RasterLuts& luts = *src.luts;
    if (const QString e = luts.errorFor(bc.count, false); !e.isEmpty()) {
        *error = e;
        return false;
    }

    const ProcessingOptions& opt = *src.options;
    for (int ci = 0; ci < bc.count; ++ci) {
        GDALRasterBandH band = GDALGetRasterBand(src.dataset, bc.numbers[size_t(ci)]);
        double smin = 0, smax = 255, ratio = 0;
        std::optional<QString> info = opt.value(QStringLiteral("SCALE"));
        const bool allBands = info.has_value();
        if (!info) info = opt.value(QStringLiteral("SCALE_%1").arg(ci + 1));
        if (info) {
            const QStringList t = splitTokens(*info);
            if (t.size() == 1 && t[0].compare(QLatin1String("AUTO"), Qt::CaseInsensitive) == 0) {
                // Auto-scaling an alpha band would make it meaningless.
                if (allBands && GDALGetRasterColorInterpretation(band) == GCI_AlphaBand
                    && GDALGetRasterDataType(band) == GDT_Byte) {
                    smin = 0, smax = 255, ratio = 1;
                } else {
                    smin = smax = 0;
                }
            } else if (t.size() != 2) {
                *error = QStringLiteral("PROCESSING SCALE=%1 is not 'min,max' or 'AUTO'").arg(*info);
                return false;
            } else {
                smin = std::atof(t[0].toLatin1().constData());
                smax = std::atof(t[1].toLatin1().constData());
            }
        }
        const float* data = raw.data() + size_t(ci) * out.pixels;
        const auto nd = rasterNoDataValue(opt, band);
        const float fnd = nd ? float(*nd) : 0.f;
        if (smin == smax) {
            bool set = false;
            for (size_t i = 0; i < out.pixels; ++i) {
                const float v = data[i];
                if ((nd && isNoData(v, fnd)) || std::isnan(v)) continue;
                if (!set) smin = smax = v, set = true;
                smin = std::min(smin, double(v));
                smax = std::max(smax, double(v));
            }
            if (smin == smax) smax = smin + 1.0;
        }
        if (ratio == 0.0) ratio = 256.0 / (smax - smin);
        uint8_t* plane = out.plane(ci);
        if (ci == 0 && nd) out.noData.assign(out.pixels, 0);
        for (size_t i = 0; i < out.pixels; ++i) {
            const float v = data[i];
            if (nd && isNoData(v, fnd)) {
                if (ci == 0) out.noData[i] = 1;
                plane[i] = 0;
                continue;
            }
            const float s = float((v - smin) * ratio);
            plane[i] = s < 0.f ? 0 : s > 255.f ? 255 : std::isnan(s) ? 0 : uint8_t(int(s));
        }
        if (ci == 0) scale = {true, smin, ratio};
        if (const Lut* lut = luts.table(ci + 1, false)) {
            Stopwatch lsw;
            lut->apply(plane, plane, out.pixels);
            trace.lutMs += lsw.elapsedMs();
        }
    }
    trace.readMs += sw.elapsedMs();
    return true;
}

// The 256-entry RGBA table a single band's bytes map through.
struct ColorMap {
    std::array<Rgba8, 256> rgba{};
};

std::optional<ColorMap> buildColorMap(const RasterSource& src, GDALRasterBandH band1, const ScaleState& scale,
                                      QString* error)
{
    const Color& offsite = src.layer->offsite;
    const auto isOffsite = [&](int r, int g, int b) {
        return offsite.isSet() && offsite.r == r && offsite.g == g && offsite.b == b;
    };
    // Entries of the band's colour table, or a grey ramp (offsite grey transparent).
    std::vector<std::array<int, 4>> entries;
    bool defaultGrey = false;
    if (GDALColorTableH ct = GDALGetRasterColorTable(band1)) {
        const int n = GDALGetColorEntryCount(ct);
        entries.resize(size_t(n));
        for (int i = 0; i < n; ++i) {
            GDALColorEntry e;
            GDALGetColorEntryAsRGB(ct, i, &e);
            entries[size_t(i)] = {e.c1, e.c2, e.c3, e.c4};
        }
    } else {
        defaultGrey = true;
        entries.resize(256);
        for (int i = 0; i < 256; ++i) entries[size_t(i)] = {i, i, i, isOffsite(i, i, i) ? 0 : 255};
        for (int i = 0; i < 256; ++i)
            if (entries[size_t(i)][3] == 0) entries[size_t(i)] = {0, 0, 0, 0};
    }
    if (const auto nd = rasterNoDataValue(*src.options, band1); nd && *nd >= 0 && *nd < double(entries.size()))
        entries[size_t(int(*nd))][3] = 0;

    ColorMap cm;
    const bool scaleColors = scale.scaled && !defaultGrey;
    int count = int(entries.size());
    if (!(src.classifier && scaleColors)) count = std::min(count, 256);
    for (int i = 0; i < count; ++i) {
        const auto& e = entries[size_t(i)];
        const int j = scaleColors ? std::clamp(int((i - scale.min) * scale.ratio), 0, 255) : i;
        if (src.classifier) {
            if (!isOffsite(e[0], e[1], e[2])) cm.rgba[size_t(j)] = src.classifier->classifyIndex(i, e[0], e[1], e[2]);
        } else if (e[3] != 0 && !isOffsite(e[0], e[1], e[2])) {
            cm.rgba[size_t(j)] = {uint8_t(e[0]), uint8_t(e[1]), uint8_t(e[2]), uint8_t(e[3])};
        }
    }
    Q_UNUSED(error);
    return cm;
}

// The GDAL mask band as alpha when there is no alpha band (MapServer 8, USE_MASK_BAND).
bool loadMaskAlpha(const RasterSource& src, const RasterWindow& w, GDALRasterBandH band1, std::vector<uint8_t>& alpha,
                   QString* error)
{
    const int flags = GDALGetMaskFlags(band1);
    const QByteArray use = src.options->value(QStringLiteral("USE_MASK_BAND"), QStringLiteral("YES")).toLatin1();
    if (!CPLTestBool(use.constData()) || !(flags & GMF_PER_DATASET) || (flags & (GMF_NODATA | GMF_ALL_VALID)))
        return true;
    alpha.resize(size_t(w.dstWidth) * size_t(w.dstHeight));
    GDALRasterBandH mask = GDALGetMaskBand(band1);
    if (GDALRasterIO(mask, GF_Read, w.srcX, w.srcY, w.srcWidth, w.srcHeight, alpha.data(), w.dstWidth, w.dstHeight,
                     GDT_Byte, 0, 0)
        != CE_None) {
        *error = QStringLiteral("reading the mask band failed: %1").arg(QString::fromUtf8(CPLGetLastErrorMsg()));
        return false;
    }
    if (!(flags & GMF_ALPHA))
        for (uint8_t& a : alpha) a = a ? 255 : 0;
    return true;
}

// msAlphaBlend onto a transparent pixel: the colour times alpha, truncated.
inline QRgb premul(int r, int g, int b, int a) { return qRgba(r * a / 255, g * a / 255, b * a / 255, a); }

void paintIndexed(QImage& img, const Planes& p, const ColorMap& cm, const uint8_t* alpha)
{
    const uint8_t* idx = p.bytes.data();
    const uint8_t* nd = p.noData.empty() ? nullptr : p.noData.data();
    std::array<QRgb, 256> lookup;
    for (int i = 0; i < 256; ++i) {
        const Rgba8& c = cm.rgba[size_t(i)];
        lookup[size_t(i)] = c.a > 253 ? qRgba(c.r, c.g, c.b, 255) : c.a > 1 ? premul(c.r, c.g, c.b, c.a) : 0;
    }
    const int w = img.width();
    for (int y = 0; y < img.height(); ++y) {
        QRgb* line = reinterpret_cast<QRgb*>(img.scanLine(y));
        const size_t row = size_t(y) * size_t(w);
        for (int x = 0; x < w; ++x) {
            const size_t k = row + size_t(x);
            if (nd && nd[k]) continue;
            if (!alpha) {
                line[x] = lookup[idx[k]];
                continue;
            }
            const Rgba8& c = cm.rgba[idx[k]];
            const int merged = alpha[k] * c.a / 255;
            if (merged < 2) continue;
            line[x] = merged > 253 ? premul(c.r, c.g, c.b, c.a) : premul(c.r, c.g, c.b, merged);
        }
    }
}

// With `Lut` the planes' values go through p.rgbLut first (as if the LUT
// had been applied when they were read: OFFSITE and NODATA compare with
// the values after it, as MapServer does).
template <bool WithLut>
void paintRgbRows(QImage& img, Planes& p, const uint8_t* alpha, const Color& offsite,
                  const std::optional<std::array<int, 3>>& rgbNoData)
{
    static const std::array<uint8_t, 256> identity = [] {
        std::array<uint8_t, 256> t{};
        for (int i = 0; i < 256; ++i) t[size_t(i)] = uint8_t(i);
        return t;
    }();
    auto table = [&](int i) { return p.rgbLut[size_t(i)] ? p.rgbLut[size_t(i)]->data() : identity.data(); };
    const uint8_t* r = p.plane(0);
    const uint8_t* g = p.plane(1);
    const uint8_t* b = p.plane(2);
    const uint8_t *tr = table(0), *tg = table(1), *tb = table(2);
    const uint8_t* nd = p.noData.empty() ? nullptr : p.noData.data();
    const bool useOffsite = offsite.isSet();
    const int w = img.width();
    for (int y = 0; y < img.height(); ++y) {
        QRgb* line = reinterpret_cast<QRgb*>(img.scanLine(y));
        const size_t row = size_t(y) * size_t(w);
        for (int x = 0; x < w; ++x) {
            const size_t k = row + size_t(x);
            if (nd && nd[k]) continue;
            const int rv = WithLut ? tr[r[k]] : r[k], gv = WithLut ? tg[g[k]] : g[k], bv = WithLut ? tb[b[k]] : b[k];
            if (useOffsite && rv == offsite.r && gv == offsite.g && bv == offsite.b) continue;
            if (rgbNoData && rv == (*rgbNoData)[0] && gv == (*rgbNoData)[1] && bv == (*rgbNoData)[2]) continue;
            if (!alpha || alpha[k] == 255)
                line[x] = qRgb(rv, gv, bv);
            else if (alpha[k] != 0)
                line[x] = premul(rv, gv, bv, alpha[k]);
        }
    }
}

void paintRgb(QImage& img, Planes& p, const uint8_t* alpha, const Color& offsite, const std::optional<std::array<int, 3>>& rgbNoData)
{
    if (p.rgbLut[0] || p.rgbLut[1] || p.rgbLut[2])
        paintRgbRows<true>(img, p, alpha, offsite, rgbNoData);
    else
        paintRgbRows<false>(img, p, alpha, offsite, rgbNoData);
}

}  // namespace

// Defined in raster_classify16.cpp: classification of non-8-bit data.
std::optional<QImage> composeClassified16(const RasterSource& source, const RasterWindow& window,
                                          LayerTrace& trace, QString* error);

Result<QImage> RasterComposer::compose(const RasterSource& src, const RasterWindow& w, LayerTrace& trace)
{
    const ProcessingOptions& opt = *src.options;
    QString error;
    const auto bc = chooseBands(src.dataset, opt, src.classifier != nullptr, &error);
    if (!bc) return Error(error);
    GDALRasterBandH band1 = GDALGetRasterBand(src.dataset, bc->numbers[0]);
    if (src.classifier && GDALGetRasterDataType(band1) != GDT_Byte) {
        std::optional<QImage> classified = composeClassified16(src, w, trace, &error);
        if (!classified) return Error(error);
        return std::move(*classified);
    }
    if (src.classifier && bc->rgb)
        return Error(
            QStringLiteral("cannot classify a 3-band (RGB) selection: set PROCESSING \"BANDS=n\" to one band"));

    Planes planes;
    planes.pixels = size_t(w.dstWidth) * size_t(w.dstHeight);
    planes.bytes.assign(planes.pixels * size_t(bc->count), 0);
    ScaleState scale;
    std::optional<std::array<int, 3>> rgbNoData;
    if (!hasAnyScale(opt)) {
        if (bc->count == 3) {
            std::array<int, 3> nd{};
            bool all = true;
            for (int i = 0; i < 3 && all; ++i) {
                const auto v = rasterNoDataValue(opt, GDALGetRasterBand(src.dataset, bc->numbers[size_t(i)]));
                all = v.has_value();
                if (v) nd[size_t(i)] = int(*v);
            }
            if (all) rgbNoData = nd;
        }
        if (!loadUnscaled(src, w, *bc, planes, trace, &error)) return Error(error);
    } else if (!loadScaled(src, w, *bc, planes, scale, trace, &error)) {
        return Error(error);
    }

    const uint8_t* alpha = nullptr;
    std::vector<uint8_t> maskAlpha;
    if (bc->alpha) {
        alpha = planes.plane(bc->rgb ? 3 : 1);
    } else {
        Stopwatch sw;
        if (!loadMaskAlpha(src, w, band1, maskAlpha, &error)) return Error(error);
        trace.readMs += sw.elapsedMs();
        if (!maskAlpha.empty()) alpha = maskAlpha.data();
    }

    QImage img(w.dstWidth, w.dstHeight, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    if (bc->rgb) {
        paintRgb(img, planes, alpha, src.layer->offsite, rgbNoData);
    } else {
        const auto cm = buildColorMap(src, band1, scale, &error);
        if (!cm) return Error(error);
        paintIndexed(img, planes, *cm, alpha);
    }
    return img;
}

}  // namespace maptune
