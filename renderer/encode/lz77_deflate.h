#pragma once
// A zlib stream (RFC 1950/1951) for drawn maps in independent slices, so
// that two threads can share one image: greedy LZ77 that tries, at every
// position, the pixel before, the pixel above and the last place its next
// four bytes were seen, and one dynamic-Huffman block per slice. A slice
// may copy from the slices before it (the decoder has them); it ends with
// an empty stored block, so the next one starts on a byte boundary and can
// be written before it is known where this one's bits stop.
//
// Used when a render has a core to itself (png_writer.cpp): libdeflate's
// one-shot stream cannot be split, and on a 512x512 road map this takes
// 3.3 ms on one thread (libdeflate level 1: 3.0 ms) for 3 % more bytes.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace maptune {

class Lz77Deflate {
public:
    // `pixelBytes` and `rowBytes`: how far back the pixel to the left and the
    // one above start (PNG: bytes per pixel, and a row with its filter byte).
    // Matches `data` in `slices` slices, half of them on a second thread
    // when `twoThreads`; `data` must outlive this.
    Lz77Deflate(std::span<const uint8_t> data, size_t pixelBytes, size_t rowBytes, int slices, bool twoThreads);
    ~Lz77Deflate();
    Lz77Deflate(const Lz77Deflate&) = delete;
    Lz77Deflate& operator=(const Lz77Deflate&) = delete;

    // The exact size of the zlib stream.
    size_t zlibSize() const { return m_size; }
    // Writes the stream to `out`, which must hold zlibSize() + 8 bytes.
    void writeZlib(uint8_t* out) const;

private:
    struct Slice;
    void match(Slice& slice) const;
    void write(const Slice& slice, uint8_t* out) const;
    static size_t sliceBytes(const Slice& slice);

    std::span<const uint8_t> m_data;
    size_t m_pixelBytes, m_rowBytes;
    bool m_twoThreads;
    std::vector<Slice> m_slices;
    std::vector<uint8_t> m_later;  // the helper's slices, written
    size_t m_laterOffset = 0;      // where they go in the stream (0: no helper)
    size_t m_size = 0;
};

}  // namespace maptune
