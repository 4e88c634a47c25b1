#pragma once
// The render tests' maps are mapfile text: parsed under `name` (relative
// paths resolve next to it) and drawn with the map's own size and extent.
// A text that does not parse gives a result whose error says so.

#include "mapfile/map_loader.h"
#include "render/map_renderer.h"

namespace maptune::test {

inline RenderResult renderMapText(const QByteArray& text, const QString& name)
{
    const LoadResult loaded = parseMapText(text, name);
    if (!loaded.ok()) {
        RenderResult r;
        r.error = QStringLiteral("mapfile does not parse");
        return r;
    }
    return MapRenderer(loaded.map).render({});
}

}  // namespace maptune::test
