#pragma once
// A vector layer's labels, from its drawn features into the label cache: the
// label text (TEXT, LABELITEM, [item] substitutions), the label point (a
// line's middle, a polygon's label point, every point of a POINT layer's
// feature), the point's marker the text keeps clear of, and for ANGLE
// FOLLOW/AUTO/AUTO2 the line as msDrawShape clipped it.

#include "geo/map_view.h"
#include "mapfile/map_def.h"

#include <QImage>
#include <QStringList>

namespace maptune {

class DrawItemQueue;
class FeatureClassifier;
class LabelCache;
class StyleResolver;

// Queues every item's labels; the cache draws them after all layers (with
// LABELCACHE OFF they are drawn at once, over this layer).
void queueLabels(QImage& canvas, const DrawItemQueue& items, const MapDef& map, const LayerDef& layer, const MapView& view,
                 const FeatureClassifier& classifier, const StyleResolver& resolver, const QStringList& fields,
                 double symbolScale, LabelCache& labels);

// MapServer's msGetFontFace errors for the layer's TrueType label fonts
// (attribute-bound fonts are not known before drawing); empty when all load.
QString labelFontError(const MapDef& map, const LayerDef& layer);

}  // namespace maptune
