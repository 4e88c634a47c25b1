#pragma once
// What OWS capabilities say about a layer's space, as MapServer's mapows.c
// works it out: its EPSG codes (msOWSGetEPSGProj) and its extent
// (msOWSGetLayerExtent: wms_extent metadata, EXTENT, else the data's own).

#include "mapfile/map_def.h"

#include <optional>

namespace maptune {

// The "srs" metadata (wms_, then ows_) when given, else "EPSG:n" from an
// "init=epsg:n" / "EPSG:n" PROJECTION; empty when neither. firstOnly keeps the
// first code of a list.
QString epsgCodes(const ProjectionDef& projection, const KeyValues* metadata, bool firstOnly);

// The layer's extent in its own CRS (the map's when it has none).
std::optional<Rect> layerExtent(const MapDef& map, const LayerDef& layer);

}  // namespace maptune

namespace maptune {

class Crs;

// The CRS of a PROJECTION block. "init=FILE:CODE" with a path (MapServer reads
// PROJ init files itself) is expanded from FILE, relative to the mapfile.
std::optional<Crs> projectionCrs(const MapDef& map, const ProjectionDef& projection);

// msProjectRect: the bounds of 101 samples along each edge of `r`.
Rect projectRect(const Crs& from, const Crs& to, const Rect& r);

}  // namespace maptune
