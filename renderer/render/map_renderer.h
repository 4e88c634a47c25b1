#pragma once
// Renders a map for a request into an image and encoded bytes in memory.
// Stateless apart from the shared immutable MapDef: one MapRenderer can serve
// many threads at once.

#include "render/render_request.h"
#include "mapfile/map_def.h"

namespace maptune {

class MapRenderer {
public:
    explicit MapRenderer(MapDefPtr map);

    RenderResult render(const RenderRequest& request, TraceSink* sink = nullptr) const;

    // The layers a request draws, in drawing order; error for an unknown name.
    static QList<const LayerDef*> selectLayers(const MapDef& map, const RenderRequest& request, QString* error);

    const MapDef& map() const { return *m_map; }

private:
    MapDefPtr m_map;
};

}  // namespace maptune
