#pragma once
// Python's random.Random, bit for bit: MT19937 seeded through init_by_array
// from the integer seed (as CPython does), random() from two 32-bit draws.
// ../shared/bench/benchlib.py draws its bbox sequences with it, so the same
// seed gives every tool the same requests. std::mt19937 cannot stand in: its
// seeding differs.

#include <array>
#include <cstdint>

namespace maptune {

class PythonRandom {
public:
    explicit PythonRandom(std::uint64_t seed);

    std::uint32_t nextUint32();
    double random();                        // [0, 1), 53 bits
    double uniform(double a, double b);     // a + (b - a) * random()

private:
    void initGenrand(std::uint32_t s);
    static constexpr int kN = 624;
    std::array<std::uint32_t, kN> m_state{};
    int m_index = kN + 1;
};

}  // namespace maptune
