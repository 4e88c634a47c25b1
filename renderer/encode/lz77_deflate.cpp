#include "encode/lz77_deflate.h"

#include "encode/deflate_block.h"
#include "encode/huffman_code.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <thread>

namespace maptune {

namespace {

constexpr int HashBits = 15;
constexpr unsigned MinLength = 4;
// Matches up to this long leave every position they cover in the hash
// table (an anti-aliased edge recurs further along); longer ones are runs
// of a flat colour, whose insides would only fill the table with themselves.
constexpr unsigned ShortMatch = 16;
// A token is a literal byte, or MatchFlag | length << 16 | distance.
constexpr uint32_t MatchFlag = 0x80000000u;

inline uint32_t load32(const uint8_t* p)
{
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}

inline uint32_t hash(uint32_t fourBytes) { return (fourBytes * 2654435761u) >> (32 - HashBits); }

// How many bytes from a and b agree, at most `limit`.
inline unsigned extend(const uint8_t* a, const uint8_t* b, size_t limit)
{
    size_t k = 0;
    for (; k + 8 <= limit; k += 8) {
        uint64_t x, y;
        std::memcpy(&x, a + k, 8);
        std::memcpy(&y, b + k, 8);
        if (x != y) return unsigned(k + size_t(std::countr_zero(x ^ y) >> 3));
    }
    while (k < limit && a[k] == b[k]) ++k;
    return unsigned(k);
}

// Token buffers outlive each encode: a server encodes image after image.
std::vector<std::vector<uint32_t>>& tokenPool()
{
    thread_local std::vector<std::vector<uint32_t>> pool;
    return pool;
}

}  // namespace

struct Lz77Deflate::Slice {
    size_t begin = 0, end = 0;
    bool last = false;
    std::vector<uint32_t> tokens;
    std::array<uint32_t, deflate::LiteralCodes> literalFreq{};
    std::array<uint32_t, deflate::DistanceCodes> distanceFreq{};
    std::array<uint8_t, deflate::LiteralCodes> literalLengths{};
    std::array<uint16_t, deflate::LiteralCodes> literalCodes{};
    std::array<uint8_t, deflate::DistanceCodes> distanceLengths{};
    std::array<uint16_t, deflate::DistanceCodes> distanceCodes{};
    std::optional<deflate::BlockHeader> header;
    uint64_t bits = 0;   // the block's, end of block included
    size_t bytes = 0;    // the block's with its alignment (all but the last)
    size_t offset = 0;   // where it starts in the stream (the helper's: in its buffer, then in the stream)
};

Lz77Deflate::Lz77Deflate(std::span<const uint8_t> data, size_t pixelBytes, size_t rowBytes, int slices,
                         bool twoThreads)
    : m_data(data), m_pixelBytes(std::max<size_t>(pixelBytes, 1)), m_rowBytes(std::max<size_t>(rowBytes, 1)),
      m_twoThreads(twoThreads)
{
    const size_t n = data.size();
    const size_t count = std::clamp<size_t>(size_t(std::max(slices, 1)), 1, std::max<size_t>(n / 4096, 1));
    m_slices.resize(count);
    auto& pool = tokenPool();
    for (size_t k = 0; k < count; ++k) {
        Slice& s = m_slices[k];
        s.begin = n * k / count;
        s.end = n * (k + 1) / count;
        s.last = k + 1 == count;
        if (!pool.empty()) s.tokens = std::move(pool.back()), pool.pop_back();
    }
    // The helper matches the later half of the slices and writes them to a
    // buffer of its own: where they land depends only on each other's sizes.
    const size_t half = m_twoThreads ? count / 2 : 0;
    std::thread helper;
    if (half > 0)
        helper = std::thread([this, half, count] {
            size_t at = 0;
            for (size_t k = half; k < count; ++k) {
                match(m_slices[k]);
                m_slices[k].offset = at;
                at += sliceBytes(m_slices[k]);
            }
            // The bit packer stores eight bytes at a time, past a slice's end.
            m_later.assign(at + 8, 0);
            for (size_t k = half; k < count; ++k) write(m_slices[k], m_later.data() + m_slices[k].offset);
            m_later.resize(at);
        });
    for (size_t k = 0; k < (half > 0 ? half : count); ++k) match(m_slices[k]);
    if (helper.joinable()) helper.join();
    size_t offset = 2;  // after zlib's header
    for (size_t k = 0; k < count; ++k) {
        if (k == half && half > 0) m_laterOffset = offset;
        m_slices[k].offset = offset;
        offset += sliceBytes(m_slices[k]);
    }
    m_size = offset + 4;
}

// A slice's bytes: its block, and but for the last the alignment after it.
size_t Lz77Deflate::sliceBytes(const Slice& s) { return s.last ? size_t((s.bits + 7) / 8) : deflate::alignedBytes(s.bits); }

Lz77Deflate::~Lz77Deflate()
{
    // Kept for the next image unless a huge one grew them: a server's
    // memory should not stay at its largest request's.
    constexpr size_t KeptTokens = size_t(4) << 20;
    auto& pool = tokenPool();
    for (Slice& s : m_slices)
        if (s.tokens.capacity() <= KeptTokens) pool.push_back(std::move(s.tokens));
}

// Greedy matching of one slice's bytes (it may look back before them), its
// codes and its exact size in bits.
void Lz77Deflate::match(Slice& s) const
{
    thread_local std::vector<int32_t> head;
    head.assign(size_t(1) << HashBits, -1);
    const uint8_t* in = m_data.data();
    auto& tokens = s.tokens;
    tokens.clear();
    s.literalFreq.fill(0);
    s.distanceFreq.fill(0);
    uint64_t extraBits = 0;
    const auto& lengthCodes = deflate::lengthCodes();
    const size_t end = s.end;
    for (size_t i = s.begin; i < end;) {
        if (i + MinLength > end) {
            tokens.push_back(in[i]);
            ++s.literalFreq[in[i++]];
            continue;
        }
        const uint32_t here = load32(in + i);
        const size_t limit = std::min<size_t>(deflate::MaxMatch, end - i);
        unsigned best = 0;
        size_t bestDistance = 0;
        auto tryDistance = [&](size_t d) {
            if (d > i || d > deflate::Window) return;
            const uint8_t* from = in + i - d;
            if (load32(from) != here) return;
            const unsigned length = MinLength + extend(in + i + MinLength, from + MinLength, limit - MinLength);
            if (length > best) best = length, bestDistance = d;
        };
        tryDistance(m_pixelBytes);
        if (best < limit) tryDistance(m_rowBytes);
        int32_t& slot = head[hash(here)];
        const int32_t seen = slot;
        slot = int32_t(i);
        if (best < limit && seen >= 0) {
            const size_t d = i - size_t(seen);
            if (d != m_pixelBytes && d != m_rowBytes) tryDistance(d);
        }
        if (best < MinLength) {
            tokens.push_back(in[i]);
            ++s.literalFreq[in[i++]];
            continue;
        }
        tokens.push_back(MatchFlag | uint32_t(best) << 16 | uint32_t(bestDistance));
        const deflate::ExtraCode& length = lengthCodes[best];
        const deflate::ExtraCode distance = deflate::distanceCode(unsigned(bestDistance));
        ++s.literalFreq[length.symbol];
        ++s.distanceFreq[distance.symbol];
        extraBits += length.extraBits + distance.extraBits;
        if (best <= ShortMatch)
            for (size_t k = i + 1; k < i + best && k + MinLength <= end; ++k) head[hash(load32(in + k))] = int32_t(k);
        i += best;
    }
    s.literalFreq[deflate::EndOfBlock] = 1;
    huffmanLengths(s.literalFreq, 15, s.literalLengths);
    huffmanCodes(s.literalLengths, s.literalCodes);
    huffmanLengths(s.distanceFreq, 15, s.distanceLengths);
    huffmanCodes(s.distanceLengths, s.distanceCodes);
    s.header.emplace(s.literalLengths, s.distanceLengths);
    s.bits = s.header->bits() + extraBits;
    for (int c = 0; c < deflate::LiteralCodes; ++c) s.bits += uint64_t(s.literalFreq[size_t(c)]) * s.literalLengths[size_t(c)];
    for (int c = 0; c < deflate::DistanceCodes; ++c)
        s.bits += uint64_t(s.distanceFreq[size_t(c)]) * s.distanceLengths[size_t(c)];
}

void Lz77Deflate::writeZlib(uint8_t* out) const
{
    deflate::writeZlibHeader(out);
    const size_t own = m_laterOffset ? m_slices.size() / 2 : m_slices.size();
    for (size_t k = 0; k < own; ++k) write(m_slices[k], out + m_slices[k].offset);
    if (m_laterOffset) std::memcpy(out + m_laterOffset, m_later.data(), m_later.size());
    deflate::writeZlibTrailer(out + m_size - 4, m_data);
}

void Lz77Deflate::write(const Slice& s, uint8_t* out) const
{
    deflate::BitWriter w(out);
    s.header->write(w, s.last);
    const auto& lengthCodes = deflate::lengthCodes();
    const uint32_t* t = s.tokens.data();
    const uint32_t* const end = t + s.tokens.size();
    for (; t < end; ++t) {
        if (!(*t & MatchFlag)) {
            // Two literals (15 bits each at most) fit between flushes.
            w.put(s.literalCodes[*t], s.literalLengths[*t]);
            if (t + 1 < end && !(t[1] & MatchFlag)) ++t, w.put(s.literalCodes[*t], s.literalLengths[*t]);
        } else {
            const deflate::ExtraCode& l = lengthCodes[(*t >> 16) & 0x1ff];
            const deflate::ExtraCode d = deflate::distanceCode(*t & 0xffff);
            w.put(s.literalCodes[l.symbol], s.literalLengths[l.symbol]);
            w.put(l.extra, l.extraBits);
            w.put(s.distanceCodes[d.symbol], s.distanceLengths[d.symbol]);
            w.put(d.extra, d.extraBits);
        }
        w.flush();
    }
    w.put(s.literalCodes[deflate::EndOfBlock], s.literalLengths[deflate::EndOfBlock]);
    if (s.last) w.finish();
    else deflate::writeAlignment(w);
}

}  // namespace maptune
