#include "render/layer_context.h"

#include "expr/expression.h"
#include "mapfile/map_def.h"
#include "render/graticule_source.h"
#include "render/scale_range.h"

namespace maptune {

namespace {

// REQUIRES chains longer than this are a cycle (MapServer recurses without end).
constexpr int MaxDepth = 16;

}  // namespace

LayerContext::LayerContext(const MapDef& map, const QList<int>& selected, double scaleDenom)
    : m_map(map), m_selected(selected), m_scaleDenom(scaleDenom)
{
}

bool LayerContext::isVisible(int layer) const
{
    return visible(layer, 0);
}

QList<int> LayerContext::visibleLayers() const
{
    QList<int> out;
    for (int i : m_selected)
        if (isVisible(i)) out << i;
    return out;
}

bool LayerContext::isAnnotated(int layer) const
{
    const LayerDef& l = m_map.layers[layer];
    return inDrawScaleRange(l.labelMinScaleDenom, l.labelMaxScaleDenom, m_scaleDenom) && holds(layer, l.labelRequires, 0);
}

bool LayerContext::visible(int layer, int depth) const
{
    if (depth > MaxDepth || layer < 0 || layer >= m_map.layers.size() || !m_selected.contains(layer)) return false;
    const LayerDef& l = m_map.layers[layer];
    if (l.type == LayerType::Query) return false;
    // A layer with nothing to read counts as off in another's context (a
    // template for MapScript); drawn itself, it reports what it lacks.
    if (depth > 0 && l.data.isEmpty() && l.connection.isEmpty() && l.tileIndex.isEmpty() && l.features.isEmpty()
        && !GraticuleSettings::fromLayer(l))
        return false;
    if (!inDrawScaleRange(l.minScaleDenom, l.maxScaleDenom, m_scaleDenom)) return false;
    return holds(layer, l.requires_, depth);
}

bool LayerContext::holds(int layer, const QString& context, int depth) const
{
    if (context.trimmed().isEmpty()) return true;
    QString text = context;
    for (int i = 0; i < m_map.layers.size(); ++i) {
        const QString& name = m_map.layers[i].name;
        if (i == layer || name.isEmpty()) continue;
        const QString tag = QLatin1Char('[') + name + QLatin1Char(']');
        if (text.contains(tag)) text.replace(tag, visible(i, depth + 1) ? QStringLiteral("1") : QStringLiteral("0"));
    }
    const Result<Expression> expr = Expression::compile({ExpressionDef::Type::Logical, text});
    if (!expr) return false;
    const Result<BoundExpression> bound = expr->bind({});
    return bound && bound->matches({});
}

}  // namespace maptune
