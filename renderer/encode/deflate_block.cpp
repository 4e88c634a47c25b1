#include "encode/deflate_block.h"

#include "encode/huffman_code.h"

#include <libdeflate.h>

#include <algorithm>

namespace maptune::deflate {

namespace {
constexpr uint8_t CodeLengthExtraBits[19] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};
constexpr uint8_t CodeLengthOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
}  // namespace

const std::array<ExtraCode, MaxMatch + 1>& lengthCodes()
{
    static const auto table = [] {
        static constexpr uint16_t base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                              31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
        static constexpr uint8_t extraBits[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                  2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
        std::array<ExtraCode, MaxMatch + 1> t{};
        for (int c = 0; c < 29; ++c) {
            const int end = c == 28 ? int(MaxMatch) + 1 : base[c + 1];
            for (int length = base[c]; length < end; ++length)
                t[size_t(length)] = {uint16_t(257 + c), extraBits[c], uint16_t(length - base[c])};
        }
        return t;
    }();
    return table;
}

// 16 repeats the last length 3-6 times, 17 and 18 give 3-10 and 11-138 zeros.
BlockHeader::BlockHeader(std::span<const uint8_t> literalLengths, std::span<const uint8_t> distanceLengths)
{
    m_literalCount = int(literalLengths.size());
    while (m_literalCount > 257 && literalLengths[size_t(m_literalCount) - 1] == 0) --m_literalCount;
    m_distanceCount = int(distanceLengths.size());
    while (m_distanceCount > 1 && distanceLengths[size_t(m_distanceCount) - 1] == 0) --m_distanceCount;
    std::vector<uint8_t> all(literalLengths.begin(), literalLengths.begin() + m_literalCount);
    all.insert(all.end(), distanceLengths.begin(), distanceLengths.begin() + m_distanceCount);
    for (size_t i = 0; i < all.size();) {
        const uint8_t l = all[i];
        size_t same = 1;
        while (i + same < all.size() && all[i + same] == l) ++same;
        i += same;
        if (l == 0) {
            for (; same >= 11; same -= std::min<size_t>(same, 138))
                m_runs.push_back({18, uint8_t(std::min<size_t>(same, 138) - 11)});
            if (same >= 3) m_runs.push_back({17, uint8_t(same - 3)}), same = 0;
        } else {
            m_runs.push_back({l, 0});
            for (--same; same >= 3; same -= std::min<size_t>(same, 6))
                m_runs.push_back({16, uint8_t(std::min<size_t>(same, 6) - 3)});
        }
        for (; same > 0; --same) m_runs.push_back({l, 0});
    }
    std::array<uint32_t, 19> freq{};
    for (const Run& r : m_runs) ++freq[r.symbol];
    huffmanLengths(freq, 7, m_lengths);
    huffmanCodes(m_lengths, m_codes);
    m_orderCount = 19;
    while (m_orderCount > 4 && m_lengths[CodeLengthOrder[m_orderCount - 1]] == 0) --m_orderCount;
}

size_t BlockHeader::bits() const
{
    size_t bits = 3 + 5 + 5 + 4 + 3 * size_t(m_orderCount);
    for (const Run& r : m_runs) bits += m_lengths[r.symbol] + CodeLengthExtraBits[r.symbol];
    return bits;
}

void BlockHeader::write(BitWriter& w, bool final) const
{
    w.put(final ? 1 : 0, 1);  // BFINAL
    w.put(2, 2);              // BTYPE: dynamic Huffman
    w.put(uint32_t(m_literalCount - 257), 5);
    w.put(uint32_t(m_distanceCount - 1), 5);
    w.put(uint32_t(m_orderCount - 4), 4);
    w.flush();
    for (int i = 0; i < m_orderCount; ++i) w.put(m_lengths[CodeLengthOrder[i]], 3), w.flush();
    for (const Run& r : m_runs) {
        w.put(m_codes[r.symbol], m_lengths[r.symbol]);
        w.put(r.extra, CodeLengthExtraBits[r.symbol]);
        w.flush();
    }
}

// BFINAL 0 and BTYPE 00 (3 bits), zero bits to the byte boundary, then LEN 0 and NLEN ~0.
size_t alignedBytes(uint64_t blockBits) { return size_t((blockBits + 3 + 7) / 8) + 4; }

void writeAlignment(BitWriter& w)
{
    w.put(0, 3);
    uint8_t* end = w.finish();
    const uint8_t lengths[4] = {0x00, 0x00, 0xff, 0xff};
    std::memcpy(end, lengths, 4);
    w = BitWriter(end + 4);
}

void writeZlibHeader(uint8_t* out)
{
    // CMF: deflate, 32K window; FLG: fastest level, header divisible by 31.
    out[0] = 0x78;
    out[1] = 0x01;
}

uint8_t* writeZlibTrailer(uint8_t* end, std::span<const uint8_t> data)
{
    const uint32_t adler = libdeflate_adler32(1, data.data(), data.size());
    for (int i = 0; i < 4; ++i) end[i] = uint8_t(adler >> (24 - 8 * i));
    return end + 4;
}

}  // namespace maptune::deflate
