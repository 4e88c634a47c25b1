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

bool requestEnabledIn(const KeyValues& metadata, const QString& request, bool* disabled)
{
    bool off = false;
    bool on = requestEnabledBy(metadata.value(QStringLiteral("wms_enable_request")), request, &off);
    if (!on && !off) on = requestEnabledBy(metadata.value(QStringLiteral("ows_enable_request")), request, &off);
    if (disabled) *disabled = off;
    return on;
}

bool requestGloballyEnabled(const MapDef& map, const QString& request)
{
    return requestEnabledIn(map.web.metadata, request, nullptr);
}

bool requestEnabledForMap(const MapDef& map, const QString& request, bool anyLayer)
{
    if (!anyLayer || map.layers.isEmpty()) return requestGloballyEnabled(map, request);
    bool globalOff = false;
    const bool global = requestEnabledIn(map.web.metadata, request, &globalOff);
    for (const LayerDef& layer : map.layers) {
        bool off = false;
        const bool own = requestEnabledIn(layer.metadata, request, &off);
        if (own || (!off && global)) return true;
    }
    return false;
}

QSet<int> enabledLayers(const MapDef& map, const QString& request)
{
    const bool global = requestGloballyEnabled(map, request);
    QSet<int> out;
    for (int i = 0; i < map.layers.size(); ++i) {
        bool disabled = false;
        const bool own = requestEnabledIn(map.layers[i].metadata, request, &disabled);
        if (own || (global && !disabled)) out.insert(i);
    }
    return out;
}

bool layerQueryable(const LayerDef& layer)
{
    if (!layer.templ.isEmpty()) return true;
    for (const ClassDef& c : layer.classes)
        if (!c.templ.isEmpty()) return true;
    return false;
}

QString onlineResource(const MapDef& map, const QString& selfUrl)
{
    QString url = wmsMetadata(map.web.metadata, QStringLiteral("onlineresource"))
                      .value_or(selfUrl.isEmpty() ? QStringLiteral("http://localhost/cgi-bin/mapserv?") : selfUrl);
    if (!url.endsWith(QLatin1Char('?')) && !url.endsWith(QLatin1Char('&')))
        url += url.contains(QLatin1Char('?')) ? QLatin1Char('&') : QLatin1Char('?');
    return url;
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
