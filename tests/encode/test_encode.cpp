// Tests for the encode module: format resolution (MapServer 8 rules) and the PNG,
// PNG8 and JPEG encoders, checked by decoding the output with Qt's readers.

#include "encode/image_encoder.h"
#include "encode/output_format.h"
#include "mapfile/map_def.h"
#include "sample_images.h"

#include <QtEndian>
#include <gdal.h>
#include <QtTest>

#include <cmath>

using namespace maptune;

namespace {

// "NAME|DRIVER|MIMETYPE|IMAGEMODE|TRANSPARENT(0/1)|KEY=V;KEY=V" -> OutputFormatDef
OutputFormatDef formatDef(const QString& spec) {
    const QStringList f = spec.split(QLatin1Char('|'));
    OutputFormatDef d;
    d.name = f.value(0);
    d.driver = f.value(1);
    d.mimeType = f.value(2);
    d.imageMode = f.value(3);
    d.transparent = f.value(4) == QLatin1String("1");
    for (const QString& kv : f.value(5).split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const qsizetype eq = kv.indexOf(QLatin1Char('='));
        d.formatOptions.items.append({kv.left(eq), kv.mid(eq + 1)});
    }
    return d;
}

MapDef mapWith(const QStringList& specs, const QString& imageType = {}) {
    MapDef map;
    for (const QString& s : specs) map.outputFormats.append(formatDef(s));
    map.imageType = imageType;
    return map;
}

QImage decode(const QByteArray& bytes) { return QImage::fromData(bytes); }

// Pixels that differ between two images, compared as straight ARGB.
int differingPixels(const QImage& a, const QImage& b) {
    const QImage x = a.convertToFormat(QImage::Format_ARGB32);
    const QImage y = b.convertToFormat(QImage::Format_ARGB32);
    if (x.size() != y.size()) return -1;
    int n = 0;
    for (int r = 0; r < x.height(); ++r) {
        const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(r));
        const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(r));
        for (int c = 0; c < x.width(); ++c) n += p[c] != q[c];
    }
    return n;
}

double psnr(const QImage& a, const QImage& b) {
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    double se = 0;
    for (int r = 0; r < x.height(); ++r) {
        const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(r));
        const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(r));
        for (int c = 0; c < x.width(); ++c) {
            const int dr = qRed(p[c]) - qRed(q[c]), dg = qGreen(p[c]) - qGreen(q[c]), db = qBlue(p[c]) - qBlue(q[c]);
            se += dr * dr + dg * dg + db * db;
        }
    }
    const double mse = se / (3.0 * x.width() * x.height());
    return mse == 0 ? 99.0 : 10 * std::log10(255.0 * 255.0 / mse);
}

// PNG IHDR fields straight from the file bytes.
int pngBitDepth(const QByteArray& png) { return static_cast<uint8_t>(png.at(24)); }
int pngColorType(const QByteArray& png) { return static_cast<uint8_t>(png.at(25)); }

// The filter type byte of every row of an 8-bit RGB PNG (IDAT inflated).
QList<int> pngRowFilters(const QByteArray& png, int width, int height) {
    QByteArray zlib;
    for (qsizetype pos = 8; pos + 8 <= png.size();) {
        const quint32 len = qFromBigEndian<quint32>(png.constData() + pos);
        if (png.mid(pos + 4, 4) == "IDAT") zlib += png.mid(pos + 8, len);
        pos += 12 + len;
    }
    const qsizetype stride = qsizetype(width) * 3 + 1;
    QByteArray sized(4, 0);
    qToBigEndian<quint32>(quint32(stride * height), sized.data());
    const QByteArray raw = qUncompress(sized + zlib);
    QList<int> filters;
    for (int y = 0; y < height && (y + 1) * stride <= raw.size(); ++y) filters << int(uint8_t(raw.at(y * stride)));
    return filters;
}
bool pngHasChunk(const QByteArray& png, const char* type) { return png.indexOf(type) > 0; }

ImageFormat builtIn(const QString& name) { return *findImageFormat(MapDef{}, name); }

ImageFormat withOption(ImageFormat f, const QString& key, const QString& value) {
    MapDef map;
    OutputFormatDef d;
    d.name = f.name;
    d.driver = f.driver;
    d.transparent = f.transparent;
    d.imageMode = f.rgba ? QStringLiteral("RGBA") : QStringLiteral("RGB");
    d.formatOptions.items.append({key, value});
    map.outputFormats.append(d);
    return *findImageFormat(map, f.name);
}

// A canvas with exactly `colors` distinct opaque colours in vertical stripes.
QImage stripes(int colors, int w = 300, int h = 40) {
    QImage img(w, h, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < h; ++y) {
        auto* row = reinterpret_cast<QRgb*>(img.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const int i = (x + y) % colors;
            row[x] = qRgb(i * 37 % 256, (i * 11 + i / 7) % 256, 255 - i % 256);
        }
    }
    return img;
}

// The encoded bytes for checks that take them as given; a failure prints why
// and yields no bytes, which those checks then reject.
QByteArray encoded(const QImage& image, const ImageFormat& format) {
    Result<QByteArray> r = encodeImage(image, format);
    if (!r) qWarning("encodeImage failed: %s", qPrintable(r.message()));
    return std::move(r).valueOr(QByteArray());
}

}  // namespace

class TestEncode : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void findFormat_data();
    void findFormat();
    void findFormatErrors_data();
    void findFormatErrors();
    void defaultFormat_data();
    void defaultFormat();
    void mimeTypes();
    void transparency();

    void pngRoundTrip_data();
    void pngRoundTrip();
    void pngMixedContent();
    void pngDrawnMapsUnfiltered();
    void pngTransparentMapExact();
    void pngRgbaUnpremultiplies();
    void pngRgbDropsAlpha();
    void pngOtherInputFormats();
    void pngCompressionOption();

    void png8Exact_data();
    void png8Exact();
    void png8TransparentExact();
    void png8TransparentQuantized();
    void png8Quantized_data();
    void png8Quantized();

    void jpegRoundTrip_data();
    void jpegRoundTrip();
    void jpegQualityAndOptimization();
    void mixedJpegPng();

    void errors();
};

// ---- format resolution ----------------------------------------------------

void TestEncode::findFormat_data() {
    QTest::addColumn<QStringList>("formats");
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("mime");
    QTest::addColumn<QString>("extension");
    QTest::addColumn<bool>("rgba");
    QTest::addColumn<int>("quality");
    QTest::addColumn<int>("compression");
    QTest::addColumn<int>("colors");

    const int png = int(ImageFormat::Kind::Png), png8 = int(ImageFormat::Kind::Png8), jpeg = int(ImageFormat::Kind::Jpeg);
    // Built-ins (mapoutput.c defaultoutputformats[])
    QTest::newRow("png") << QStringList{} << "png" << "png" << png << "image/png" << "png" << false << 75 << -1 << 256;
    QTest::newRow("PNG upper case") << QStringList{} << "PNG" << "png" << png << "image/png" << "png" << false << 75 << -1 << 256;
    QTest::newRow("png mime") << QStringList{} << "image/png" << "png" << png << "image/png" << "png" << false << 75 << -1 << 256;
    QTest::newRow("png8") << QStringList{} << "png8" << "png8" << png8 << "image/png; mode=8bit" << "png" << false << 75 << -1 << 256;
    QTest::newRow("png8 mime") << QStringList{} << "IMAGE/PNG; MODE=8BIT" << "png8" << png8 << "image/png; mode=8bit" << "png" << false << 75 << -1 << 256;
    QTest::newRow("png24") << QStringList{} << "png24" << "png24" << png << "image/png; mode=24bit" << "png" << false << 75 << -1 << 256;
    QTest::newRow("jpeg") << QStringList{} << "jpeg" << "jpeg" << jpeg << "image/jpeg" << "jpg" << false << 75 << -1 << 256;
    QTest::newRow("jpeg mime") << QStringList{} << "image/jpeg" << "jpeg" << jpeg << "image/jpeg" << "jpg" << false << 75 << -1 << 256;
    // User OUTPUTFORMATs
    QTest::newRow("user rgba png with compression")
        << QStringList{"mypng|AGG/PNG|image/png|RGBA|0|COMPRESSION=9"} << "mypng"
        << "mypng" << png << "image/png" << "png" << true << 75 << 9 << 256;
    QTest::newRow("user name case-insensitive")
        << QStringList{"MyPng|AGG/PNG|||0|"} << "mypng" << "MyPng" << png << "image/png" << "png" << false << 75 << -1 << 256;
    QTest::newRow("transparent on makes rgba")
        << QStringList{"png|AGG/PNG|image/png|RGB|1|"} << "png" << "png" << png << "image/png" << "png" << true << 75 << -1 << 256;
    QTest::newRow("user mime wins over built-in name")
        << QStringList{"quant|AGG/PNG8|image/png||0|"} << "image/png" << "quant" << png8 << "image/png" << "png" << false << 75 << -1 << 256;
    QTest::newRow("user quantize colours")
        << QStringList{"p16|AGG/PNG8|||0|QUANTIZE_COLORS=16"} << "p16" << "p16" << png8 << "image/png; mode=8bit" << "png" << false << 75 << -1 << 16;
    QTest::newRow("AGG/PNG8 with QUANTIZE_FORCE=OFF is 24-bit")
        << QStringList{"p|AGG/PNG8|||0|QUANTIZE_FORCE=OFF"} << "p" << "p" << png << "image/png; mode=8bit" << "png" << false << 75 << -1 << 256;
    QTest::newRow("AGG/PNG with QUANTIZE_FORCE=ON is 8-bit")
        << QStringList{"q|AGG/PNG|image/png|RGB|0|QUANTIZE_FORCE=ON;QUANTIZE_COLORS=15"} << "q" << "q" << png8 << "image/png" << "png" << false << 75 << -1 << 15;
    QTest::newRow("GD driver becomes AGG/PNG8")
        << QStringList{"gif|GD/GIF|image/gif||0|"} << "gif" << "gif" << png8 << "image/gif" << "png" << false << 75 << -1 << 256;
    QTest::newRow("jpeg quality, transparency refused")
        << QStringList{"jq|AGG/JPEG||RGBA|1|QUALITY=90"} << "jq" << "jq" << jpeg << "image/jpeg" << "jpg" << false << 90 << -1 << 256;
    QTest::newRow("jpeg quality clamped like libjpeg")
        << QStringList{"jq|AGG/JPEG|||0|QUALITY=150"} << "jq" << "jq" << jpeg << "image/jpeg" << "jpg" << false << 100 << -1 << 256;
    QTest::newRow("option keys case-insensitive")
        << QStringList{"c|AGG/PNG|||0|compression=3"} << "c" << "c" << png << "image/png" << "png" << false << 75 << 3 << 256;
    QTest::newRow("built-in still found next to user formats")
        << QStringList{"a|AGG/PNG|image/x-a||0|"} << "jpeg" << "jpeg" << jpeg << "image/jpeg" << "jpg" << false << 75 << -1 << 256;
}

void TestEncode::findFormat() {
    QFETCH(QStringList, formats);
    QFETCH(QString, query);
    const Result<ImageFormat> f = findImageFormat(mapWith(formats), query);
    QVERIFY2(f, qPrintable(f.message()));
    QTEST(f->name, "name");
    QTEST(int(f->kind), "kind");
    QTEST(f->mimeType, "mime");
    QTEST(f->extension, "extension");
    QTEST(f->rgba, "rgba");
    QTEST(f->jpegQuality, "quality");
    QTEST(f->compressionLevel, "compression");
    if (f->kind == ImageFormat::Kind::Png8) QTEST(f->quantizeColors, "colors");
}

void TestEncode::findFormatErrors_data() {
    QTest::addColumn<QStringList>("formats");
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("messagePart");

    QTest::newRow("unknown name") << QStringList{} << "webp" << "unknown output format 'webp'";
    QTest::newRow("empty") << QStringList{} << "" << "unknown output format";
    QTest::newRow("gif is not built in") << QStringList{} << "gif" << "available: png, jpeg, png8, png24";
    QTest::newRow("unsupported driver") << QStringList{"tif|GDAL/GTiff|image/tiff||0|"} << "tif" << "not supported";
    QTest::newRow("compression out of range") << QStringList{"c|AGG/PNG|||0|COMPRESSION=12"} << "c" << "COMPRESSION=12";
    QTest::newRow("compression not a number") << QStringList{"c|AGG/PNG|||0|COMPRESSION=fast"} << "c" << "COMPRESSION=fast";
    QTest::newRow("quality not a number") << QStringList{"j|AGG/JPEG|||0|QUALITY=high"} << "j" << "QUALITY=high";
    QTest::newRow("too many colours") << QStringList{"p|AGG/PNG8|||0|QUANTIZE_COLORS=1000"} << "p" << "QUANTIZE_COLORS=1000";
}

void TestEncode::findFormatErrors() {
    QFETCH(QStringList, formats);
    QFETCH(QString, query);
    QFETCH(QString, messagePart);
    const Result<ImageFormat> f = findImageFormat(mapWith(formats), query);
    QVERIFY(!f);
    QVERIFY2(f.message().contains(messagePart), qPrintable(f.message()));
}

void TestEncode::defaultFormat_data() {
    QTest::addColumn<QStringList>("formats");
    QTest::addColumn<QString>("imageType");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("hasError");

    QTest::newRow("nothing: png") << QStringList{} << "" << "png" << false;
    QTest::newRow("first OUTPUTFORMAT") << QStringList{"first|AGG/JPEG|||0|", "second|AGG/PNG|||0|"} << "" << "first" << false;
    QTest::newRow("IMAGETYPE built-in") << QStringList{"first|AGG/JPEG|||0|"} << "png8" << "png8" << false;
    QTest::newRow("IMAGETYPE user") << QStringList{"a|AGG/PNG|||0|", "b|AGG/PNG|||0|"} << "B" << "b" << false;
    QTest::newRow("IMAGETYPE by MIME") << QStringList{} << "image/jpeg" << "jpeg" << false;
    QTest::newRow("IMAGETYPE unknown falls back") << QStringList{} << "bogus" << "png" << true;
}

void TestEncode::defaultFormat() {
    QFETCH(QStringList, formats);
    QFETCH(QString, imageType);
    const Result<ImageFormat> found = defaultImageFormat(mapWith(formats, imageType));
    const ImageFormat f = found.valueOr(fallbackImageFormat());
    QTEST(f.name, "name");
    QTEST(!found.ok(), "hasError");
}

void TestEncode::mimeTypes() {
    GDALAllRegister();  // GDAL/* formats need their drivers
    const QStringList builtIns{"image/png", "image/jpeg", "image/png; mode=8bit", "image/png; mode=24bit",
                               "image/vnd.jpeg-png", "image/vnd.jpeg-png8", "image/svg+xml", "image/tiff"};
    QCOMPARE(availableFormatMimeTypes(MapDef{}), builtIns);
    // A user "png" replaces the built-in of that name; duplicate MIME types are listed
    // once, the map's own formats first; formats we cannot encode are left out.
    const MapDef map = mapWith({"png|AGG/PNG8|image/png||0|", "tif|GDAL/GTiff|image/tiff||0|",
                                "other|AGG/JPEG|image/jpeg||0|", "none|GDAL/NoSuchDriver|image/x-none||0|"});
    const QStringList mapFirst{"image/png", "image/tiff", "image/jpeg", "image/png; mode=8bit", "image/png; mode=24bit",
                               "image/vnd.jpeg-png", "image/vnd.jpeg-png8", "image/svg+xml"};
    QCOMPARE(availableFormatMimeTypes(map), mapFirst);
    const MapDef custom = mapWith({"x|AGG/PNG|image/x-custom||0|"});
    QCOMPARE(availableFormatMimeTypes(custom).first(), QStringLiteral("image/x-custom"));
}

void TestEncode::transparency() {
    const ImageFormat png = withTransparency(builtIn("png"), true);
    QVERIFY(png.rgba);
    QVERIFY(png.transparent);
    const ImageFormat jpeg = withTransparency(builtIn("jpeg"), true);
    QVERIFY(!jpeg.rgba);
    QVERIFY(!jpeg.transparent);
    QVERIFY(!withTransparency(builtIn("png8"), false).rgba);
}

// ---- PNG ------------------------------------------------------------------

void TestEncode::pngRoundTrip_data() {
    QTest::addColumn<QImage>("image");
    QTest::newRow("photo 512") << samples::photoLike(512, 512);
    QTest::newRow("map antialiased 512") << samples::mapLike(512, 512, true);
    QTest::newRow("map flat 256") << samples::mapLike(256, 256, false);
    QTest::newRow("1x1") << samples::photoLike(1, 1);
    QTest::newRow("odd 7x3") << samples::photoLike(7, 3);
    QTest::newRow("one column") << samples::mapLike(1, 90, true);
}

void TestEncode::pngRoundTrip() {
    QFETCH(QImage, image);
    const Result<QByteArray> result = encodeImage(image, builtIn("png"));
    QVERIFY2(result, qPrintable(result.message()));
    const QByteArray png = *result;
    QVERIFY(!png.isEmpty());
    QCOMPARE(pngColorType(png), 2);  // truecolour RGB
    QCOMPARE(pngBitDepth(png), 8);
    const QImage decoded = decode(png);
    QCOMPARE(decoded.size(), image.size());
    QCOMPARE(differingPixels(decoded, image), 0);
}

// Noisy rows (Sub filter, level chosen per image) next to flat rows (no filter).
void TestEncode::pngMixedContent() {
    QImage img = samples::mapLike(200, 200, true);
    QPainter p(&img);
    p.drawImage(QPoint(0, 0), samples::photoLike(200, 90));
    p.drawImage(QPoint(0, 150), samples::photoLike(100, 50, 5));
    p.end();
    for (const char* name : {"png", "png24"}) {
        const QImage decoded = decode(encoded(img, builtIn(name)));
        QCOMPARE(differingPixels(decoded, img), 0);
    }
}

// A drawn map deflates better unfiltered in every row (its anti-aliased edges
// repeat as raw bytes); a photo's rows get each their best filter. Both stay lossless.
void TestEncode::pngDrawnMapsUnfiltered() {
    const QImage drawn = samples::mapLike(256, 128, true);
    const QImage photo = samples::photoLike(256, 128);
    const QByteArray drawnPng = encoded(drawn, builtIn("png"));
    const QByteArray photoPng = encoded(photo, builtIn("png"));
    const QList<int> drawnFilters = pngRowFilters(drawnPng, 256, 128);
    const QList<int> photoFilters = pngRowFilters(photoPng, 256, 128);
    QCOMPARE(drawnFilters.size(), 128);
    QCOMPARE(photoFilters.size(), 128);
    QCOMPARE(drawnFilters.count(0), 128);
    QVERIFY(photoFilters.count(0) < 13);
    QCOMPARE(differingPixels(decode(drawnPng), drawn), 0);
    QCOMPARE(differingPixels(decode(photoPng), photo), 0);
}

// Opaque and fully transparent pixels only: RGBA output decodes to the same pixels.
void TestEncode::pngTransparentMapExact() {
    QImage img(150, 120, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.drawImage(QPoint(0, 0), samples::mapLike(150, 60, false));
    p.drawImage(QPoint(20, 70), samples::photoLike(100, 40));
    p.end();
    const QByteArray png = encoded(img, withTransparency(builtIn("png"), true));
    QCOMPARE(pngColorType(png), 6);
    const QImage decoded = decode(png);
    QVERIFY(decoded.hasAlphaChannel());
    QCOMPARE(differingPixels(decoded, img), 0);
}

void TestEncode::pngRgbaUnpremultiplies() {
    // Every (alpha, premultiplied channel) pair that can occur.
    QImage img(256, 256, QImage::Format_ARGB32_Premultiplied);
    for (int a = 0; a < 256; ++a) {
        auto* row = reinterpret_cast<QRgb*>(img.scanLine(a));
        for (int c = 0; c < 256; ++c) {
            const int v = std::min(c, a);
            row[c] = qRgba(v, a - v, v / 2, a);
        }
    }
    const QByteArray png = encoded(img, withTransparency(builtIn("png"), true));
    QCOMPARE(pngColorType(png), 6);
    const QImage decoded = decode(png).convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(decoded.size(), img.size());
    int wrong = 0;
    for (int a = 0; a < 256; ++a) {
        const auto* in = reinterpret_cast<const QRgb*>(img.constScanLine(a));
        const auto* out = reinterpret_cast<const QRgb*>(decoded.constScanLine(a));
        for (int c = 0; c < 256; ++c) {
            // MapServer saveAsPNG: channel / (alpha / 255.0) truncated; alpha 0 -> 0,0,0,0
            auto straight = [a](int v) { return a == 0 ? 0 : std::min(255, int(v / (a / 255.0))); };
            const QRgb want = qRgba(straight(qRed(in[c])), straight(qGreen(in[c])), straight(qBlue(in[c])), a);
            wrong += out[c] != want;
        }
    }
    QCOMPARE(wrong, 0);
}

void TestEncode::pngRgbDropsAlpha() {
    QImage img(10, 10, QImage::Format_ARGB32_Premultiplied);
    img.fill(qRgba(40, 60, 80, 128));
    const QImage decoded = decode(encoded(img, builtIn("png")));
    QVERIFY(!decoded.hasAlphaChannel());
    QCOMPARE(decoded.pixel(5, 5), qRgb(40, 60, 80));
}

void TestEncode::pngOtherInputFormats() {
    const QImage source = samples::mapLike(64, 48, true).convertToFormat(QImage::Format_RGB888);
    QCOMPARE(differingPixels(decode(encoded(source, builtIn("png"))), source), 0);
    // Straight (non-premultiplied) ARGB32 keeps its colours in RGBA output.
    QImage straight(4, 1, QImage::Format_ARGB32);
    straight.setPixel(0, 0, qRgba(200, 100, 50, 77));
    straight.setPixel(1, 0, qRgba(1, 2, 3, 255));
    straight.setPixel(2, 0, qRgba(255, 255, 255, 1));
    straight.setPixel(3, 0, qRgba(0, 0, 0, 0));
    const QImage decoded = decode(encoded(straight, withTransparency(builtIn("png"), true)));
    QCOMPARE(differingPixels(decoded, straight), 0);
}

void TestEncode::pngCompressionOption() {
    const QImage map = samples::mapLike(200, 200, true);
    const QByteArray stored = encoded(map, withOption(builtIn("png"), "COMPRESSION", "0"));
    const QByteArray best = encoded(map, withOption(builtIn("png"), "COMPRESSION", "9"));
    QVERIFY(stored.size() > 200 * 200 * 3);  // level 0 stores the rows uncompressed
    QVERIFY(best.size() < stored.size() / 2);  // a map with large flat areas compresses 2:1 at least
    QCOMPARE(differingPixels(decode(stored), map), 0);
    QCOMPARE(differingPixels(decode(best), map), 0);
}

// ---- PNG8 -----------------------------------------------------------------

void TestEncode::png8Exact_data() {
    QTest::addColumn<QImage>("image");
    QTest::addColumn<int>("bitDepth");
    QTest::newRow("1 colour") << stripes(1) << 1;
    QTest::newRow("2 colours") << stripes(2) << 1;
    QTest::newRow("3 colours") << stripes(3) << 2;
    QTest::newRow("16 colours") << stripes(16) << 4;
    QTest::newRow("17 colours") << stripes(17) << 8;
    QTest::newRow("256 colours") << stripes(256) << 8;
    QTest::newRow("flat map") << samples::mapLike(300, 200, false) << 4;
}

void TestEncode::png8Exact() {
    QFETCH(QImage, image);
    const Result<QByteArray> result = encodeImage(image, builtIn("png8"));
    QVERIFY2(result, qPrintable(result.message()));
    const QByteArray png = *result;
    QVERIFY(!png.isEmpty());
    QCOMPARE(pngColorType(png), 3);
    QTEST(pngBitDepth(png), "bitDepth");
    QVERIFY(!pngHasChunk(png, "tRNS"));  // opaque: no transparency chunk
    QCOMPARE(differingPixels(decode(png), image), 0);
}

void TestEncode::png8TransparentExact() {
    QImage img(64, 64, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.fillRect(QRect(0, 0, 32, 64), QColor(255, 0, 0, 255));
    p.fillRect(QRect(32, 0, 16, 64), QColor(0, 0, 255, 128));
    p.end();
    const QByteArray png = encoded(img, withTransparency(builtIn("png8"), true));
    QCOMPARE(pngColorType(png), 3);
    QVERIFY(pngHasChunk(png, "tRNS"));
    const QImage decoded = decode(png).convertToFormat(QImage::Format_ARGB32);
    QCOMPARE(decoded.size(), img.size());
    QCOMPARE(decoded.pixel(10, 10), qRgba(255, 0, 0, 255));
    QCOMPARE(qAlpha(decoded.pixel(60, 10)), 0);
    // MapServer un-premultiplies palette entries as c * (255.0 / a), truncated.
    const QRgb raw = reinterpret_cast<const QRgb*>(img.constScanLine(10))[40];
    const int a = qAlpha(raw);
    const int blue = std::min(255, int(qBlue(raw) * (255.0 / a)));
    QCOMPARE(decoded.pixel(40, 10), qRgba(0, 0, blue, a));
}

// More than 256 RGBA colours: the palette keeps translucency (tRNS) close.
void TestEncode::png8TransparentQuantized() {
    QImage img(256, 256, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.setOpacity(0.6);
    p.drawImage(QPoint(0, 0), samples::mapLike(256, 256, true));
    p.setOpacity(1.0);
    p.drawImage(QPoint(64, 64), samples::photoLike(128, 128));
    p.end();
    const QByteArray png = encoded(img, withTransparency(builtIn("png8"), true));
    QCOMPARE(pngColorType(png), 3);
    QVERIFY(pngHasChunk(png, "tRNS"));
    const QImage decoded = decode(png).convertToFormat(QImage::Format_ARGB32_Premultiplied);
    QCOMPARE(decoded.size(), img.size());
    // Premultiplied channels: small on average, and no pixel far off (a translucent
    // pixel never turns opaque or vanishes; bins are 16 levels wide).
    int worst = 0;
    double total = 0;
    for (int y = 0; y < img.height(); ++y) {
        const auto* a = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        const auto* b = reinterpret_cast<const QRgb*>(decoded.constScanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            for (int d : {qAlpha(a[x]) - qAlpha(b[x]), qRed(a[x]) - qRed(b[x]), qGreen(a[x]) - qGreen(b[x]),
                          qBlue(a[x]) - qBlue(b[x])}) {
                worst = std::max(worst, std::abs(d));
                total += std::abs(d);
            }
        }
    }
    const double mean = total / (4.0 * img.width() * img.height());
    QVERIFY2(mean <= 3.0 && worst <= 40, qPrintable(QStringLiteral("mean %1, worst %2").arg(mean).arg(worst)));
    QCOMPARE(qAlpha(decoded.pixel(0, 0)) == 0, qAlpha(img.pixel(0, 0)) == 0);
}

void TestEncode::png8Quantized_data() {
    QTest::addColumn<QImage>("image");
    QTest::addColumn<int>("colors");
    QTest::addColumn<double>("minPsnr");
    // Bounds: median cut with 256 colours on 5-bit bins keeps every channel within
    // a few levels on smooth content; 16 colours is coarse but must stay recognisable.
    QTest::newRow("photo 256") << samples::photoLike(256, 256) << 256 << 30.0;
    QTest::newRow("antialiased map 256") << samples::mapLike(256, 256, true) << 256 << 38.0;
    QTest::newRow("257 colours") << stripes(257) << 256 << 38.0;
    QTest::newRow("photo 16") << samples::photoLike(256, 256) << 16 << 22.0;
}

void TestEncode::png8Quantized() {
    QFETCH(QImage, image);
    QFETCH(int, colors);
    QFETCH(double, minPsnr);
    const QByteArray png = encoded(image, withOption(builtIn("png8"), "QUANTIZE_COLORS", QString::number(colors)));
    QCOMPARE(pngColorType(png), 3);
    const QImage decoded = decode(png);
    QCOMPARE(decoded.size(), image.size());
    QVERIFY(decoded.colorCount() <= colors);
    const double p = psnr(decoded, image);
    QVERIFY2(p >= minPsnr, qPrintable(QStringLiteral("PSNR %1 dB").arg(p)));
}

// ---- JPEG -----------------------------------------------------------------

void TestEncode::jpegRoundTrip_data() {
    QTest::addColumn<QImage>("image");
    QTest::addColumn<double>("minPsnr");
    // Quality 75 keeps ~30 dB on noisy imagery (the sensor noise itself is lost);
    // thin antialiased lines are JPEG's worst case (ringing), hence the lower bound.
    QTest::newRow("photo") << samples::photoLike(256, 256) << 28.0;
    QTest::newRow("map") << samples::mapLike(256, 256, true) << 27.0;
    QTest::newRow("odd size") << samples::photoLike(33, 17) << 26.0;
}

void TestEncode::jpegRoundTrip() {
    QFETCH(QImage, image);
    QFETCH(double, minPsnr);
    const Result<QByteArray> result = encodeImage(image, builtIn("jpeg"));
    QVERIFY2(result, qPrintable(result.message()));
    const QByteArray jpg = *result;
    QVERIFY(!jpg.isEmpty());
    QVERIFY(jpg.startsWith("\xFF\xD8"));
    QVERIFY(jpg.endsWith("\xFF\xD9"));
    const QImage decoded = decode(jpg);
    QCOMPARE(decoded.size(), image.size());
    const double p = psnr(decoded, image);
    QVERIFY2(p >= minPsnr, qPrintable(QStringLiteral("PSNR %1 dB").arg(p)));
}

void TestEncode::jpegQualityAndOptimization() {
    const QImage photo = samples::photoLike(256, 256);
    const QByteArray q30 = encoded(photo, withOption(builtIn("jpeg"), "QUALITY", "30"));
    const QByteArray q95 = encoded(photo, withOption(builtIn("jpeg"), "QUALITY", "95"));
    QVERIFY(q95.size() > q30.size());
    QVERIFY(psnr(decode(q95), photo) > psnr(decode(q30), photo));
    // Optimized Huffman tables change only the entropy coding: same pixels, fewer bytes.
    const QByteArray optimized = encoded(photo, builtIn("jpeg"));
    const QByteArray plain = encoded(photo, withOption(builtIn("jpeg"), "OPTIMIZED", "NO"));
    QVERIFY(optimized.size() < plain.size());
    QCOMPARE(differingPixels(decode(optimized), decode(plain)), 0);
}

void TestEncode::errors() {
    const Result<QByteArray> png = encodeImage(QImage(), builtIn("png"));
    QVERIFY(!png);
    QVERIFY(png.message().contains("empty"));
    const Result<QByteArray> jpeg = encodeImage(QImage(), builtIn("jpeg"));
    QVERIFY(!jpeg);
    QVERIFY(!jpeg.message().isEmpty());
}

// AGG/MIXED ("jpegpng", "jpegpng8", or a map's own): JPEG when every pixel
// is opaque, else the transparent format, each answered with its MIME type.
void TestEncode::mixedJpegPng() {
    const Result<ImageFormat> mixed = findImageFormat(MapDef{}, QStringLiteral("image/vnd.jpeg-png"));
    QVERIFY2(mixed, qPrintable(mixed.message()));
    QCOMPARE(mixed->kind, ImageFormat::Kind::Mixed);
    QVERIFY(mixed->rgba);
    QVERIFY(mixed->opaque && mixed->translucent);
    QImage opaque(40, 30, QImage::Format_ARGB32_Premultiplied);
    opaque.fill(QColor(10, 120, 200));
    QImage holed = opaque;
    holed.setPixel(5, 5, qRgba(0, 0, 0, 0));
    QCOMPARE(mixed->formatFor(opaque).mimeType, QStringLiteral("image/jpeg"));
    QCOMPARE(mixed->formatFor(holed).mimeType, QStringLiteral("image/png; mode=24bit"));
    const Result<QByteArray> jpeg = encodeImage(opaque, *mixed);
    const Result<QByteArray> png = encodeImage(holed, *mixed);
    QVERIFY(jpeg && png);
    QVERIFY(jpeg->startsWith("\xFF\xD8\xFF"));
    QVERIFY(png->startsWith("\x89PNG"));
    QCOMPARE(qAlpha(decode(*png).pixel(5, 5)), 0);  // the transparent format keeps the alpha
    QCOMPARE(qAlpha(decode(*png).pixel(6, 6)), 255);

    const Result<ImageFormat> mixed8 = findImageFormat(MapDef{}, QStringLiteral("jpegpng8"));
    QVERIFY(mixed8);
    QCOMPARE(mixed8->formatFor(holed).mimeType, QStringLiteral("image/png; mode=8bit"));
    QCOMPARE(mixed8->formatFor(holed).kind, ImageFormat::Kind::Png8);

    // A map's own, naming its own formats; what cannot be resolved says why.
    const MapDef map = mapWith({"mine|AGG/MIXED|image/x-mine||0|OPAQUE_FORMAT=q;TRANSPARENT_FORMAT=png8",
                                "q|AGG/JPEG|image/jpeg||0|QUALITY=40"});
    const Result<ImageFormat> mine = findImageFormat(map, QStringLiteral("mine"));
    QVERIFY2(mine, qPrintable(mine.message()));
    QCOMPARE(mine->formatFor(opaque).jpegQuality, 40);
    const Result<ImageFormat> noOption = findImageFormat(mapWith({"m|AGG/MIXED|||0|OPAQUE_FORMAT=jpeg"}), QStringLiteral("m"));
    QVERIFY(!noOption && noOption.message().contains("TRANSPARENT_FORMAT"));
    const Result<ImageFormat> loop = findImageFormat(mapWith({"m|AGG/MIXED|||0|OPAQUE_FORMAT=m;TRANSPARENT_FORMAT=png"}), QStringLiteral("m"));
    QVERIFY(!loop && loop.message().contains("itself a mixed format"));
    const Result<ImageFormat> unknown = findImageFormat(mapWith({"m|AGG/MIXED|||0|OPAQUE_FORMAT=webp;TRANSPARENT_FORMAT=png"}), QStringLiteral("m"));
    QVERIFY(!unknown && unknown.message().contains("webp"));
}

QTEST_MAIN(TestEncode)
#include "test_encode.moc"
