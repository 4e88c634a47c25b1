#include "mapfile/map_def.h"

#include <QDir>
#include <QFileInfo>

namespace maptune {

QString MapDef::baseDir() const
{
    if (path.isEmpty()) return QDir::currentPath();
    return QFileInfo(path).absolutePath();
}

const LayerDef* MapDef::layer(const QString& name) const
{
    for (const auto& l : layers)
        if (l.name.compare(name, Qt::CaseInsensitive) == 0) return &l;
    return nullptr;
}

// MapServer looks symbols up with strcasecmp (msGetSymbolIndex).
const SymbolDef* MapDef::symbol(const QString& name) const
{
    for (const auto& s : symbols)
        if (s.name.compare(name, Qt::CaseInsensitive) == 0) return &s;
    return nullptr;
}

namespace {
void clearLabel(LabelDef& label)
{
    label.pos = {};
    for (auto& s : label.styles) s.pos = {};
}
}  // namespace

void clearPositions(MapDef& map)
{
    map.pos = {};
    for (auto& o : map.outputFormats) o.pos = {};
    for (auto& s : map.symbols) s.pos = {};
    if (map.legend.label) clearLabel(*map.legend.label);
    if (map.scalebar.label) clearLabel(*map.scalebar.label);
    for (auto& layer : map.layers) {
        layer.pos = {};
        layer.dataPos = {};
        layer.connectionPos = {};
        for (auto& c : layer.classes) {
            c.pos = {};
            for (auto& s : c.styles) s.pos = {};
            for (auto& l : c.labels) clearLabel(l);
        }
    }
}

}  // namespace maptune
