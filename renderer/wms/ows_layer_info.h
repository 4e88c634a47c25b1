#pragma once
// What OWS capabilities say about a layer's space, as MapServer's mapows.c
// works it out: its EPSG codes (msOWSGetEPSGProj); its extent is
// render/layer_extent.h's layerExtent, its CRS geo/map_projection.h's.

#include "geo/map_projection.h"
#include "mapfile/map_def.h"
#include "render/layer_extent.h"

#include <optional>

namespace maptune {

// The "srs" metadata (wms_, then ows_) when given, else "EPSG:n" from an
// "init=epsg:n" / "EPSG:n" PROJECTION; empty when neither. firstOnly keeps the
// first code of a list.
QString epsgCodes(const ProjectionDef& projection, const KeyValues* metadata, bool firstOnly);

}  // namespace maptune
