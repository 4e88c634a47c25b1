#include "encode/isal_deflate.h"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <array>
#include <limits>
#include <vector>

namespace maptune {

namespace {

size_t levelBufferSize(int level)
{
    switch (level) {
    case 0: return ISAL_DEF_LVL0_DEFAULT;
    case 1: return ISAL_DEF_LVL1_DEFAULT;
    case 2: return ISAL_DEF_LVL2_DEFAULT;
    case 3: return ISAL_DEF_LVL3_DEFAULT;
    }
    return 0;
}

// igzip's hash tables for each level, reused by every image on a thread.
std::vector<uint8_t>& levelBuffer(int level)
{
    thread_local std::array<std::vector<uint8_t>, IsalDeflate::MaxLevel + 1> buffers;
    auto& b = buffers[size_t(level)];
    if (b.empty()) b.resize(levelBufferSize(level));
    return b;
}

}  // namespace

size_t IsalDeflate::zlibBound(size_t size)
{
    // Stored blocks (5 bytes per 64 KiB) when nothing compresses, igzip's
    // largest header, zlib's header and trailer, with room to spare.
    return size + size / 16 + ISAL_DEF_MAX_HDR_SIZE + 1024;
}

size_t IsalDeflate::zlibCompress(std::span<const uint8_t> data, int level, uint8_t* out, size_t capacity)
{
    constexpr size_t Max = std::numeric_limits<uint32_t>::max();
    if (level < 0 || level > MaxLevel || data.size() > Max || capacity == 0) return 0;
    std::vector<uint8_t>& buffer = levelBuffer(level);
    isal_zstream s;
    isal_deflate_stateless_init(&s);
    s.level = uint32_t(level);
    s.level_buf = buffer.data();
    s.level_buf_size = uint32_t(buffer.size());
    s.gzip_flag = IGZIP_ZLIB;
    s.end_of_stream = 1;
    s.flush = NO_FLUSH;
    // igzip reads its input through a non-const pointer but never writes it.
    s.next_in = const_cast<uint8_t*>(data.data());
    s.avail_in = uint32_t(data.size());
    s.next_out = out;
    s.avail_out = uint32_t(std::min(capacity, Max));
    if (isal_deflate_stateless(&s) != COMP_OK) return 0;
    return s.total_out;
}

}  // namespace maptune
