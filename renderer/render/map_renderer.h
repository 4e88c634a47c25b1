#pragma once
// Renders a map for a request into an image and encoded bytes in memory,
// through the map's prepared layers. Stateless apart from the shared,
// immutable PreparedMap: one MapRenderer can serve many threads at once.

#include "core/result.h"
#include "render/prepared_map.h"
#include "render/render_request.h"

namespace maptune {

class MapRenderer {
public:
    explicit MapRenderer(PreparedMapPtr map);
    // Prepares `map` on the spot: for one-off renders (the CLI, tests). Code
    // that renders a map more than once keeps its PreparedMap instead.
    explicit MapRenderer(MapDefPtr map);

    RenderResult render(const RenderRequest& request, TraceSink* sink = nullptr) const;

    // Indexes of the layers a request draws, in drawing order; error for an unknown name.
    static Result<QList<int>> selectLayers(const MapDef& map, const RenderRequest& request);

    const MapDef& map() const { return m_map->map(); }
    const PreparedMapPtr& prepared() const { return m_map; }

private:
    PreparedMapPtr m_map;
};

}  // namespace maptune
