#include "render/layer_variants.h"

#include "render/scale_tokens.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

std::unique_ptr<LayerVariant> makeVariant(LayerDef def)
{
    auto v = std::make_unique<LayerVariant>();
    v->def = std::move(def);
    // Compiled against the variant's own LayerDef, which never moves again.
    auto compiled = LayerExpressions::compile(v->def);
    if (compiled)
        v->expressions = std::move(compiled).value();
    else
        v->error = compiled.message();
    return v;
}

}  // namespace

LayerVariants::LayerVariants(const LayerDef& layer) : m_breaks(ScaleTokens::breakpoints(layer))
{
    if (m_breaks.isEmpty()) {
        m_variants.push_back(makeVariant(layer));
        return;
    }
    // Below the first step no token value applies; from each step on, that step's.
    m_variants.push_back(makeVariant(ScaleTokens::apply(layer, -HUGE_VAL)));
    for (double step : std::as_const(m_breaks)) m_variants.push_back(makeVariant(ScaleTokens::apply(layer, step)));
}

const LayerVariant& LayerVariants::at(double scaleDenom) const
{
    // The number of steps at or below the scale picks the variant.
    const auto above = std::upper_bound(m_breaks.begin(), m_breaks.end(), scaleDenom);
    return *m_variants[size_t(above - m_breaks.begin())];
}

}  // namespace maptune
