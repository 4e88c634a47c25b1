#pragma once
// Length-limited canonical Huffman codes, as deflate (RFC 1951, 3.2.2) needs
// them for its dynamic blocks.

#include <cstdint>
#include <span>

namespace maptune {

// Code lengths for symbols with the given frequencies: 0 for an unused symbol,
// otherwise at most maxBits, optimal when no length is limited and within a
// few bits per symbol of it otherwise (lengths are lowered as JPEG's Annex
// K.3 does). With fewer than two used symbols, the first unused ones get
// length 1 too: inflaters refuse incomplete codes.
// freq.size() == lengths.size(), at most 2^maxBits symbols used.
void huffmanLengths(std::span<const uint32_t> freq, int maxBits, std::span<uint8_t> lengths);

// Canonical codes for those lengths, bit-reversed for deflate's
// least-significant-bit-first packing.
void huffmanCodes(std::span<const uint8_t> lengths, std::span<uint16_t> codes);

}  // namespace maptune
