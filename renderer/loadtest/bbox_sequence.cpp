#include "loadtest/bbox_sequence.h"

#include <algorithm>
#include <cmath>

namespace maptune {

BboxSequence::BboxSequence(const BboxSpec& spec, std::uint64_t seedOffset)
    : m_spec(spec), m_random(spec.seed + seedOffset)
{
    if (!m_spec.rows.isEmpty()) m_fileIndex = qsizetype(seedOffset % std::uint64_t(m_spec.rows.size()));
}

Bbox BboxSequence::next()
{
    if (m_spec.mode == BboxSpec::Mode::File) {
        if (m_spec.rows.isEmpty()) return {};
        const Bbox b = m_spec.rows[m_fileIndex];
        m_fileIndex = (m_fileIndex + 1) % m_spec.rows.size();
        return b;
    }
    double cx = 0, cy = 0, bw = 0, bh = 0;
    if (m_spec.mode == BboxSpec::Mode::Extent) {
        const auto& [x0, y0, x1, y1] = m_spec.extent;
        const double res = std::exp(m_random.uniform(std::log(m_spec.res[0]), std::log(m_spec.res[1])));
        bw = std::min(res * m_spec.width, x1 - x0);
        bh = std::min(res * m_spec.height, y1 - y0);
        cx = m_random.uniform(x0 + bw / 2, x1 - bw / 2);
        cy = m_random.uniform(y0 + bh / 2, y1 - bh / 2);
    } else {
        cx = m_spec.center[0] + m_random.uniform(-m_spec.jitter[0], m_spec.jitter[0]);
        cy = m_spec.center[1] + m_random.uniform(-m_spec.jitter[1], m_spec.jitter[1]);
        bw = m_spec.span[0];
        bh = m_spec.span[1];
    }
    return {cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2};
}

QList<Bbox> BboxSequence::first(const BboxSpec& spec, int n, std::uint64_t seedOffset)
{
    BboxSequence sequence(spec, seedOffset);
    QList<Bbox> out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) out << sequence.next();
    return out;
}

}  // namespace maptune
