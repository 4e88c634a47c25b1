#include "render/scale_tokens.h"

#include <algorithm>

namespace maptune {

std::optional<QString> ScaleTokens::valueAt(const ScaleTokenDef& token, double scaleDenom)
{
    std::optional<QString> best;
    double bestScale = -1;
    for (const auto& [scaleText, value] : token.values) {
        bool ok = false;
        const double minScale = scaleText.trimmed().toDouble(&ok);
        if (!ok || minScale > scaleDenom || minScale < bestScale) continue;
        bestScale = minScale;
        best = value;
    }
    return best;
}

QList<double> ScaleTokens::breakpoints(const LayerDef& layer)
{
    QList<double> out;
    for (const ScaleTokenDef& token : layer.scaleTokens) {
        if (token.name.isEmpty()) continue;
        for (const auto& entry : token.values) {
            bool ok = false;
            const double minScale = entry.first.trimmed().toDouble(&ok);
            if (ok && !out.contains(minScale)) out << minScale;
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

ExpressionDef ScaleTokens::parseExpression(const QString& text)
{
    using Type = ExpressionDef::Type;
    const QString t = text.trimmed();
    if (t.isEmpty()) return {};
    if (t.size() >= 2 && t.startsWith(QLatin1Char('(')) && t.endsWith(QLatin1Char(')')))
        return {Type::Logical, t.mid(1, t.size() - 2)};
    if (t.size() >= 2 && t.startsWith(QLatin1Char('{')) && t.endsWith(QLatin1Char('}')))
        return {Type::List, t.mid(1, t.size() - 2)};
    if (t.size() >= 3 && t.startsWith(QLatin1Char('/')) && t.endsWith(QLatin1String("/i")))
        return {Type::IRegex, t.mid(1, t.size() - 3)};
    if (t.size() >= 2 && t.startsWith(QLatin1Char('/')) && t.endsWith(QLatin1Char('/')))
        return {Type::Regex, t.mid(1, t.size() - 2)};
    return {Type::String, text};
}

LayerDef ScaleTokens::apply(const LayerDef& layer, double scaleDenom)
{
    LayerDef out = layer;
    for (const ScaleTokenDef& token : layer.scaleTokens) {
        if (token.name.isEmpty()) continue;
        const std::optional<QString> value = valueAt(token, scaleDenom);
        if (!value) continue;
        out.data.replace(token.name, *value);
        out.connection.replace(token.name, *value);
        out.tileIndex.replace(token.name, *value);
        out.filterItem.replace(token.name, *value);
        out.tileItem.replace(token.name, *value);
        for (QString& directive : out.processing) directive.replace(token.name, *value);
        if (out.filter.isSet() && out.filter.text.contains(token.name)) {
            // The stored text lost its delimiters; put them back before re-reading.
            QString text = out.filter.text;
            switch (out.filter.type) {
            case ExpressionDef::Type::Logical: text = QLatin1Char('(') + text + QLatin1Char(')'); break;
            case ExpressionDef::Type::List: text = QLatin1Char('{') + text + QLatin1Char('}'); break;
            case ExpressionDef::Type::Regex: text = QLatin1Char('/') + text + QLatin1Char('/'); break;
            case ExpressionDef::Type::IRegex: text = QLatin1Char('/') + text + QLatin1String("/i"); break;
            default: break;
            }
            text.replace(token.name, *value);
            const bool insensitive = out.filter.type == ExpressionDef::Type::IString;
            out.filter = parseExpression(text);
            if (insensitive && out.filter.type == ExpressionDef::Type::String) out.filter.type = ExpressionDef::Type::IString;
        }
    }
    return out;
}

}  // namespace maptune
