#include "loadtest/python_random.h"

#include <vector>

namespace maptune {

namespace {
constexpr int kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfU;
constexpr std::uint32_t kUpperMask = 0x80000000U;
constexpr std::uint32_t kLowerMask = 0x7fffffffU;
}  // namespace

void PythonRandom::initGenrand(std::uint32_t s)
{
    m_state[0] = s;
    for (int i = 1; i < kN; ++i)
        m_state[i] = 1812433253U * (m_state[i - 1] ^ (m_state[i - 1] >> 30)) + std::uint32_t(i);
    m_index = kN;
}

PythonRandom::PythonRandom(std::uint64_t seed)
{
    // CPython: the key is the seed's 32-bit words, least significant first.
    std::vector<std::uint32_t> key{std::uint32_t(seed & 0xffffffffU)};
    if (seed >> 32) key.push_back(std::uint32_t(seed >> 32));
    const int keyLength = int(key.size());

    initGenrand(19650218U);
    int i = 1, j = 0;
    for (int k = kN > keyLength ? kN : keyLength; k; --k) {
        m_state[i] = (m_state[i] ^ ((m_state[i - 1] ^ (m_state[i - 1] >> 30)) * 1664525U)) + key[j] + std::uint32_t(j);
        ++i;
        ++j;
        if (i >= kN) {
            m_state[0] = m_state[kN - 1];
            i = 1;
        }
        if (j >= keyLength) j = 0;
    }
    for (int k = kN - 1; k; --k) {
        m_state[i] = (m_state[i] ^ ((m_state[i - 1] ^ (m_state[i - 1] >> 30)) * 1566083941U)) - std::uint32_t(i);
        ++i;
        if (i >= kN) {
            m_state[0] = m_state[kN - 1];
            i = 1;
        }
    }
    m_state[0] = 0x80000000U;
}

std::uint32_t PythonRandom::nextUint32()
{
    if (m_index >= kN) {
        auto twist = [this](int a, int b, int c) {
            const std::uint32_t y = (m_state[a] & kUpperMask) | (m_state[b] & kLowerMask);
            m_state[a] = m_state[c] ^ (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
        };
        int kk = 0;
        for (; kk < kN - kM; ++kk) twist(kk, kk + 1, kk + kM);
        for (; kk < kN - 1; ++kk) twist(kk, kk + 1, kk + (kM - kN));
        twist(kN - 1, 0, kM - 1);
        m_index = 0;
    }
    std::uint32_t y = m_state[m_index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

double PythonRandom::random()
{
    const std::uint32_t a = nextUint32() >> 5, b = nextUint32() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

double PythonRandom::uniform(double a, double b)
{
    return a + (b - a) * random();
}

}  // namespace maptune
