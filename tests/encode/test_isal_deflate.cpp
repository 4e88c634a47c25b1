// ISA-L's zlib streams (isal_deflate.h), which carry every drawn map's
// pixels: each level on noise, runs, repeats and nothing at all decodes
// back exactly, and a buffer too small is refused rather than overrun.
#include "deflate_test_support.h"
#include "encode/isal_deflate.h"

using namespace maptune;
using namespace maptune::ziptest;

namespace {

Bytes zlibOf(const Bytes& data, int level)
{
    Bytes out(IsalDeflate::zlibBound(data.size()));
    const size_t n = IsalDeflate::zlibCompress(data, level, out.data(), out.size());
    out.resize(n);
    return out;
}

// A drawn map's rows: flat runs, a few colours, each row like the one above shifted.
Bytes drawnRows(size_t rows, size_t rowBytes)
{
    Bytes b;
    const Bytes noise = randomBytes(rowBytes, 9, 6);
    for (size_t y = 0; y < rows; ++y)
        for (size_t x = 0; x < rowBytes; ++x) b.push_back(x % 97 < 60 ? 242 : noise[(x + y) % rowBytes]);
    return b;
}

}  // namespace

class TestIsalDeflate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyLevelRoundTrips()
    {
        const QList<Bytes> inputs{Bytes{}, Bytes{7}, randomBytes(100000, 1), randomBytes(70000, 2, 3),
                                  Bytes(300000, 0), drawnRows(200, 1537)};
        for (int level = 0; level <= IsalDeflate::MaxLevel; ++level)
            for (const Bytes& data : inputs) {
                const Bytes zlib = zlibOf(data, level);
                QVERIFY2(!zlib.empty(), qPrintable(QStringLiteral("level %1, %2 bytes").arg(level).arg(data.size())));
                verifyRoundTrip(zlib, data);
            }
    }

    void drawnRowsCompress()
    {
        const Bytes data = drawnRows(200, 1537);
        QVERIFY(zlibOf(data, 2).size() * 4 < data.size());
    }

    void refusesWhatDoesNotFit()
    {
        const Bytes data = randomBytes(50000, 3);
        Bytes out(1000);
        QCOMPARE(IsalDeflate::zlibCompress(data, 2, out.data(), out.size()), size_t(0));
        Bytes enough(IsalDeflate::zlibBound(data.size()));
        QCOMPARE(IsalDeflate::zlibCompress(data, 4, enough.data(), enough.size()), size_t(0));  // no level 4
        QCOMPARE(IsalDeflate::zlibCompress(data, -1, enough.data(), enough.size()), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestIsalDeflate)
#include "test_isal_deflate.moc"
