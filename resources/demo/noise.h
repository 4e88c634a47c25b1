#pragma once

// Deterministic hashing, noise and random numbers for the demo data.
// std::uniform_*_distribution is implementation-defined, so everything here is
// hand-rolled: the same seed gives the same bytes with any standard library.

#include <cmath>
#include <cstdint>

namespace maptune::demo {

// SplitMix64 finaliser: a cheap, well-mixed 64-bit hash.
inline std::uint64_t mix64(std::uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

inline std::uint64_t hashInts(std::uint64_t seed, std::int64_t a, std::int64_t b = 0,
                              std::int64_t c = 0)
{
    std::uint64_t h = mix64(seed ^ static_cast<std::uint64_t>(a));
    h = mix64(h ^ static_cast<std::uint64_t>(b));
    return mix64(h ^ static_cast<std::uint64_t>(c));
}

// Uniform in [0, 1) from the top 53 bits of a hash.
inline double unitFromHash(std::uint64_t h)
{
    return static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);
}

inline double hashUnit(std::uint64_t seed, std::int64_t a, std::int64_t b = 0, std::int64_t c = 0)
{
    return unitFromHash(hashInts(seed, a, b, c));
}

// One mix per lattice point: the orthophoto evaluates millions of these.
inline double latticeUnit(std::uint64_t seed, std::int64_t a, std::int64_t b)
{
    return unitFromHash(mix64(seed + static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull
                              + static_cast<std::uint64_t>(b) * 0xC2B2AE3D27D4EB4Full));
}

// Smooth value noise in [0, 1] on a lattice of `cell` world units.
inline double valueNoise(std::uint64_t seed, double x, double y, double cell)
{
    const double gx = x / cell;
    const double gy = y / cell;
    const double fx0 = std::floor(gx);
    const double fy0 = std::floor(gy);
    const auto ix = static_cast<std::int64_t>(fx0);
    const auto iy = static_cast<std::int64_t>(fy0);
    double fx = gx - fx0;
    double fy = gy - fy0;
    fx = fx * fx * (3.0 - 2.0 * fx);
    fy = fy * fy * (3.0 - 2.0 * fy);
    const double a = latticeUnit(seed, ix, iy);
    const double b = latticeUnit(seed, ix + 1, iy);
    const double c = latticeUnit(seed, ix, iy + 1);
    const double d = latticeUnit(seed, ix + 1, iy + 1);
    const double top = a + (b - a) * fx;
    const double bottom = c + (d - c) * fx;
    return top + (bottom - top) * fy;
}

// Sequential generator for scene construction (SplitMix64).
class Rng
{
public:
    explicit Rng(std::uint64_t seed) : m_state(seed) {}

    std::uint64_t next()
    {
        m_state += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = m_state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return unitFromHash(next()); }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

private:
    std::uint64_t m_state;
};

} // namespace maptune::demo
