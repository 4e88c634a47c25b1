#include "render/layer_variants.h"

#include "render/scale_tokens.h"

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

void compileTransforms(LayerVariant& v)
{
    const LayerDef& l = v.def;
    auto failed = [&](const QString& what, const QString& message) {
        if (v.transformError.isEmpty()) v.transformError = QStringLiteral("layer '%1': %2%3").arg(l.name, what, message);
    };
    if (!l.geomTransform.isEmpty()) {
        Result<ShapeExpression> e = ShapeExpression::parse(l.geomTransform);
        if (e) v.geomTransform = std::move(e).value();
        else failed(QStringLiteral("GEOMTRANSFORM %1: ").arg(l.geomTransform), e.message());
    }
    for (qsizetype c = 0; c < l.classes.size(); ++c) {
        std::vector<StyleGeomTransform> styles;
        for (const StyleDef& s : l.classes[c].styles) {
            Result<StyleGeomTransform> t = StyleGeomTransform::parse(s.geomTransform);
            if (t) {
                styles.push_back(std::move(t).value());
            } else if (s.geomTransform.trimmed().startsWith(QLatin1Char('('))) {
                StyleGeomTransform invalid;
                invalid.kind = StyleGeomTransform::Kind::Invalid;
                styles.push_back(std::move(invalid));
            } else {
                failed(QStringLiteral("CLASS %1 STYLE: ").arg(c + 1), t.message());
                styles.push_back(StyleGeomTransform{});
            }
        }
        v.styleTransforms.push_back(std::move(styles));
    }
}

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
    compileTransforms(*v);
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
