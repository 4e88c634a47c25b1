#pragma once
// The parts of a dynamic-Huffman deflate block (RFC 1951) that our two
// encoders share: the bit packer, the length and distance codes with their
// extra bits, the block header that sends the code lengths, and zlib's
// wrapping (RFC 1950).

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

namespace maptune::deflate {

static_assert(std::endian::native == std::endian::little, "the bit packer stores little-endian words");

constexpr int EndOfBlock = 256;
constexpr int LiteralCodes = 286;  // literals, end of block, lengths
constexpr int DistanceCodes = 30;
constexpr unsigned MaxMatch = 258;
constexpr unsigned Window = 32768;

struct ExtraCode {
    uint16_t symbol = 0;
    uint8_t extraBits = 0;
    uint16_t extra = 0;
};

// RFC 1951 3.2.5: the length symbol and extra bits of each match length (3..258).
const std::array<ExtraCode, MaxMatch + 1>& lengthCodes();

// The distance symbol and extra bits of a distance (1..32768).
inline ExtraCode distanceCode(unsigned distance)
{
    const unsigned x = distance - 1;
    if (x < 4) return {uint16_t(x), 0, 0};
    const int high = std::bit_width(x) - 1;  // x has high + 1 bits, high >= 2
    return {uint16_t(2 * high + ((x >> (high - 1)) & 1)), uint8_t(high - 1), uint16_t(x & ((1u << (high - 1)) - 1))};
}

// Packs codes least significant bit first, a 64-bit word at a time: it
// stores eight bytes at each flush, so its buffer needs eight spare bytes.
class BitWriter {
public:
    explicit BitWriter(uint8_t* out) : m_out(out) {}
    // At most 56 bits between flushes.
    void put(uint32_t bits, unsigned count)
    {
        m_buffer |= uint64_t(bits) << m_count;
        m_count += count;
    }
    void flush()
    {
        std::memcpy(m_out, &m_buffer, 8);
        const unsigned bytes = m_count >> 3;
        m_out += bytes;
        m_buffer = bytes ? m_buffer >> (bytes * 8) : m_buffer;
        m_count &= 7;
    }
    // Flushes and pads the last byte with zero bits; returns the end.
    uint8_t* finish()
    {
        flush();
        if (m_count) *m_out++ = uint8_t(m_buffer), m_buffer = 0, m_count = 0;
        return m_out;
    }

private:
    uint8_t* m_out;
    uint64_t m_buffer = 0;
    unsigned m_count = 0;
};

// Everything of a dynamic block from BFINAL to the last code length: the
// literal/length and distance code lengths, run-length coded with the
// code-length alphabet (RFC 1951 3.2.7).
class BlockHeader {
public:
    BlockHeader(std::span<const uint8_t> literalLengths, std::span<const uint8_t> distanceLengths);
    size_t bits() const;
    void write(BitWriter& w, bool final) const;

private:
    struct Run {
        uint8_t symbol;
        uint8_t extra;
    };
    int m_literalCount = 0;
    int m_distanceCount = 0;
    int m_orderCount = 0;
    std::vector<Run> m_runs;
    std::array<uint8_t, 19> m_lengths{};
    std::array<uint16_t, 19> m_codes{};
};

// An empty stored block (not final): after it the next block starts on a
// byte boundary. Its bits after `blockBits` bits of data, and the writing.
size_t alignedBytes(uint64_t blockBits);
void writeAlignment(BitWriter& w);

// zlib's two header bytes (deflate, 32K window, fastest level) and, after the
// deflate data ending at `end`, the Adler-32 of `data`; returns the end.
void writeZlibHeader(uint8_t* out);
uint8_t* writeZlibTrailer(uint8_t* end, std::span<const uint8_t> data);

}  // namespace maptune::deflate
