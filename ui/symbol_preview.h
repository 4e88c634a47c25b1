#pragma once
// A SYMBOL drawn as the legend would draw it (a marker at the centre of a
// key), for the editor's hover help: rich text with the image inline.

#include "mapfile/map_def.h"

#include <QImage>
#include <QString>

namespace maptune {

// The symbol of `map` named `name` as a marker of `size` pixels; a null
// image when the map has no such symbol.
QImage symbolPreview(const MapDef& map, const QString& name, int size = 32);
// "<img src='data:image/png;base64,...'/> SYMBOL 'name'" or "" when there is no such symbol.
QString symbolPreviewHtml(const MapDef& map, const QString& name);

}  // namespace maptune
