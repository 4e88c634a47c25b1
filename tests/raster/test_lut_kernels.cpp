// The 8-bit LUT lookup kernels: the portable loop against a naive reference,
// and (on a CPU with AVX-512 VBMI) the SIMD form against the same reference,
// over lengths around its 64-byte step, in place and out of place.

#include "raster/lut.h"
#include "raster/lut_kernels.h"

#include <QRandomGenerator>
#include <QtTest>

#include <vector>

using namespace maptune;

namespace {

using Kernel = void (*)(const uint8_t*, const uint8_t*, uint8_t*, size_t);

std::vector<uint8_t> randomBytes(QRandomGenerator& rng, size_t n)
{
    std::vector<uint8_t> v(n);
    for (uint8_t& b : v) b = uint8_t(rng.bounded(256));
    return v;
}

// Runs `kernel` on `length` random bytes at an odd offset (so no step starts
// aligned) and checks every byte against table[input[i]] and that the guard
// bytes around the output were not written.
void checkKernel(Kernel kernel, const std::vector<uint8_t>& table, size_t length, bool inPlace, quint32 seed)
{
    constexpr size_t offset = 3, guard = 80;
    QRandomGenerator rng(seed);
    const std::vector<uint8_t> original = randomBytes(rng, offset + length + guard);
    std::vector<uint8_t> src = original;
    std::vector<uint8_t> dst(src.size(), 0x5A);
    std::vector<uint8_t>& out = inPlace ? src : dst;
    kernel(table.data(), src.data() + offset, out.data() + offset, length);
    for (size_t i = offset; i < offset + length; ++i)
        if (out[i] != table[original[i]])
            QFAIL(qPrintable(QStringLiteral("byte %1 of %2: got %3, want table[%4] = %5")
                                 .arg(i - offset).arg(length).arg(out[i]).arg(original[i]).arg(table[original[i]])));
    for (size_t i = 0; i < out.size(); ++i)
        if (i < offset || i >= offset + length) QCOMPARE(out[i], inPlace ? original[i] : uint8_t(0x5A));
}

}  // namespace

class TestLutKernels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { m_vbmiBefore = lut_kernels::vbmiEnabled(); }
    void cleanup() { lut_kernels::setVbmiEnabled(m_vbmiBefore); }

    void kernels_data();
    void kernels();
    void everyIndexThroughEveryLane();
    void lutApplyUsesTheTable();

private:
    bool m_vbmiBefore = false;
};

void TestLutKernels::kernels_data()
{
    QTest::addColumn<int>("length");
    QTest::addColumn<bool>("inPlace");
    for (int length : {0, 1, 63, 64, 65, 1000, 262144 + 7}) {
        QTest::addRow("%d-copy", length) << length << false;
        QTest::addRow("%d-in-place", length) << length << true;
    }
}

void TestLutKernels::kernels()
{
    QFETCH(int, length);
    QFETCH(bool, inPlace);
    const quint32 seed = quint32(length) * 2 + (inPlace ? 1 : 0);
    QRandomGenerator rng(~seed);
    const std::vector<uint8_t> table = randomBytes(rng, 256);
    checkKernel(lut_kernels::applyScalar, table, size_t(length), inPlace, seed);
    if (QTest::currentTestFailed()) return;
    if (lut_kernels::vbmiAvailable()) checkKernel(lut_kernels::applyVbmi, table, size_t(length), inPlace, seed);
}

// Each of the 256 indices in each of the 64 lanes of a step, against a table
// whose entries differ from their neighbours and from their index halves'
// counterparts, so a wrong half or a wrong bit in the index shows.
void TestLutKernels::everyIndexThroughEveryLane()
{
    if (!lut_kernels::vbmiAvailable()) QSKIP("this CPU has no AVX-512 VBMI; the portable loop is tested above");
    std::vector<uint8_t> table(256);
    for (int i = 0; i < 256; ++i) table[size_t(i)] = uint8_t(255 - ((i * 37) & 255));
    std::vector<uint8_t> input(256 * 64);
    for (size_t k = 0; k < input.size(); ++k) input[k] = uint8_t((k / 64 + k % 64) & 255);
    std::vector<uint8_t> out(input.size());
    lut_kernels::applyVbmi(table.data(), input.data(), out.data(), input.size());
    for (size_t k = 0; k < input.size(); ++k)
        if (out[k] != table[input[k]]) QFAIL(qPrintable(QStringLiteral("lane %1, index %2").arg(k % 64).arg(input[k])));
}

// Lut::apply reaches the table through whichever kernel is in use.
void TestLutKernels::lutApplyUsesTheTable()
{
    const Lut lut = Lut::fromPoints("100:30,160:128,210:200");
    std::vector<uint8_t> in(1000);
    for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7);
    for (bool simd : {true, false}) {
        lut_kernels::setVbmiEnabled(simd);
        QCOMPARE(Lut::hasSimdApply(), simd && lut_kernels::vbmiAvailable());
        std::vector<uint8_t> out(in.size());
        lut.apply(in.data(), out.data(), in.size());
        for (size_t i = 0; i < in.size(); ++i) QCOMPARE(int(out[i]), int(lut[in[i]]));
        std::vector<uint8_t> inPlace = in;
        lut.apply(inPlace.data(), inPlace.data(), inPlace.size());
        QVERIFY(inPlace == out);
    }
}

QTEST_GUILESS_MAIN(TestLutKernels)
#include "test_lut_kernels.moc"
