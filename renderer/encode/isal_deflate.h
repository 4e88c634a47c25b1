#pragma once
// A zlib stream (RFC 1950) by Intel's ISA-L (igzip), for drawn maps: its
// SIMD match finder deflates a 512x512 road map in about a third of
// libdeflate level 1's time, for 4 % more bytes at its level 2
// (docs/PERFORMANCE.md, twenty-second session).

#include <cstddef>
#include <cstdint>
#include <span>

namespace maptune {

class IsalDeflate {
public:
    static constexpr int MaxLevel = 3;

    // Room enough for any stream of `size` input bytes.
    static size_t zlibBound(size_t size);
    // Compresses `data` at `level` (0..3) into `out` (`capacity` bytes);
    // the stream's size, or 0 when it did not fit or the level is unknown.
    static size_t zlibCompress(std::span<const uint8_t> data, int level, uint8_t* out, size_t capacity);
};

}  // namespace maptune
