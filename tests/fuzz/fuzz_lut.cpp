// Raster LUTs as PROCESSING "LUT=..." gives them: point lists (8 and 16 bit)
// and GIMP curves files, then applied to every input value.

#include "fuzz_targets.h"

#include "raster/lut.h"

#include <vector>

namespace maptune::fuzz {

int lut(const uint8_t* data, size_t size)
{
    const QByteArray text = QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size));
    const bool gimp = Lut::isGimpCurves(text);
    const bool wide = Lut::wants16Bit(text);
    check(!(gimp && wide), "GIMP curves are 8-bit only");

    for (const int maxIn : {255, 65535}) {
        const Lut points = Lut::fromPoints(text, maxIn);
        check(points.size() == maxIn + 1, "a point list table has maxIn + 1 entries");
    }
    std::vector<uint8_t> bytes(256);
    for (int i = 0; i < 256; ++i) bytes[size_t(i)] = uint8_t(i);
    // Only GIMP curves depend on the colour index (0 and 5 are out of range).
    for (int colorIndex = gimp ? 0 : 1; colorIndex <= (gimp ? 5 : 1); ++colorIndex) {
        const Result<Lut> lut = Lut::fromDefinition(text, colorIndex, wide ? 65535 : 255);
        if (!lut) {
            check(!lut.message().isEmpty(), "a refused LUT says why");
            continue;
        }
        if (lut->size() == 256) {
            std::vector<uint8_t> out(bytes.size());
            lut->apply(bytes.data(), out.data(), bytes.size());
            lut->apply(out.data(), out.data(), out.size());  // in place, as the renderer does
        } else {
            check(lut->size() == 65536, "a 16-bit table has 65536 entries");
            const uint16_t samples[] = {0, 1, 255, 256, 4095, 32768, 65534, 65535};
            uint8_t out[sizeof samples / sizeof samples[0]];
            lut->apply(samples, out, sizeof samples / sizeof samples[0]);
        }
    }
    return 0;
}

}  // namespace maptune::fuzz
