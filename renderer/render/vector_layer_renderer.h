#pragma once
// Draws one vector layer: query the source for the view, FILTER, classify,
// reproject, style, queue labels. LINE layers with several STYLEs draw in
// passes (every feature's first style, then every feature's second, ...) as
// MapServer does, so casings never cut fills at crossings.

#include "data/engine_context.h"
#include "data/feature_source.h"
#include "geo/crs.h"
#include "geo/map_view.h"
#include "mapfile/map_def.h"
#include "trace/cancel_token.h"
#include "trace/trace.h"

#include <QColor>
#include <QImage>
#include <QSet>

#include <optional>

namespace maptune {

struct GraticuleSettings;

class DrawItemQueue;
class LabelCache;
class StyleResolver;
struct LayerVariant;

class VectorLayerRenderer {
public:
    // variant: the layer as prepared for the view's scale (tokens substituted,
    // expressions compiled). layerCrs: its PROJECTION resolved; unset for no
    // PROJECTION (the map's CRS is assumed) and AUTO (the source's own).
    VectorLayerRenderer(const MapDef& map, const EngineContext& context, const LayerVariant& variant,
                        const std::optional<Crs>& layerCrs, const MapView& view, LabelCache& labels);
    // False with trace.error set when the layer cannot be drawn at all.
    bool render(QImage& canvas, LayerTrace& trace, const CancelToken& cancel);
    // A query map: draw only `ids` (null: all), in `highlight` when set.
    void setQuerySelection(const QSet<qint64>* ids, std::optional<QColor> highlight)
    {
        m_onlyFeatures = ids;
        m_highlight = highlight;
    }
    void setAnnotated(bool annotate) { m_annotate = annotate; }

private:
    // Whether the layer's EXTENT (in its CRS) meets `shown` (the view, in the map's).
    bool extentMeetsView(const Rect& shown) const;
    // The lines and edge labels of a GRID layer.
    std::unique_ptr<FeatureSource> graticuleFor(const GraticuleSettings& grid) const;
    void drawItems(QImage& canvas, const DrawItemQueue& items, const StyleResolver& resolver, const QStringList& fields,
                   double scale, const CancelToken& cancel) const;

    const MapDef& m_map;
    const EngineContext& m_context;
    const LayerVariant& m_variant;
    const LayerDef& m_layer;
    const std::optional<Crs>& m_layerCrs;
    const MapView& m_view;
    LabelCache& m_labels;
    const QSet<qint64>* m_onlyFeatures = nullptr;
    std::optional<QColor> m_highlight;
    bool m_annotate = true;
};

}  // namespace maptune
