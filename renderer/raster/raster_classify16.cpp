// Classification of non-8-bit rasters (MapServer's
// msDrawRasterLayerGDAL_16BitClassification): the data range is cut into
// buckets, each bucket is classified once, pixels look their bucket up.

#include "raster/raster_composer.h"

#include "mapfile/map_def.h"
#include "mapfile/processing.h"
#include "raster/raster_classifier.h"
#include "trace/trace.h"

#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>

#include <QRegularExpression>

#include <cmath>
#include <vector>

namespace maptune {

namespace {

std::optional<double> classifyNoData(const ProcessingOptions& opt, GDALRasterBandH band)
{
    if (const auto v = opt.value(QStringLiteral("NODATA"))) {
        const QString t = v->trimmed();
        if (t.isEmpty() || t.compare(QLatin1String("OFF"), Qt::CaseInsensitive) == 0) return std::nullopt;
        if (t.compare(QLatin1String("AUTO"), Qt::CaseInsensitive) != 0) return std::atof(t.toLatin1().constData());
    }
    int got = 0;
    const double nd = GDALGetRasterNoDataValue(band, &got);
    return got ? std::optional<double>(nd) : std::nullopt;
}

struct Buckets {
    double min = 0, max = 0, ratio = 1;
    int count = 0;
};

std::optional<Buckets> chooseBuckets(const ProcessingOptions& opt, GDALDataType type, float dataMin, float dataMax,
                                     QString* error)
{
    Buckets b;
    const auto bucketOpt = opt.value(QStringLiteral("SCALE_BUCKETS"));
    const auto scaleOpt = opt.value(QStringLiteral("SCALE"));
    if (scaleOpt) {
        const QStringList t = scaleOpt->split(QRegularExpression(QStringLiteral("[ ,]")), Qt::SkipEmptyParts);
        if (t.size() == 1 && t[0].compare(QLatin1String("AUTO"), Qt::CaseInsensitive) == 0) {
            b.min = b.max = 0;
        } else if (t.size() != 2) {
            *error = QStringLiteral("PROCESSING SCALE=%1 is not 'min,max' or 'AUTO'").arg(*scaleOpt);
            return std::nullopt;
        } else {
            b.min = std::atof(t[0].toLatin1().constData());
            b.max = std::atof(t[1].toLatin1().constData());
        }
    }
    if (type == GDT_Byte || type == GDT_Int16 || type == GDT_UInt16) {
        // Integer data: one bucket per value unless told otherwise.
        if (!scaleOpt) {
            b.min = dataMin - 0.5;
            b.max = dataMax + 0.5;
        }
        if (!bucketOpt) b.count = int(std::floor(dataMax - dataMin + 1.1));
    } else if (b.min == 0.0 && b.max == 0.0) {
        const double eps = (dataMax - dataMin) / (65536 * 2);
        b.min = dataMin - eps;
        b.max = dataMax + eps;
    }
    if (!bucketOpt) {
        if (b.count == 0) b.count = 65536;
    } else {
        b.count = bucketOpt->trimmed().toInt();
        if (b.count < 2) {
            *error = QStringLiteral("PROCESSING SCALE_BUCKETS=%1 must be 2 or more").arg(*bucketOpt);
            return std::nullopt;
        }
    }
    if (b.max == b.min) b.max = b.min + 1.0;
    b.ratio = b.count / (b.max - b.min);
    return b;
}

}  // namespace

std::optional<QImage> composeClassified16(const RasterSource& src, const RasterWindow& w, LayerTrace& trace,
                                          QString* error)
{
    const ProcessingOptions& opt = *src.options;
    const int bandNo = [&] {
        if (const auto bands = opt.value(QStringLiteral("BANDS")))
            return bands->split(QRegularExpression(QStringLiteral("[ ,]")), Qt::SkipEmptyParts).value(0).toInt();
        return 1;
    }();
    GDALRasterBandH band = GDALGetRasterBand(src.dataset, bandNo);
    const size_t n = size_t(w.dstWidth) * size_t(w.dstHeight);
    std::vector<float> raw(n);
    Stopwatch sw;
    if (GDALRasterIO(band, GF_Read, w.srcX, w.srcY, w.srcWidth, w.srcHeight, raw.data(), w.dstWidth, w.dstHeight,
                     GDT_Float32, 0, 0)
        != CE_None) {
        *error = QStringLiteral("reading pixels failed: %1").arg(QString::fromUtf8(CPLGetLastErrorMsg()));
        return std::nullopt;
    }
    trace.readMs += sw.restartMs();
    const auto nd = classifyNoData(opt, band);
    const float fnd = nd ? float(*nd) : 0.f;
    const auto skip = [&](float v) { return std::isnan(v) || (nd && v == fnd); };

    // MapServer starts this scan at the second pixel; we match it.
    float dataMin = 0, dataMax = 255;
    bool first = true;
    for (size_t i = 1; i < n; ++i) {
        if (skip(raw[i])) continue;
        if (first) {
            dataMin = dataMax = raw[i];
            first = false;
        } else {
            dataMin = std::min(dataMin, raw[i]);
            dataMax = std::max(dataMax, raw[i]);
        }
    }
    const auto b = chooseBuckets(opt, GDALGetRasterDataType(band), dataMin, dataMax, error);
    if (!b) return std::nullopt;
    const bool classifyScaled = CPLTestBool(
        opt.value(QStringLiteral("CLASSIFY_SCALED"), QStringLiteral("NO")).toLatin1().constData());

    std::vector<QRgb> table(size_t(b->count), 0);
    for (int i = 0; i < b->count; ++i) {
        const double original = (i + 0.5) / b->ratio + b->min;
        const Rgba8 c = src.classifier->classifyValue(classifyScaled ? double(float(i)) : double(float(original)),
                                                      original, 0.5 / b->ratio);
        if (c.a > 0) table[size_t(i)] = qPremultiply(qRgba(c.r, c.g, c.b, c.a));
    }
    trace.lutMs += sw.restartMs();

    QImage img(w.dstWidth, w.dstHeight, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    for (int y = 0; y < w.dstHeight; ++y) {
        QRgb* line = reinterpret_cast<QRgb*>(img.scanLine(y));
        const float* row = raw.data() + size_t(y) * size_t(w.dstWidth);
        for (int x = 0; x < w.dstWidth; ++x) {
            const float v = row[x];
            if (skip(v)) continue;
            // +1/-1 avoids truncation towards zero for small negatives, as MapServer does.
            const int idx = int((v - b->min) * b->ratio + 1) - 1;
            if (idx < 0 || idx >= b->count) continue;
            if (table[size_t(idx)]) line[x] = table[size_t(idx)];
        }
    }
    return img;
}

}  // namespace maptune
