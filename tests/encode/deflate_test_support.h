#pragma once
// What the deflate encoders' tests share: random data, and a round trip
// that decodes a zlib stream twice, with libdeflate (strict: the stream must
// end exactly at its size) and with zlib (through qUncompress), and checks
// both give the data back. QTest failures are reported in the calling test.

#include <QtEndian>
#include <QtTest>
#include <libdeflate.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace maptune::ziptest {

using Bytes = std::vector<uint8_t>;

inline Bytes randomBytes(size_t n, uint32_t seed, int spread = 256)
{
    std::mt19937 rng(seed);
    Bytes b(n);
    for (uint8_t& x : b) x = uint8_t(rng() % spread);
    return b;
}

inline void verifyRoundTrip(const Bytes& zlib, const Bytes& data)
{
    libdeflate_decompressor* d = libdeflate_alloc_decompressor();
    Bytes back(data.size() + 1);
    size_t in = 0, out = 0;
    const libdeflate_result r =
        libdeflate_zlib_decompress_ex(d, zlib.data(), zlib.size(), back.data(), back.size(), &in, &out);
    libdeflate_free_decompressor(d);
    QCOMPARE(int(r), int(LIBDEFLATE_SUCCESS));
    QCOMPARE(in, zlib.size());
    back.resize(out);
    QVERIFY(back == data);
    QByteArray sized(4, 0);
    qToBigEndian<quint32>(quint32(data.size()), sized.data());
    const QByteArray viaZlib =
        qUncompress(sized + QByteArray(reinterpret_cast<const char*>(zlib.data()), qsizetype(zlib.size())));
    QCOMPARE(size_t(viaZlib.size()), data.size());
    QVERIFY(std::equal(data.begin(), data.end(), reinterpret_cast<const uint8_t*>(viaZlib.constData())));
}

}  // namespace maptune::ziptest
