#include "wms/wms_language.h"

namespace maptune {

namespace {

const QString kToken = QStringLiteral("%language%");

}  // namespace

QStringList wmsLanguages(const MapDef& map)
{
    QStringList out;
    for (const QString& l : wmsMetadata(map.web.metadata, QStringLiteral("languages")).value_or(QString()).split(QLatin1Char(',')))
        if (!l.trimmed().isEmpty()) out << l.trimmed();
    return out;
}

std::optional<QString> wmsLanguage(const MapDef& map, const WmsRequest& request)
{
    const QStringList languages = wmsLanguages(map);
    if (languages.isEmpty()) return std::nullopt;
    // LANGUAGE counts only for an INSPIRE service; an unknown one gets the default.
    if (wmsMetadata(map.web.metadata, QStringLiteral("inspire_capabilities")))
        if (const auto asked = request.value(QStringLiteral("LANGUAGE")); asked && languages.contains(*asked))
            return *asked;
    return languages.first();
}

PreparedMapPtr withLanguage(const PreparedMap& prepared, const std::optional<QString>& language)
{
    if (!language) return prepared.shared_from_this();
    const MapDef& map = prepared.map();
    bool named = false;
    for (const LayerDef& l : map.layers)
        named |= l.data.contains(kToken, Qt::CaseInsensitive) || l.connection.contains(kToken, Qt::CaseInsensitive);
    if (!named) return prepared.shared_from_this();
    return prepared.derived(QStringLiteral("language\x01") + *language, [&map, &language] {
        MapDef out = map;
        for (LayerDef& l : out.layers) {
            l.data.replace(kToken, *language, Qt::CaseInsensitive);
            l.connection.replace(kToken, *language, Qt::CaseInsensitive);
        }
        return PreparedMap::Derivation{std::move(out), {}};
    });
}

std::optional<QString> wmsMetadata(const KeyValues& metadata, const QString& key, const std::optional<QString>& language)
{
    if (language)
        if (auto v = wmsMetadata(metadata, key + QLatin1Char('.') + *language)) return v;
    return wmsMetadata(metadata, key);
}

}  // namespace maptune
