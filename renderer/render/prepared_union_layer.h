#pragma once
// CONNECTIONTYPE UNION (MapServer's mapunion.c): the features of the layers
// its CONNECTION lists, one after another, as one layer. With STYLEITEM
// (MapServer's AUTO) each feature keeps its source layer's class and
// styles; without, the union's own CLASSes style them all.
//
// Each source is prepared as a layer of its own at load time -- the source's
// data, PROJECTION and FILTER under the union's name (and, without STYLEITEM,
// the union's classes) -- and drawn in CONNECTION order.

#include "render/prepared_vector_layer.h"

#include <memory>
#include <vector>

namespace maptune {

class PreparedUnionLayer final : public PreparedLayer {
public:
    PreparedUnionLayer(const MapDef& map, const EngineContext& context, const LayerDef& def, int index,
                       const std::optional<Crs>& mapCrs);

    bool render(const LayerDrawRequest& request) const override;
    PointQueryResult queryPoint(const PointQuery& query) const override;
    Result<std::optional<Rect>> extent() const override;

private:
    struct Source {
        const LayerDef* original = nullptr;   // in the map, for its STATUS and scale range
        std::unique_ptr<LayerDef> drawn;      // what is drawn: its data under the union's name
        std::unique_ptr<PreparedVectorLayer> layer;
    };
    // Whether the source takes part at `scaleDenom` (UNION_STATUS_CHECK, UNION_SCALE_CHECK).
    bool takesPart(const Source& source, double scaleDenom) const;

    QString m_error;                          // a CONNECTION that names no layer, a type that differs
    bool m_statusCheck = false, m_scaleCheck = true;
    std::vector<Source> m_sources;
};

}  // namespace maptune
