#pragma once
// STYLEITEM "AUTO" on OGR layers (MapServer's msOGRLayerGetAutoStyle): the
// styles a feature's OGR style string gives it -- PEN for lines and polygon
// outlines, BRUSH for fills (a mapfile SYMBOL by its id, "ogr-brush-1" for
// none), SYMBOL for points, LABEL for the feature's label -- read through
// GDAL's own style parser.

#include "mapfile/map_def.h"

#include <QList>
#include <QString>

namespace maptune {

struct OgrAutoStyle {
    QList<StyleDef> styles;  // drawn instead of the class's
    QList<LabelDef> labels;  // the LABEL part, if it has text: instead of the class's
};

// What one feature of a `type` layer is drawn with. cellSize: the view's map
// units per pixel, which sizes in ground units ("w:10g") are divided by.
OgrAutoStyle ogrAutoStyle(const QString& styleString, LayerType type, const MapDef& map, double cellSize = 1);

// Its styles alone; empty when the string has none MapTune draws.
QList<StyleDef> ogrAutoStyles(const QString& styleString, LayerType type, const MapDef& map, double cellSize = 1);

}  // namespace maptune
