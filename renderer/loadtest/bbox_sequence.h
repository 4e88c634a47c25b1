#pragma once
// The deterministic bbox series of a load run: a pure function of the
// BboxSpec and a seed offset (warm-up requests use offset 1000003 so that they
// do not warm the measured requests). Identical to benchlib.make_bboxes.

#include "loadtest/bbox_spec.h"
#include "loadtest/python_random.h"

namespace maptune {

class BboxSequence {
public:
    static constexpr std::uint64_t kWarmupSeedOffset = 1000003;

    explicit BboxSequence(const BboxSpec& spec, std::uint64_t seedOffset = 0);

    Bbox next();

    // The first n bboxes (convenience for tests and --print-bboxes).
    static QList<Bbox> first(const BboxSpec& spec, int n, std::uint64_t seedOffset = 0);

private:
    BboxSpec m_spec;
    PythonRandom m_random;
    qsizetype m_fileIndex = 0;
};

}  // namespace maptune
