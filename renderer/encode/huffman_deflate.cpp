#include "encode/huffman_deflate.h"

#include "encode/deflate_block.h"
#include "encode/huffman_code.h"

#include <bit>
#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace maptune {
namespace {

using deflate::BitWriter;
using deflate::EndOfBlock;
using deflate::lengthCodes;

// Distance 1 is code 0; code 1 only completes the code.
constexpr std::array<uint8_t, 2> DistanceLengths{1, 1};
// Shorter runs of a frequent (short-coded) byte cost fewer bits as literals.
constexpr size_t MinRun = 5;
constexpr size_t MaxRun = deflate::MaxMatch;

// The length of the run of `value` at in[0 .. limit).
size_t runLength(const uint8_t* in, size_t limit, uint8_t value)
{
    size_t run = 0;
#if defined(__SSE2__)
    const __m128i v = _mm_set1_epi8(char(value));
    for (; run + 16 <= limit; run += 16) {
        const unsigned same = unsigned(_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + run)), v)));
        if (same != 0xffff) return run + size_t(std::countr_one(same));
    }
#endif
    while (run < limit && in[run] == value) ++run;
    return run;
}

// Splits the data into literals and runs; both passes (counting, writing)
// must see the same tokens. A run is MinRun or more bytes repeating the
// byte before them; sixteen bytes are checked for one at once.
template <class Sink>
void tokenize(std::span<const uint8_t> data, Sink& sink)
{
    const uint8_t* in = data.data();
    const size_t n = data.size();
    if (n == 0) return;
    sink.literals(in, 1);
    size_t i = 1;
    while (i < n) {
        size_t literals = 0;  // bytes from i that are sent as they are
#if defined(__SSE2__)
        if (i + 16 <= n) {
            const unsigned same = unsigned(_mm_movemask_epi8(
                _mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)),
                               _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i - 1)))));
            unsigned starts = same;  // bit k: in[i+k ...] repeats in[i+k-1] MinRun times
            for (size_t k = 1; k < MinRun; ++k) starts &= same >> k;
            literals = starts ? size_t(std::countr_zero(starts)) : 16;
        } else
#endif
        {
            literals = runLength(in + i, std::min(MinRun, n - i), in[i - 1]) < MinRun ? 1 : 0;
        }
        if (literals) {
            sink.literals(in + i, literals);
            i += literals;
            continue;
        }
        const size_t run = runLength(in + i, std::min(MaxRun, n - i), in[i - 1]);
        sink.run(run);
        i += run;
    }
}

struct Counter {
    std::array<uint32_t, 286>& freq;
    uint64_t runExtraBits = 0;
    // Four tables, so that repeated bytes do not wait on each other's increments.
    std::array<std::array<uint32_t, 256>, 4> literalFreq{};
    void literals(const uint8_t* p, size_t count)
    {
        size_t k = 0;
        for (; k + 4 <= count; k += 4) {
            ++literalFreq[0][p[k]];
            ++literalFreq[1][p[k + 1]];
            ++literalFreq[2][p[k + 2]];
            ++literalFreq[3][p[k + 3]];
        }
        for (; k < count; ++k) ++literalFreq[0][p[k]];
    }
    void mergeLiterals()
    {
        for (const auto& table : literalFreq)
            for (int b = 0; b < 256; ++b) freq[b] += table[b];
    }
    void run(size_t length)
    {
        const deflate::ExtraCode& c = lengthCodes()[length];
        ++freq[c.symbol];
        runExtraBits += c.extraBits + 1;  // + the one-bit distance code
    }
};

struct Emitter {
    BitWriter& w;
    const std::array<uint8_t, 286>& lengths;
    const std::array<uint16_t, 286>& codes;
    void literals(const uint8_t* p, size_t count)
    {
        size_t k = 0;
        for (; k + 2 <= count; k += 2) {  // two 15-bit codes fit between flushes
            w.put(codes[p[k]], lengths[p[k]]);
            w.put(codes[p[k + 1]], lengths[p[k + 1]]);
            w.flush();
        }
        if (k < count) {
            w.put(codes[p[k]], lengths[p[k]]);
            w.flush();
        }
    }
    void run(size_t length)
    {
        const deflate::ExtraCode& c = lengthCodes()[length];
        w.put(codes[c.symbol], lengths[c.symbol]);
        w.put(c.extra, c.extraBits);
        w.put(0, 1);  // distance code 0: distance 1
        w.flush();
    }
};

}  // namespace

HuffmanDeflate::HuffmanDeflate(std::span<const uint8_t> data) : m_data(data)
{
    std::array<uint32_t, LiteralCodes> freq{};
    Counter counter{freq};
    tokenize(data, counter);
    counter.mergeLiterals();
    freq[EndOfBlock] = 1;
    huffmanLengths(freq, 15, m_lengths);
    huffmanCodes(m_lengths, m_codes);
    uint64_t bits = deflate::BlockHeader(m_lengths, DistanceLengths).bits() + counter.runExtraBits;
    for (int s = 0; s < LiteralCodes; ++s) bits += uint64_t(freq[s]) * m_lengths[s];
    m_size = 2 + (bits + 7) / 8 + 4;
}

void HuffmanDeflate::writeZlib(uint8_t* out) const
{
    deflate::writeZlibHeader(out);
    BitWriter w(out + 2);
    deflate::BlockHeader(m_lengths, DistanceLengths).write(w, true);
    Emitter emitter{w, m_lengths, m_codes};
    tokenize(m_data, emitter);
    w.put(m_codes[EndOfBlock], m_lengths[EndOfBlock]);
    deflate::writeZlibTrailer(w.finish(), m_data);
}

}  // namespace maptune
