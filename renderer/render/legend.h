#pragma once
// MapServer's legend image (maplegend.c: msDrawLegend): for each row its key
// (drawLegendIcon) at the left margin and the class name after KEYSPACING,
// on the row's bottom; layers in reverse drawing order, classes in order.
// Drawn as an image of its own (WMS GetLegendGraphic, mode=legend) or into
// a map (LEGEND STATUS EMBED).

#include "geo/map_view.h"
#include "render/legend_layout.h"

#include <QImage>

namespace maptune {

class VectorSurface;

// `scaleDenom` > 0: the keys as at that scale (see drawLegendIcon); 0:
// scale-independent, as GetLegendGraphic draws them.
// `vector`: the legend is drawn on it (sized to the legend) instead of into the image.
QImage drawLegend(const MapDef& map, const QList<LegendEntry>& entries, bool transparent, double scaleDenom = 0,
                  VectorSurface* vector = nullptr);

// The rows of the map's legend at `view`'s scale: layers that are on and
// not query-only, in scale, in reverse drawing order; classes in scale
// and in the layer's CLASSGROUP.
QList<LegendEntry> mapLegendEntries(const MapDef& map, double scaleDenom);

// Draws the legend into `canvas` when its STATUS is EMBED; returns the area
// it took (empty when none). A legend drawn after the labels (POSTLABELCACHE)
// is drawn in the map's own format: on a transparent map, without background.
QRect embedLegend(QImage& canvas, const MapDef& map, const MapView& view, bool mapTransparent);

}  // namespace maptune
