// The fast PNG path's parts on their own: length-limited Huffman codes, the
// Huffman-only zlib stream (decoded by libdeflate and by zlib) and PNG's row
// filters (undone by the PNG spec's formulas, written out here).

#include "encode/huffman_code.h"
#include "encode/huffman_deflate.h"
#include "encode/png_row_filter.h"
#include "deflate_test_support.h"

#include <QtTest>

#include <cmath>
#include <random>
#include <vector>

using namespace maptune;

namespace {

using ziptest::Bytes;
using ziptest::randomBytes;

Bytes zlibOf(const Bytes& data)
{
    const HuffmanDeflate deflate(data);
    Bytes out(deflate.zlibSize() + 8, 0xAA);
    deflate.writeZlib(out.data());
    out.resize(deflate.zlibSize());
    return out;
}

// Kraft's sum of 2^-length over the used symbols: 1 for a complete code.
double kraft(const std::vector<uint8_t>& lengths)
{
    double sum = 0;
    for (uint8_t l : lengths)
        if (l) sum += std::ldexp(1.0, -l);
    return sum;
}

// The PNG spec's reconstruction, byte by byte (9.2, 9.4).
Bytes unfilter(PngFilter f, const Bytes& filtered, const Bytes& prior, size_t bpp)
{
    Bytes row(filtered.size());
    for (size_t i = 0; i < row.size(); ++i) {
        const int a = i >= bpp ? row[i - bpp] : 0, b = prior[i], c = i >= bpp ? prior[i - bpp] : 0;
        int predicted = 0;
        switch (f) {
        case PngFilter::None: predicted = 0; break;
        case PngFilter::Sub: predicted = a; break;
        case PngFilter::Up: predicted = b; break;
        case PngFilter::Average: predicted = (a + b) / 2; break;
        case PngFilter::Paeth: {
            const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
            predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
            break;
        }
        }
        row[i] = uint8_t(filtered[i] + predicted);
    }
    return row;
}

}  // namespace

Q_DECLARE_METATYPE(Bytes)

class TestHuffmanDeflate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void lengthsAreOptimalWhenUnlimited()
    {
        const std::vector<uint32_t> freq = {1, 1, 2, 4, 0};
        std::vector<uint8_t> lengths(freq.size());
        huffmanLengths(freq, 15, lengths);
        QCOMPARE(lengths, (std::vector<uint8_t>{3, 3, 2, 1, 0}));
    }

    void lengthsRespectTheLimit()
    {
        // Fibonacci frequencies make the deepest possible tree (29 levels for 30 symbols).
        std::vector<uint32_t> freq(30);
        freq[0] = freq[1] = 1;
        for (size_t i = 2; i < freq.size(); ++i) freq[i] = freq[i - 1] + freq[i - 2];
        for (int limit : {7, 15}) {
            std::vector<uint8_t> lengths(freq.size());
            huffmanLengths(freq, limit, lengths);
            QCOMPARE(*std::max_element(lengths.begin(), lengths.end()), uint8_t(limit));
            QCOMPARE(kraft(lengths), 1.0);
            // The commonest symbol keeps the shortest code.
            QCOMPARE(lengths.back(), *std::min_element(lengths.begin(), lengths.end()));
        }
    }

    void oneSymbolStillMakesACompleteCode()
    {
        std::vector<uint8_t> lengths(5);
        huffmanLengths(std::vector<uint32_t>{0, 0, 7, 0, 0}, 15, lengths);
        QCOMPARE(lengths, (std::vector<uint8_t>{1, 0, 1, 0, 0}));
        huffmanLengths(std::vector<uint32_t>(5, 0), 15, lengths);
        QCOMPARE(kraft(lengths), 1.0);
    }

    void canonicalCodesAsRfc1951()
    {
        // RFC 1951 3.2.2's example: lengths (3, 3, 3, 3, 3, 2, 4, 4) give
        // 010 011 100 101 110 00 1110 1111, stored here bit-reversed.
        const std::vector<uint8_t> lengths = {3, 3, 3, 3, 3, 2, 4, 4};
        std::vector<uint16_t> codes(lengths.size());
        huffmanCodes(lengths, codes);
        QCOMPARE(codes, (std::vector<uint16_t>{0b010, 0b110, 0b001, 0b101, 0b011, 0b00, 0b0111, 0b1111}));
    }

    void zlibRoundTrip_data()
    {
        QTest::addColumn<Bytes>("data");
        QTest::newRow("empty") << Bytes{};
        QTest::newRow("one byte") << Bytes{42};
        QTest::newRow("zeros, 1 MB") << Bytes(1 << 20, 0);
        QTest::newRow("random") << randomBytes(100000, 1);
        QTest::newRow("small values") << randomBytes(70001, 2, 5);
        Bytes runs;
        std::mt19937 rng(3);
        // Runs of every length around the run threshold, the 16-byte blocks and 258.
        for (int length = 1; length < 600; ++length) runs.insert(runs.end(), size_t(length), uint8_t(rng()));
        QTest::newRow("runs of every length") << runs;
        Bytes tail = randomBytes(37, 4);
        tail.insert(tail.end(), 9, tail.back());
        QTest::newRow("a run at the very end") << tail;
    }
    void zlibRoundTrip()
    {
        QFETCH(Bytes, data);
        ziptest::verifyRoundTrip(zlibOf(data), data);
    }

    void runsAndSkewCompress()
    {
        QVERIFY(zlibOf(Bytes(1 << 20, 0)).size() < 5000);          // runs of 258 at a few bits each
        QVERIFY(zlibOf(randomBytes(100000, 5, 4)).size() < 30000);  // two bits a byte, near enough
        QVERIFY(zlibOf(randomBytes(100000, 6)).size() < 101000);   // incompressible stays near its size
    }

    void filtersUndoByTheSpec_data()
    {
        QTest::addColumn<int>("filter");
        QTest::addColumn<int>("bpp");
        for (int f = 0; f <= 4; ++f)
            for (int bpp : {1, 3, 4})
                QTest::addRow("filter %d, %d bytes a pixel", f, bpp) << f << bpp;
    }
    void filtersUndoByTheSpec()
    {
        QFETCH(int, filter);
        QFETCH(int, bpp);
        // Long enough for the vector loops and their remainders.
        const Bytes prior = randomBytes(1001, 7), row = randomBytes(1001, 8);
        Bytes filtered(row.size());
        filterRow(PngFilter(filter), row.data(), prior.data(), row.size(), size_t(bpp), filtered.data());
        QVERIFY(unfilter(PngFilter(filter), filtered, prior, size_t(bpp)) == row);
    }

    void adaptiveFilterPicksThePredictableDirection_data()
    {
        QTest::addColumn<Bytes>("prior");
        QTest::addColumn<Bytes>("row");
        QTest::addColumn<int>("expected");
        const Bytes noise = randomBytes(300, 9);
        Bytes level(300, 77), cornerAbove = noise, corner = noise;
        // Left: vertical stripes (the row above repeats); right: horizontal
        // ones (a level row under another level). Only Paeth predicts both.
        std::fill(cornerAbove.begin() + 150, cornerAbove.end(), 20);
        std::fill(corner.begin() + 150, corner.end(), 90);
        QTest::newRow("level row: Sub") << noise << level << int(PngFilter::Sub);
        QTest::newRow("the row above again: Up") << noise << noise << int(PngFilter::Up);
        QTest::newRow("stripes both ways: Paeth") << cornerAbove << corner << int(PngFilter::Paeth);
    }
    void adaptiveFilterPicksThePredictableDirection()
    {
        QFETCH(Bytes, prior);
        QFETCH(Bytes, row);
        QFETCH(int, expected);
        Bytes out(row.size() + 1);
        QCOMPARE(int(filterRowAdaptive(row.data(), prior.data(), row.size(), 3, out.data())), expected);
        QCOMPARE(int(out[0]), expected);
        QVERIFY(unfilter(PngFilter(expected), Bytes(out.begin() + 1, out.end()), prior, 3) == row);
    }

    void countSubZerosCountsRepeats()
    {
        const Bytes row = {0, 1, 2, 0, 1, 2, 9, 1, 2, 5};
        QCOMPARE(countSubZeros(row.data(), row.size(), 3), size_t(1 + 5));  // the first pixel's 0, then 0 1 2 and 1 2
    }

    void countSubZerosOnLongRows()
    {
        // Every length round the 32-byte steps, for each pixel size; repeats
        // at known places (every fifth byte equal to its left pixel's).
        for (size_t bpp : {1, 3, 4, 8})
            for (size_t stride = 0; stride <= 100; ++stride) {
                Bytes row(stride);
                size_t expected = 0;
                for (size_t i = 0; i < stride; ++i) {
                    row[i] = i >= bpp && i % 5 == 0 ? row[i - bpp] : uint8_t(i * 7 + 1);
                    expected += i < bpp ? row[i] == 0 : row[i] == row[i - bpp];
                }
                QCOMPARE(countSubZeros(row.data(), stride, bpp), expected);
            }
    }
};

QTEST_APPLESS_MAIN(TestHuffmanDeflate)
#include "test_huffman_deflate.moc"
