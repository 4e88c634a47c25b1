#pragma once
// Multilingual WMS (MapServer's INSPIRE support): the response language, the
// map with %language% put into DATA / CONNECTION, and metadata looked up in
// that language.

#include "wms/wms_context.h"

namespace maptune {

// The language a request is answered in: the LANGUAGE parameter when the map
// has inspire_capabilities and lists it in wms_languages, else the first
// language listed; nullopt when the map lists none.
std::optional<QString> wmsLanguage(const MapDef& map, const WmsRequest& request);
// All languages of wms_languages, the default first.
QStringList wmsLanguages(const MapDef& map);

// `map` with %language% in its layers' DATA and CONNECTION replaced by
// `language` (msMapSetLanguageSpecificConnection); `map` itself when no
// layer names it. Prepared once per language.
PreparedMapPtr withLanguage(const PreparedMap& map, const std::optional<QString>& language);

// wms_<key>.<language>, ows_<key>.<language>, then wms_<key>, ows_<key>.
std::optional<QString> wmsMetadata(const KeyValues& metadata, const QString& key, const std::optional<QString>& language);

}  // namespace maptune
