#pragma once
// A map variant of an experiment: a copy of a MapDef with one thing changed,
// written with writeMapFile into a work directory. Every relative path of the
// copy (SHAPEPATH, DATA, TILEINDEX, CONNECTION files, FONTSET, SYMBOLSET
// symbols, LUT files, key images, templates) is made absolute first, so that
// the variant renders the same data from wherever it is written.

#include "mapfile/map_def.h"

#include <QString>

#include <optional>

namespace maptune {

// One configuration of an experiment: a mapfile served by the embedded server
// (mapFile set) or any WMS (urlTemplate set, with {BBOX} {WIDTH} {HEIGHT}).
struct MapVariant {
    QString label;         // shown in tables and charts ("LUT on", "COG", ...)
    QString mapFile;       // absolute path of the variant mapfile
    QString urlTemplate;   // for a URL configuration
    QString description;   // one line: what differs ("DATA /work/x/ortho-cog.tif")
    bool isUrl() const { return !urlTemplate.isEmpty(); }
};

struct VariantWrite {
    std::optional<QString> path;   // the written mapfile
    QString error;
};

class MapVariantWriter {
public:
    // A copy of map whose paths are absolute (resolved as the renderer resolves them).
    static MapDef relocatable(const MapDef& map);
    // Writes map (already relocatable) as dir/<name>.map atomically; name is
    // made file-safe, and becomes the served map's name.
    static VariantWrite write(const MapDef& map, const QString& dir, const QString& name);
    // "ortho LUT off" -> "ortho-lut-off": letters, digits, '-' and '_'.
    static QString safeName(const QString& text);
    // The layer by name (case-insensitive); null when absent.
    static LayerDef* layer(MapDef& map, const QString& name);
};

}  // namespace maptune
