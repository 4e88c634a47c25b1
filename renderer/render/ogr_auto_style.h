#pragma once
// STYLEITEM "AUTO" on OGR layers (MapServer's msOGRLayerGetAutoStyle): the
// styles a feature's OGR style string gives it -- PEN for lines and polygon
// outlines, BRUSH for fills (a mapfile SYMBOL by its id, "ogr-brush-1" for
// none), SYMBOL for points -- read through GDAL's own style parser.

#include "mapfile/map_def.h"

#include <QList>
#include <QString>

namespace maptune {

// Styles for one feature of a `type` layer; empty when the string has none
// MapTune draws (LABEL parts are not yet drawn).
QList<StyleDef> ogrAutoStyles(const QString& styleString, LayerType type, const MapDef& map);

}  // namespace maptune
