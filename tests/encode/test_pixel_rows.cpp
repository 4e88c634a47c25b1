// Canvas rows to the byte order of PNG and JPEG rows.
#include "encode/pixel_rows.h"

#include <QTest>

#include <vector>

using namespace maptune;

class TestPixelRows : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void rgbRowsKeepEveryPixelsBytes()
    {
        // Short rows of every width, a vectorised loop's body and remainder,
        // and a guard byte that must stay untouched.
        for (int width = 0; width <= 11; ++width) {
            std::vector<uint32_t> row(static_cast<size_t>(width));
            for (int x = 0; x < width; ++x) row[size_t(x)] = 0xff000000u | uint32_t(x * 3 + 1) << 16 | uint32_t(x * 3 + 2) << 8 | uint32_t(250 - x);
            std::vector<uint8_t> out(size_t(width) * 3 + 1, 0xee);  // one guard byte
            rowToRgb(row.data(), width, out.data());
            for (int x = 0; x < width; ++x) {
                QCOMPARE(int(out[size_t(x) * 3]), x * 3 + 1);
                QCOMPARE(int(out[size_t(x) * 3 + 1]), x * 3 + 2);
                QCOMPARE(int(out[size_t(x) * 3 + 2]), 250 - x);
            }
            QCOMPARE(int(out.back()), 0xee);
        }
    }
};

QTEST_GUILESS_MAIN(TestPixelRows)
#include "test_pixel_rows.moc"
