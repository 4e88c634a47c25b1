#include "encode/huffman_deflate.h"

#include "encode/huffman_code.h"

#include <libdeflate.h>

#include <bit>
#include <algorithm>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace maptune {
namespace {

static_assert(std::endian::native == std::endian::little, "the bit packer stores little-endian words");

constexpr int EndOfBlock = 256;
constexpr int DistanceCodes = 2;  // distance 1 is code 0; code 1 only completes the code
// Shorter runs of a frequent (short-coded) byte cost fewer bits as literals.
constexpr size_t MinRun = 5;
constexpr size_t MaxRun = 258;

struct RunCode {
    uint16_t symbol = 0;
    uint8_t extraBits = 0;
    uint16_t extra = 0;
};

// RFC 1951 3.2.5: the length symbol and extra bits of each run length.
const std::array<RunCode, MaxRun + 1>& runCodes()
{
    static const auto table = [] {
        static constexpr uint16_t base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                              31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
        static constexpr uint8_t extraBits[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                  2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
        std::array<RunCode, MaxRun + 1> t{};
        for (int c = 0; c < 29; ++c) {
            const int end = c == 28 ? int(MaxRun) + 1 : base[c + 1];
            for (int length = base[c]; length < end; ++length)
                t[length] = {uint16_t(257 + c), extraBits[c], uint16_t(length - base[c])};
        }
        return t;
    }();
    return table;
}

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

// Packs codes least significant bit first, a 64-bit word at a time.
class BitWriter {
public:
    explicit BitWriter(uint8_t* out) : m_out(out) {}
    // At most 56 bits between flushes: two literals, or one run with its extras.
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

// The literal/length and distance code lengths, run-length coded with the
// code-length alphabet (RFC 1951 3.2.7): 16 repeats the last length 3-6
// times, 17 and 18 give 3-10 and 11-138 zeros.
struct CodeLengthRun {
    uint8_t symbol;
    uint8_t extra;
};
constexpr uint8_t CodeLengthExtraBits[19] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 7};
constexpr uint8_t CodeLengthOrder[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

std::vector<CodeLengthRun> runLengthCode(std::span<const uint8_t> lengths)
{
    std::vector<CodeLengthRun> out;
    for (size_t i = 0; i < lengths.size();) {
        const uint8_t l = lengths[i];
        size_t same = 1;
        while (i + same < lengths.size() && lengths[i + same] == l) ++same;
        i += same;
        if (l == 0) {
            for (; same >= 11; same -= std::min<size_t>(same, 138))
                out.push_back({18, uint8_t(std::min<size_t>(same, 138) - 11)});
            if (same >= 3) out.push_back({17, uint8_t(same - 3)}), same = 0;
        } else {
            out.push_back({l, 0});
            for (--same; same >= 3; same -= std::min<size_t>(same, 6))
                out.push_back({16, uint8_t(std::min<size_t>(same, 6) - 3)});
        }
        for (; same > 0; --same) out.push_back({l, 0});
    }
    return out;
}

// The dynamic block's header: everything from BFINAL to the last code length.
class BlockHeader {
public:
    explicit BlockHeader(std::span<const uint8_t, 286> literalLengths)
    {
        m_literalCount = 286;
        while (m_literalCount > 257 && literalLengths[m_literalCount - 1] == 0) --m_literalCount;
        std::vector<uint8_t> all(literalLengths.begin(), literalLengths.begin() + m_literalCount);
        all.insert(all.end(), DistanceCodes, 1);
        m_runs = runLengthCode(all);
        std::array<uint32_t, 19> freq{};
        for (const CodeLengthRun& r : m_runs) ++freq[r.symbol];
        huffmanLengths(freq, 7, m_lengths);
        huffmanCodes(m_lengths, m_codes);
        m_orderCount = 19;
        while (m_orderCount > 4 && m_lengths[CodeLengthOrder[m_orderCount - 1]] == 0) --m_orderCount;
    }
    size_t bits() const
    {
        size_t bits = 3 + 5 + 5 + 4 + 3 * m_orderCount;
        for (const CodeLengthRun& r : m_runs) bits += m_lengths[r.symbol] + CodeLengthExtraBits[r.symbol];
        return bits;
    }
    void write(BitWriter& w) const
    {
        w.put(1, 1);  // BFINAL
        w.put(2, 2);  // BTYPE: dynamic Huffman
        w.put(m_literalCount - 257, 5);
        w.put(DistanceCodes - 1, 5);
        w.put(m_orderCount - 4, 4);
        w.flush();
        for (int i = 0; i < m_orderCount; ++i) w.put(m_lengths[CodeLengthOrder[i]], 3), w.flush();
        for (const CodeLengthRun& r : m_runs) {
            w.put(m_codes[r.symbol], m_lengths[r.symbol]);
            w.put(r.extra, CodeLengthExtraBits[r.symbol]);
            w.flush();
        }
    }

private:
    int m_literalCount = 0;
    int m_orderCount = 0;
    std::vector<CodeLengthRun> m_runs;
    std::array<uint8_t, 19> m_lengths{};
    std::array<uint16_t, 19> m_codes{};
};

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
        const RunCode& c = runCodes()[length];
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
        const RunCode& c = runCodes()[length];
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
    uint64_t bits = BlockHeader(m_lengths).bits() + counter.runExtraBits;
    for (int s = 0; s < LiteralCodes; ++s) bits += uint64_t(freq[s]) * m_lengths[s];
    m_size = 2 + (bits + 7) / 8 + 4;
}

void HuffmanDeflate::writeZlib(uint8_t* out) const
{
    // CMF: deflate, 32K window; FLG: fastest level, header divisible by 31.
    out[0] = 0x78;
    out[1] = 0x01;
    BitWriter w(out + 2);
    BlockHeader(m_lengths).write(w);
    Emitter emitter{w, m_lengths, m_codes};
    tokenize(m_data, emitter);
    w.put(m_codes[EndOfBlock], m_lengths[EndOfBlock]);
    uint8_t* end = w.finish();
    const uint32_t adler = libdeflate_adler32(1, m_data.data(), m_data.size());
    for (int i = 0; i < 4; ++i) end[i] = uint8_t(adler >> (24 - 8 * i));
}

}  // namespace maptune
