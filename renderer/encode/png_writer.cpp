#include "encode/png_writer.h"

#include "encode/huffman_deflate.h"
#include "encode/isal_deflate.h"
#include "encode/png_row_filter.h"

#include <libdeflate.h>

#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace maptune {
namespace {

// Photos (see writePng) take the adaptive filters and Huffman-only coding
// (huffman_deflate.h). On bench/encode's 512x512 photo-like canvas, against
// MapServer's libpng zlib-6 unfiltered output (18.3 ms, 683 KB): Sub filter +
// libdeflate level 1 took 6.6 ms for 0.73x the bytes, level 6 8.1 ms 0.74x;
// adaptive filters + Huffman-only take 1.7 ms for 0.65x.
// Drawn maps unfiltered (see writePng), measured on the bench roads WMS series
// (200 random 512x512 GetMaps, server CPU per request, mean bytes; MapServer
// 236 KB) through libdeflate: level 1: 29.3 ms 248 KB; 3: 30.2 ms 229 KB;
// 6: 32.8 ms 222 KB. ISA-L on one bench roads canvas (MapServer's PNG of the
// same map: 239 KB): libdeflate 1 4.0 ms 257 KB; ISA-L 0 1.35 ms 349 KB,
// 1 1.45 ms 276 KB, 2 1.52 ms 268 KB, 3 2.71 ms 268 KB. Level 2 stays within
// 15 % of MapServer's bytes at well under half libdeflate's time.
constexpr int kDrawnIsalLevel = 2;
struct Share {
    size_t num, den;
};
constexpr Share kDrawnZeroShare{1, 3};

struct CompressorCache {
    std::array<libdeflate_compressor*, 13> byLevel{};
    ~CompressorCache() {
        for (auto* c : byLevel) libdeflate_free_compressor(c);
    }
    libdeflate_compressor* get(int level) {
        auto*& c = byLevel[level];
        if (!c) c = libdeflate_alloc_compressor(level);
        return c;
    }
};

// Buffers reused by every encode on a thread (a WMS worker encodes tile after tile).
struct Scratch {
    std::vector<uint8_t> raw;       // the whole image, unfiltered
    std::vector<uint8_t> flat;      // per row: mostly runs of equal pixels
    std::vector<uint8_t> zeroRow;   // the row above the first
    std::vector<uint8_t> filtered;  // what is compressed: a filter byte and a filtered row each
    CompressorCache compressors;
};

Scratch& scratch() {
    thread_local Scratch s;
    return s;
}

void putU32(uint8_t* p, uint32_t v) {
    p[0] = static_cast<uint8_t>(v >> 24);
    p[1] = static_cast<uint8_t>(v >> 16);
    p[2] = static_cast<uint8_t>(v >> 8);
    p[3] = static_cast<uint8_t>(v);
}

// Appends a whole chunk (length, type, data, CRC of type + data).
void appendChunk(QByteArray& out, const char type[4], const uint8_t* data, uint32_t size) {
    uint8_t head[8];
    putU32(head, size);
    std::memcpy(head + 4, type, 4);
    out.append(reinterpret_cast<const char*>(head), 8);
    if (size) out.append(reinterpret_cast<const char*>(data), size);
    uint32_t crc = libdeflate_crc32(0, type, 4);
    if (size) crc = libdeflate_crc32(crc, data, size);  // a NULL buffer would reset the CRC
    uint8_t tail[4];
    putU32(tail, crc);
    out.append(reinterpret_cast<const char*>(tail), 4);
}

int bitsPerPixel(const PngHeader& h) {
    switch (h.colorType) {
    case PngHeader::ColorType::Rgb: return 24;
    case PngHeader::ColorType::Rgba: return 32;
    case PngHeader::ColorType::Indexed: return h.bitDepth;
    }
    return 24;
}


void appendHeaderChunks(QByteArray& out, const PngHeader& h) {
    static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    out.append(reinterpret_cast<const char*>(signature), 8);
    uint8_t ihdr[13];
    putU32(ihdr, static_cast<uint32_t>(h.width));
    putU32(ihdr + 4, static_cast<uint32_t>(h.height));
    ihdr[8] = static_cast<uint8_t>(h.bitDepth);
    ihdr[9] = static_cast<uint8_t>(h.colorType);
    ihdr[10] = ihdr[11] = ihdr[12] = 0;  // deflate, adaptive filtering, no interlace
    appendChunk(out, "IHDR", ihdr, sizeof ihdr);
    if (h.colorType != PngHeader::ColorType::Indexed) return;

    std::vector<uint8_t> plte;
    plte.reserve(h.palette.size() * 3);
    int alphaCount = 0;  // tRNS covers entries up to the last non-opaque one
    for (int i = 0; i < h.palette.size(); ++i) {
        const QRgb c = h.palette[i];
        plte.push_back(static_cast<uint8_t>(qRed(c)));
        plte.push_back(static_cast<uint8_t>(qGreen(c)));
        plte.push_back(static_cast<uint8_t>(qBlue(c)));
        if (qAlpha(c) != 255) alphaCount = i + 1;
    }
    appendChunk(out, "PLTE", plte.data(), static_cast<uint32_t>(plte.size()));
    if (alphaCount) {
        std::vector<uint8_t> trns(alphaCount);
        for (int i = 0; i < alphaCount; ++i) trns[i] = static_cast<uint8_t>(qAlpha(h.palette[i]));
        appendChunk(out, "tRNS", trns.data(), static_cast<uint32_t>(trns.size()));
    }
}

QString checkHeader(const PngHeader& h) {
    if (h.width <= 0 || h.height <= 0) return QStringLiteral("PNG: empty image");
    if (h.colorType == PngHeader::ColorType::Indexed) {
        if (h.palette.isEmpty() || h.palette.size() > 256)
            return QStringLiteral("PNG: a palette needs 1 to 256 entries");
        if (h.bitDepth != 1 && h.bitDepth != 2 && h.bitDepth != 4 && h.bitDepth != 8)
            return QStringLiteral("PNG: invalid palette bit depth %1").arg(h.bitDepth);
        if (h.palette.size() > (1 << h.bitDepth))
            return QStringLiteral("PNG: %1 palette entries do not fit in %2 bits").arg(h.palette.size()).arg(h.bitDepth);
    } else if (h.bitDepth != 8) {
        return QStringLiteral("PNG: only 8-bit RGB/RGBA is supported");
    }
    return {};
}

// Appends the header chunks, one IDAT chunk holding the zlib stream that
// `compress(data)` writes (at most `bound` bytes, returning its size, 0 on
// failure: `out` is then left empty) and IEND.
template <class Compress>
void appendIdat(QByteArray& out, const PngHeader& header, size_t bound, Compress compress) {
    out.reserve(static_cast<qsizetype>(bound + 1024 + header.palette.size() * 4));
    appendHeaderChunks(out, header);
    const qsizetype idatStart = out.size();
    out.resize(idatStart + 8 + static_cast<qsizetype>(bound) + 8);  // + the bit packer's slack
    uint8_t* idat = reinterpret_cast<uint8_t*>(out.data()) + idatStart;
    const size_t compressed = compress(idat + 8);
    if (compressed == 0) {
        out.clear();
        return;
    }
    putU32(idat, static_cast<uint32_t>(compressed));
    std::memcpy(idat + 4, "IDAT", 4);
    uint8_t crc[4];
    putU32(crc, libdeflate_crc32(0, idat + 4, compressed + 4));
    out.resize(idatStart + 8 + static_cast<qsizetype>(compressed));
    out.append(reinterpret_cast<const char*>(crc), 4);
    appendChunk(out, "IEND", nullptr, 0);
}

// The same with our own coders, which know their exact size before writing.
template <class Coder>
void appendSizedIdat(QByteArray& out, const PngHeader& header, const Coder& coder) {
    appendIdat(out, header, coder.zlibSize(), [&](uint8_t* zlib) {
        coder.writeZlib(zlib);
        return coder.zlibSize();
    });
}

}  // namespace

Result<QByteArray> writePng(const PngHeader& header, const PngRowSource& rows, const PngWriteOptions& options) {
    if (QString e = checkHeader(header); !e.isEmpty()) return Error(e);
    const size_t stride = (static_cast<size_t>(header.width) * bitsPerPixel(header) + 7) / 8;
    const size_t bpp = std::max(1, bitsPerPixel(header) / 8);
    const size_t height = static_cast<size_t>(header.height);
    const size_t filteredSize = (stride + 1) * height;
    if (filteredSize > std::numeric_limits<uint32_t>::max() / 2)
        return Error(QStringLiteral("PNG: image too large (%1x%2)").arg(header.width).arg(header.height));

    Scratch& s = scratch();
    s.flat.resize(height);
    s.filtered.resize(filteredSize);
    // Rows go straight to where an unfiltered row is compressed from: a
    // drawn map is then never copied. Filtered images copy them out first.
    auto unfiltered = [&](size_t y) { return s.filtered.data() + y * (stride + 1); };
    size_t zerosTotal = 0;
    for (size_t y = 0; y < height; ++y) {
        uint8_t* line = unfiltered(y);
        line[0] = uint8_t(PngFilter::None);
        rows(int(y), line + 1);
        const size_t zeros = countSubZeros(line + 1, stride, bpp);
        zerosTotal += zeros;
        s.flat[y] = zeros * 2 >= stride;
    }
    // Palette images are left unfiltered (the PNG spec's advice; MapServer does the same).
    const bool mayFilter = header.colorType != PngHeader::ColorType::Indexed;
    // A drawn map (flat areas, anti-aliased edges in a few colours) deflates
    // better unfiltered even in its busy rows: the same edge pixels repeat,
    // which LZ77 finds in the raw bytes but not in the differences. Photos
    // are the opposite. A third of the bytes equal to their left neighbour
    // tells them apart (drawn road maps ~0.55, orthophotos ~0.12).
    const bool drawn = !mayFilter || zerosTotal * kDrawnZeroShare.den >= kDrawnZeroShare.num * stride * height;

    if (!drawn) {
        s.raw.resize(stride * height);
        for (size_t y = 0; y < height; ++y) std::memcpy(s.raw.data() + y * stride, unfiltered(y) + 1, stride);
    }
    auto raw = [&](size_t y) { return s.raw.data() + y * stride; };

    QByteArray out;
    if (!drawn && options.compressionLevel < 0) {
        // Photos: each row's best filter, then Huffman coding alone (see huffman_deflate.h).
        s.zeroRow.assign(stride, 0);
        for (size_t y = 0; y < height; ++y)
            filterRowAdaptive(raw(y), y ? raw(y - 1) : s.zeroRow.data(), stride, bpp, s.filtered.data() + y * (stride + 1));
        appendSizedIdat(out, header, HuffmanDeflate({s.filtered.data(), filteredSize}));
    } else {
        // Runs of equal pixels deflate better unfiltered: those rows are in place.
        for (size_t y = 0; !drawn && y < height; ++y) {
            if (s.flat[y]) continue;
            uint8_t* line = unfiltered(y);
            line[0] = uint8_t(PngFilter::Sub);
            filterRow(PngFilter::Sub, raw(y), raw(y), stride, bpp, line + 1);
        }
        if (options.compressionLevel < 0) {
            const size_t bound = IsalDeflate::zlibBound(filteredSize);
            appendIdat(out, header, bound, [&](uint8_t* zlib) {
                return IsalDeflate::zlibCompress({s.filtered.data(), filteredSize}, kDrawnIsalLevel, zlib, bound);
            });
        } else {
            libdeflate_compressor* compressor = s.compressors.get(std::min(options.compressionLevel, 12));
            if (!compressor) return Error(QStringLiteral("PNG: out of memory"));
            const size_t bound = libdeflate_zlib_compress_bound(compressor, filteredSize);
            appendIdat(out, header, bound, [&](uint8_t* zlib) {
                return libdeflate_zlib_compress(compressor, s.filtered.data(), filteredSize, zlib, bound);
            });
        }
        if (out.isEmpty()) return Error(QStringLiteral("PNG: compression failed"));
    }
    if (out.capacity() > 2 * out.size()) out.squeeze();
    return out;
}

}  // namespace maptune
