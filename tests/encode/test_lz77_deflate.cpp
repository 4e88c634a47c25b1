// Our LZ77 zlib stream for drawn maps (lz77_deflate.h): every slicing, on
// one thread and on two, decodes back (libdeflate and zlib), matches reach
// back across slices and up to the window's edge, and a map compresses
// close to libdeflate's fastest level. A PNG encoded on two threads shows
// the same pixels as one encoded on one.

#include "encode/image_encoder.h"
#include "encode/lz77_deflate.h"
#include "mapfile/map_def.h"
#include "sample_images.h"
#include "deflate_test_support.h"

#include <QtTest>
#include <libdeflate.h>

#include <random>

using namespace maptune;
using ziptest::Bytes;
using ziptest::randomBytes;

namespace {

Bytes zlibOf(const Bytes& data, int slices, bool twoThreads, size_t pixel = 3, size_t row = 1537)
{
    const Lz77Deflate deflate(data, pixel, row, slices, twoThreads);
    Bytes out(deflate.zlibSize() + 8, 0xAA);
    deflate.writeZlib(out.data());
    out.resize(deflate.zlibSize());
    return out;
}

// A map's PNG rows as the writer deflates them: a filter byte (0) and RGB.
Bytes mapRows(const QImage& image)
{
    Bytes b;
    for (int y = 0; y < image.height(); ++y) {
        b.push_back(0);
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        for (int x = 0; x < image.width(); ++x) b.insert(b.end(), {uint8_t(qRed(row[x])), uint8_t(qGreen(row[x])), uint8_t(qBlue(row[x]))});
    }
    return b;
}

size_t libdeflateLevel1(const Bytes& data)
{
    libdeflate_compressor* c = libdeflate_alloc_compressor(1);
    Bytes out(libdeflate_zlib_compress_bound(c, data.size()));
    const size_t n = libdeflate_zlib_compress(c, data.data(), data.size(), out.data(), out.size());
    libdeflate_free_compressor(c);
    return n;
}

}  // namespace

Q_DECLARE_METATYPE(Bytes)

class TestLz77Deflate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<Bytes>("data");
        QTest::newRow("empty") << Bytes{};
        QTest::newRow("three bytes") << Bytes{1, 2, 3};
        QTest::newRow("zeros, 1 MB") << Bytes(1 << 20, 0);
        QTest::newRow("random") << randomBytes(100000, 1);
        QTest::newRow("small values") << randomBytes(70001, 2, 5);
        Bytes repeats = randomBytes(40000, 3);
        // The same block again 32768 bytes on (the window's edge) and 32769 (past it).
        repeats.insert(repeats.end(), repeats.begin(), repeats.begin() + 32768);
        repeats.insert(repeats.end(), repeats.begin() + 1000, repeats.begin() + 33769);
        QTest::newRow("repeats at the window's edge") << repeats;
        QTest::newRow("map rows") << mapRows(samples::mapLike(512, 160, true));
    }
    void roundTrip()
    {
        QFETCH(Bytes, data);
        for (int slices : {1, 2, 3, 7})
            for (bool twoThreads : {false, true}) {
                const QByteArray where = QByteArray::number(slices) + (twoThreads ? " slices, two threads" : " slices, one thread");
                ziptest::verifyRoundTrip(zlibOf(data, slices, twoThreads), data);
                if (QTest::currentTestFailed()) QFAIL(where.constData());
            }
    }

    // Threads change who finds the matches, never which: the same stream.
    void twoThreadsWriteTheSameStream()
    {
        const Bytes data = mapRows(samples::mapLike(256, 256, true));
        QVERIFY(zlibOf(data, 4, true) == zlibOf(data, 4, false));
    }

    void mapsCompressLikeLibdeflate()
    {
        const Bytes data = mapRows(samples::mapLike(512, 512, true));
        const size_t ours = zlibOf(data, 2, true).size(), level1 = libdeflateLevel1(data);
        QVERIFY2(ours < data.size() / 3, qPrintable(QString::number(ours)));
        QVERIFY2(double(ours) <= 1.15 * double(level1), qPrintable(QStringLiteral("%1 vs %2").arg(ours).arg(level1)));
        // A later slice copies from the one before: two slices of one repeated row cost little more than one.
        Bytes rows;
        const Bytes row = randomBytes(1537, 9);
        for (int i = 0; i < 200; ++i) rows.insert(rows.end(), row.begin(), row.end());
        QVERIFY(zlibOf(rows, 2, false).size() < zlibOf(Bytes(row), 1, false).size() + 2000);
    }

    void pngOnTwoThreadsHasTheSamePixels()
    {
        const QImage map = samples::mapLike(512, 300, true);
        const ImageFormat png = *findImageFormat(MapDef{}, QStringLiteral("png"));
        const QByteArray one = encodeImage(map, png, false).valueOr(QByteArray());
        const QByteArray two = encodeImage(map, png, true).valueOr(QByteArray());
        QVERIFY(!one.isEmpty() && !two.isEmpty());
        QVERIFY(one != two);  // libdeflate on one thread, ours on two
        const QImage a = QImage::fromData(one, "PNG").convertToFormat(QImage::Format_RGB32);
        const QImage b = QImage::fromData(two, "PNG").convertToFormat(QImage::Format_RGB32);
        QVERIFY(!a.isNull());
        QCOMPARE(b, a);
    }
};

QTEST_MAIN(TestLz77Deflate)
#include "test_lz77_deflate.moc"
