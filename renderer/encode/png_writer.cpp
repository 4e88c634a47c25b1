#include "encode/png_writer.h"

#include <libdeflate.h>

#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace maptune {
namespace {

// Per-image level choice when the format does not set COMPRESSION. Measured on
// 512x512 RGB canvases (bench/encode, CPU ms on this project's 2-core box), against
// MapServer's libpng zlib-6 unfiltered output:
//   photo-like:  libdeflate 1: 9.0 ms, 0.73x   (4: 11.5 ms 0.75x; 6: 13.4 ms 0.74x)
//   antialiased map: 4: 4.9 ms 1.03x;  6: 6.1 ms 0.98x
//   flat-colour map: 1: 2.4 ms 1.53x;  4: 3.9 ms 1.20x;  6: 5.8 ms 1.07x
// Noisy content gains nothing above level 1; flat content needs 6 to stay safely
// within 25% of MapServer's bytes (MapServer itself: 27 / 13 / 10 ms).
constexpr int kNoisyLevel = 1;
constexpr int kFlatLevel = 6;
// Drawn maps unfiltered (see writePng), measured on the bench roads WMS series
// (200 random 512x512 GetMaps, server CPU per request, mean bytes; MapServer
// 236 KB): level 1: 29.3 ms 248 KB; 3: 30.2 ms 229 KB; 6: 32.8 ms 222 KB.
// Level 1 stays within 5% of MapServer's bytes for the least CPU.
constexpr int kDrawnLevel = 1;
struct Share {
    size_t num, den;
};
constexpr Share kDrawnZeroShare{1, 3};

enum Filter : uint8_t { FilterNone = 0, FilterSub = 1 };

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
    std::vector<uint8_t> filtered;
    std::vector<uint8_t> raw;
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

// Sub-filters raw into out (stride bytes) and returns how many output bytes are 0,
// i.e. equal to the byte one pixel to the left: high on flat map rows, low on photos.
size_t subFilter(const uint8_t* raw, size_t stride, size_t bpp, uint8_t* out) {
    size_t zeros = 0;
    for (size_t i = 0; i < bpp && i < stride; ++i) {
        out[i] = raw[i];
        zeros += raw[i] == 0;
    }
    for (size_t i = bpp; i < stride; ++i) {
        const uint8_t d = static_cast<uint8_t>(raw[i] - raw[i - bpp]);
        out[i] = d;
        zeros += d == 0;
    }
    return zeros;
}

// Undoes subFilter in place.
void unSubFilter(uint8_t* row, size_t stride, size_t bpp) {
    for (size_t i = bpp; i < stride; ++i) row[i] = static_cast<uint8_t>(row[i] + row[i - bpp]);
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

}  // namespace

Result<QByteArray> writePng(const PngHeader& header, const PngRowSource& rows, const PngWriteOptions& options) {
    if (QString e = checkHeader(header); !e.isEmpty()) return Error(e);
    const size_t stride = (static_cast<size_t>(header.width) * bitsPerPixel(header) + 7) / 8;
    const size_t bpp = std::max(1, bitsPerPixel(header) / 8);
    const size_t filteredSize = (stride + 1) * static_cast<size_t>(header.height);
    if (filteredSize > std::numeric_limits<uint32_t>::max() / 2)
        return Error(QStringLiteral("PNG: image too large (%1x%2)").arg(header.width).arg(header.height));

    Scratch& s = scratch();
    s.filtered.resize(filteredSize);
    s.raw.resize(stride);
    // Palette images are left unfiltered (the PNG spec's advice; MapServer does the same).
    const bool mayFilter = header.colorType != PngHeader::ColorType::Indexed;
    int flatRows = 0;
    size_t zerosTotal = 0;
    for (int y = 0; y < header.height; ++y) {
        uint8_t* line = s.filtered.data() + y * (stride + 1);
        rows(y, s.raw.data());
        const size_t zeros = subFilter(s.raw.data(), stride, bpp, line + 1);
        zerosTotal += zeros;
        const bool flat = zeros * 2 >= stride;
        flatRows += flat;
        if (flat || !mayFilter) {
            line[0] = FilterNone;  // runs of equal pixels deflate better unfiltered
            std::memcpy(line + 1, s.raw.data(), stride);
        } else {
            line[0] = FilterSub;
        }
    }
    // A drawn map (flat areas, anti-aliased edges in a few colours) deflates
    // better unfiltered even in its busy rows: the same edge pixels repeat,
    // which LZ77 finds in the raw bytes but not in the differences. Photos
    // are the opposite. A third of the bytes equal to their left neighbour
    // tells them apart (drawn road maps ~0.55, orthophotos ~0.12).
    const bool drawn = zerosTotal * kDrawnZeroShare.den >= kDrawnZeroShare.num * stride * size_t(header.height);
    if (drawn && mayFilter) {
        for (int y = 0; y < header.height; ++y) {
            uint8_t* line = s.filtered.data() + y * (stride + 1);
            if (line[0] == FilterSub) unSubFilter(line + 1, stride, bpp), line[0] = FilterNone;
        }
    }

    int level = options.compressionLevel;
    if (level < 0 || level > 12) level = drawn ? kDrawnLevel : flatRows * 2 >= header.height ? kFlatLevel : kNoisyLevel;
    libdeflate_compressor* compressor = s.compressors.get(level);
    if (!compressor) return Error(QStringLiteral("PNG: out of memory"));

    QByteArray out;
    const size_t bound = libdeflate_zlib_compress_bound(compressor, filteredSize);
    out.reserve(static_cast<qsizetype>(bound + 1024 + header.palette.size() * 4));
    appendHeaderChunks(out, header);
    const qsizetype idatStart = out.size();
    out.resize(idatStart + 8 + static_cast<qsizetype>(bound));
    uint8_t* idat = reinterpret_cast<uint8_t*>(out.data()) + idatStart;
    const size_t compressed = libdeflate_zlib_compress(compressor, s.filtered.data(), filteredSize,
                                                       idat + 8, bound);
    if (compressed == 0) return Error(QStringLiteral("PNG: compression failed"));
    putU32(idat, static_cast<uint32_t>(compressed));
    std::memcpy(idat + 4, "IDAT", 4);
    uint8_t crc[4];
    putU32(crc, libdeflate_crc32(0, idat + 4, compressed + 4));
    out.resize(idatStart + 8 + static_cast<qsizetype>(compressed));
    out.append(reinterpret_cast<const char*>(crc), 4);
    appendChunk(out, "IEND", nullptr, 0);
    if (out.capacity() > 2 * out.size()) out.squeeze();
    return out;
}

}  // namespace maptune
