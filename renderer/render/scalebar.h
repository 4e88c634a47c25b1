#pragma once
// MapServer's scale bar (mapscale.c: msDrawScalebar): INTERVALS boxes
// (STYLE 0, alternating COLOR and BACKGROUNDCOLOR, outlined in OUTLINECOLOR)
// or a line with ticks (STYLE 1), each interval a round number of UNITS at
// the map's cell size, labelled with the values and the unit; the bar is
// shortened until it and its last label fit SIZE. Drawn as an image of its
// own, or into a map (STATUS EMBED).

#include "geo/map_view.h"
#include "mapfile/map_def.h"

#include <QImage>

namespace maptune {

class VectorSurface;

// The scale bar for `view` as an image (premultiplied ARGB); null when the
// map cannot have one (no cell size).
// `vector`: the bar is drawn on it (sized to the bar) instead of into the image.
QImage drawScalebar(const MapDef& map, const MapView& view, VectorSurface* vector = nullptr);

// MapServer's interval rounding (roundInterval): 4, 3, 2 or 1 decimals
// below .001, .01, .1, 1; an integer below 100; two significant digits above.
double roundScalebarInterval(double d);

// Draws the scale bar into `canvas` when its STATUS is EMBED; returns the
// area it took (empty when none), which labels must then avoid.
QRect embedScalebar(QImage& canvas, const MapDef& map, const MapView& view);

}  // namespace maptune
