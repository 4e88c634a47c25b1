#include "encode/gdal_writer.h"

#include "core/gdal_dataset.h"

#include <cpl_conv.h>
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <gdal.h>

#include <QAtomicInteger>

#include <memory>

namespace maptune {

namespace {

GDALDataType rawDataType(const QString& type)
{
    if (type == QLatin1String("INT16")) return GDT_Int16;
    if (type == QLatin1String("FLOAT32")) return GDT_Float32;
    return GDT_Byte;
}

// Georeferencing, NULLVALUE, resolution and "mdi_" metadata on the MEM
// dataset; the other FORMATOPTIONs become creation options.
CPLStringList prepare(GDALDatasetH mem, int bands, const ImageFormat& format, const Georeference& geo)
{
    std::array<double, 6> gt = geo.geoTransform;
    GDALSetGeoTransform(mem, gt.data());
    if (!geo.wkt.isEmpty()) GDALSetProjection(mem, geo.wkt.constData());
    if (const auto nullValue = format.options.value(QStringLiteral("NULLVALUE")))
        for (int b = 1; b <= bands; ++b) GDALSetRasterNoDataValue(GDALGetRasterBand(mem, b), CPLAtof(nullValue->toUtf8().constData()));
    if (geo.resolution > 0) {
        const QByteArray res = QByteArray::number(geo.resolution, 'f', 6);
        GDALSetMetadataItem(mem, "TIFFTAG_XRESOLUTION", res.constData(), nullptr);
        GDALSetMetadataItem(mem, "TIFFTAG_YRESOLUTION", res.constData(), nullptr);
        GDALSetMetadataItem(mem, "TIFFTAG_RESOLUTIONUNIT", "2", nullptr);
    }
    CPLStringList creation;
    for (const auto& [key, value] : format.options.items) {
        // MapServer's own options, which GDAL would only warn about.
        if (key.compare(QLatin1String("BAND_COUNT"), Qt::CaseInsensitive) == 0
            || key.compare(QLatin1String("NULLVALUE"), Qt::CaseInsensitive) == 0)
            continue;
        const QByteArray option = (key + QLatin1Char('=') + value).toUtf8();
        if (!option.startsWith("mdi_")) {
            creation.AddString(option.constData());
            continue;
        }
        QByteArray rest = option.mid(4);
        GDALMajorObjectH target = mem;
        if (rest.startsWith("BAND_")) {
            const int band = rest.mid(5).toInt();
            const int under = rest.indexOf('_', 5);
            if (band < 1 || band > bands || under < 0) continue;
            target = GDALGetRasterBand(mem, band);
            rest = rest.mid(under + 1);
        }
        const int under = rest.indexOf('_'), eq = rest.indexOf('=');
        if (under < 0 || eq < under) continue;
        QByteArray domain = rest.left(under);
        if (domain == "default") domain.clear();
        GDALSetMetadataItem(target, rest.mid(under + 1, eq - under - 1).constData(), rest.mid(eq + 1).constData(), domain.constData());
    }
    return creation;
}

// CreateCopy into a private /vsimem directory; the bytes of the main file.
Result<QByteArray> copyOut(GDALDatasetH mem, const ImageFormat& format, const CPLStringList& creation)
{
    GDALDriverH driver = GDALGetDriverByName(format.gdalDriver.toUtf8().constData());
    if (!driver) return Error(QStringLiteral("msSaveImageGDAL(): Failed to find %1 driver.").arg(format.gdalDriver));
    static QAtomicInteger<quint64> counter;
    const QByteArray dir = "/vsimem/maptune-gdal-out-" + QByteArray::number(++counter);
    const QByteArray path = dir + "/out." + (format.extension.isEmpty() ? QByteArray("img.tmp") : format.extension.toUtf8());
    CPLErrorReset();
    GDALDatasetH out = GDALCreateCopy(driver, path.constData(), mem, FALSE, creation.List(), nullptr, nullptr);
    if (!out) {
        VSIRmdirRecursive(dir.constData());
        return Error(QStringLiteral("msSaveImageGDAL(): Failed to create output %1 file. %2")
                         .arg(format.gdalDriver, QString::fromUtf8(CPLGetLastErrorMsg())));
    }
    GDALClose(out);
    vsi_l_offset size = 0;
    GByte* data = VSIGetMemFileBuffer(path.constData(), &size, FALSE);
    QByteArray bytes = data ? QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)) : QByteArray();
    VSIRmdirRecursive(dir.constData());
    if (bytes.isEmpty()) return Error(QStringLiteral("msSaveImageGDAL(): the %1 driver wrote nothing.").arg(format.gdalDriver));
    return bytes;
}

OwnedDataset memDataset(int width, int height, int bands, GDALDataType type)
{
    GDALDriverH mem = GDALGetDriverByName("MEM");
    return OwnedDataset(mem ? GDALCreate(mem, "", width, height, bands, type, nullptr) : nullptr);
}

}  // namespace

Result<QByteArray> writeGdalImage(const QImage& image, const ImageFormat& format, const Georeference& geo)
{
    const int bands = format.rgba ? 4 : 3;
    const int w = image.width(), h = image.height();
    OwnedDataset mem = memDataset(w, h, bands, GDT_Byte);
    if (!mem) return Error(QStringLiteral("msSaveImageGDAL(): Failed to create MEM dataset."));
    const QImage src = image.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    std::vector<GByte> row(static_cast<size_t>(w), GByte(0));
    for (int y = 0; y < h; ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(src.constScanLine(y));
        for (int b = 0; b < bands; ++b) {
            for (int x = 0; x < w; ++x) {
                const QRgb p = line[x];
                const int a = qAlpha(p);
                const int v = b == 0 ? qRed(p) : b == 1 ? qGreen(p) : b == 2 ? qBlue(p) : a;
                // RGB is written un-premultiplied, as msSaveImageGDAL does (truncating).
                row[size_t(x)] = GByte(b == 3 || bands == 3 ? v : a == 0 ? 0 : std::min(255, v * 255 / a));
            }
            if (GDALRasterIO(GDALGetRasterBand(mem.get(), b + 1), GF_Write, 0, y, w, 1, row.data(), w, 1, GDT_Byte, 0, 0) != CE_None)
                return Error(QStringLiteral("msSaveImageGDAL(): GDALRasterIO() failed."));
        }
    }
    const GDALColorInterp interp[4] = {GCI_RedBand, GCI_GreenBand, GCI_BlueBand, GCI_AlphaBand};
    for (int b = 0; b < bands; ++b) GDALSetRasterColorInterpretation(GDALGetRasterBand(mem.get(), b + 1), interp[b]);
    const CPLStringList creation = prepare(mem.get(), bands, format, geo);
    return copyOut(mem.get(), format, creation);
}

Result<QByteArray> writeGdalRaw(int width, int height, const std::vector<std::vector<float>>& bands, const ImageFormat& format,
                                const Georeference& geo)
{
    const int n = int(bands.size());
    OwnedDataset mem = memDataset(width, height, n, rawDataType(format.rawType));
    if (!mem) return Error(QStringLiteral("msSaveImageGDAL(): Failed to create MEM dataset."));
    for (int b = 0; b < n; ++b) {
        auto* data = const_cast<float*>(bands[size_t(b)].data());
        if (GDALRasterIO(GDALGetRasterBand(mem.get(), b + 1), GF_Write, 0, 0, width, height, data, width, height, GDT_Float32, 0, 0)
            != CE_None)
            return Error(QStringLiteral("msSaveImageGDAL(): GDALRasterIO() failed."));
    }
    const CPLStringList creation = prepare(mem.get(), n, format, geo);
    return copyOut(mem.get(), format, creation);
}

}  // namespace maptune
