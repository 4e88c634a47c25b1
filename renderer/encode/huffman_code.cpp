#include "encode/huffman_code.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

namespace maptune {

void huffmanLengths(std::span<const uint32_t> freq, int maxBits, std::span<uint8_t> lengths)
{
    std::fill(lengths.begin(), lengths.end(), 0);
    std::vector<int> symbols;
    for (size_t s = 0; s < freq.size(); ++s)
        if (freq[s]) symbols.push_back(int(s));
    const int m = int(symbols.size());
    if (m < 2) {
        int spare = 2 - m;
        for (size_t s = 0; s < freq.size(); ++s) {
            if (freq[s]) lengths[s] = 1;
            else if (spare > 0) lengths[s] = 1, --spare;
        }
        return;
    }
    std::stable_sort(symbols.begin(), symbols.end(), [&](int a, int b) { return freq[a] < freq[b]; });

    // Two queues: leaves in ascending weight, then internal nodes, which are
    // created in ascending weight too, so the two lightest are always at a front.
    std::vector<uint64_t> weight(2 * m - 1);
    std::vector<int> parent(2 * m - 1);
    for (int i = 0; i < m; ++i) weight[i] = freq[symbols[i]];
    int leaf = 0, inner = m;
    for (int next = m; next < 2 * m - 1; ++next) {
        int pair[2];
        for (int& p : pair) p = leaf < m && (inner >= next || weight[leaf] <= weight[inner]) ? leaf++ : inner++;
        weight[next] = weight[pair[0]] + weight[pair[1]];
        parent[pair[0]] = parent[pair[1]] = next;
    }
    std::vector<int> depth(2 * m - 1, 0);
    for (int node = 2 * m - 3; node >= 0; --node) depth[node] = depth[parent[node]] + 1;

    std::vector<int> count(m + 1, 0);  // depth can reach m - 1
    int deepest = 0;
    for (int i = 0; i < m; ++i) ++count[depth[i]], deepest = std::max(deepest, depth[i]);
    // Too deep: take two leaves from the deepest level, one up; find them
    // room under a shallower leaf that becomes an inner node.
    for (int d = deepest; d > maxBits; --d) {
        while (count[d] > 0) {
            int j = d - 2;
            while (j > 1 && count[j] == 0) --j;
            count[d] -= 2;
            count[d - 1] += 1;
            count[j + 1] += 2;
            count[j] -= 1;
        }
    }
    // The rarest symbols get the longest codes.
    int i = 0;
    for (int d = std::min(deepest, maxBits); d >= 1; --d)
        for (int k = 0; k < count[d]; ++k) lengths[symbols[i++]] = uint8_t(d);
}

void huffmanCodes(std::span<const uint8_t> lengths, std::span<uint16_t> codes)
{
    std::array<uint16_t, 17> count{}, next{};
    for (uint8_t l : lengths) ++count[l];
    count[0] = 0;
    for (int bits = 1; bits < 16; ++bits) next[bits + 1] = uint16_t((next[bits] + count[bits]) << 1);
    // next[b]: the first code of length b (RFC 1951's next_code).
    for (size_t s = 0; s < lengths.size(); ++s) {
        const int l = lengths[s];
        if (!l) {
            codes[s] = 0;
            continue;
        }
        uint32_t c = next[l]++;
        uint32_t reversed = 0;
        for (int b = 0; b < l; ++b, c >>= 1) reversed = (reversed << 1) | (c & 1);
        codes[s] = uint16_t(reversed);
    }
}

}  // namespace maptune
