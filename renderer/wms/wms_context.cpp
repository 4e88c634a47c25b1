#include "wms/wms_context.h"

namespace maptune {

std::optional<QString> wmsMetadata(const KeyValues& metadata, const QString& name)
{
    if (auto v = metadata.value(QStringLiteral("wms_") + name)) return v;
    return metadata.value(QStringLiteral("ows_") + name);
}

bool requestEnabledBy(const std::optional<QString>& value, const QString& request, bool* disabled)
{
    bool enabled = false;
    if (disabled) *disabled = false;
    if (!value) return false;
    for (const QString& token : value->split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const bool negate = token.startsWith(QLatin1Char('!'));
        const QString name = negate ? token.mid(1) : token;
        if (name != QLatin1String("*") && name.compare(request, Qt::CaseInsensitive) != 0) continue;
        enabled = !negate;
        if (disabled) *disabled = negate;
    }
    return enabled;
}

bool requestGloballyEnabled(const MapDef& map, const QString& request)
{
    return requestEnabledBy(wmsMetadata(map.web.metadata, QStringLiteral("enable_request")), request, nullptr);
}

QSet<int> enabledLayers(const MapDef& map, const QString& request)
{
    const bool global = requestGloballyEnabled(map, request);
    QSet<int> out;
    for (int i = 0; i < map.layers.size(); ++i) {
        bool disabled = false;
        const bool own = requestEnabledBy(wmsMetadata(map.layers[i].metadata, QStringLiteral("enable_request")),
                                          request, &disabled);
        if (own || (global && !disabled)) out.insert(i);
    }
    return out;
}

QStringList nestedGroups(const LayerDef& layer)
{
    const QString path = wmsMetadata(layer.metadata, QStringLiteral("layer_group")).value_or(QString());
    return path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
}

bool layerMatches(const MapDef& map, const LayerDef& layer, const QString& name)
{
    const auto eq = [&](const QString& s) { return !s.isEmpty() && s.compare(name, Qt::CaseInsensitive) == 0; };
    if (eq(layer.name) || eq(layer.group) || eq(map.name)) return true;
    for (const QString& g : nestedGroups(layer))
        if (eq(g)) return true;
    return false;
}

}  // namespace maptune
