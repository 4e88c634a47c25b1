#pragma once
// The attributes an OWS output shows for a layer, as msGMLGetItems reads them
// from the layer's "gml_" metadata: every item when gml_include_items is
// "all", the listed ones otherwise, minus gml_exclude_items; each item's
// alias, type, width and precision from gml_<item>_alias, _type, _width, _precision.

#include "mapfile/map_def.h"

#include <QList>
#include <QStringList>

namespace maptune {

struct GmlItem {
    int field = -1;  // index into the fields the items were made from
    QString name;
    QString alias;   // the name when no alias is given
    QString type;    // "Integer", "Long", "Real", "Boolean", ...; empty: text
    int width = 0, precision = 0;
};

// The visible items, in the fields' order. With gml_types "auto", an item
// without a gml_<item>_type takes the type, width and precision of the
// layer's own field (msSHPPassThroughFieldDefinitions for shapefiles, the
// OGR ones for OGR layers); `map` resolves the layer's DATA for that.
QList<GmlItem> visibleGmlItems(const LayerDef& layer, const QStringList& fields, const MapDef* map = nullptr);

}  // namespace maptune
