#pragma once
// A zlib stream (RFC 1950/1951) of one dynamic-Huffman deflate block with no
// LZ77 search: every byte is a literal, except runs repeating the byte before
// them, sent as matches at distance 1. On filtered photographic rows, where
// LZ77 finds next to nothing, this compresses like zlib's levels 1-6 at
// several times their speed (fpnge's observation); drawn maps, which gain
// from long-distance repeats, stay with libdeflate (png_writer.cpp).

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace maptune {

class HuffmanDeflate {
public:
    // Scans the data once and builds its codes; `data` must outlive this.
    explicit HuffmanDeflate(std::span<const uint8_t> data);

    // The exact size of the zlib stream.
    size_t zlibSize() const { return m_size; }

    // Writes the stream to `out`, which must hold zlibSize() + 8 bytes (the
    // bit packer stores eight bytes at a time).
    void writeZlib(uint8_t* out) const;

private:
    static constexpr int LiteralCodes = 286;  // literals, end of block, run lengths
    std::span<const uint8_t> m_data;
    std::array<uint8_t, LiteralCodes> m_lengths{};
    std::array<uint16_t, LiteralCodes> m_codes{};
    size_t m_size = 0;
};

}  // namespace maptune
