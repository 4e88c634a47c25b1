#pragma once
// Hand-built maps for the MapRenderer tests: a 100 x 100 map of one unit per
// pixel, inline polygon and line layers, and a pixel of the result.

#include "mapfile/map_def.h"
#include "render/map_renderer.h"

#include <QStringList>

namespace maptune::rendertest {

inline std::shared_ptr<MapDef> baseMap()
{
    auto m = std::make_shared<MapDef>();
    m->name = "t";
    m->width = 100;
    m->height = 100;
    m->extent = {0.5, 0.5, 99.5, 99.5};  // centre-to-centre: 1 unit per pixel, edges 0..100
    m->imageColor = Color::rgb(255, 255, 255);
    return m;
}

inline LayerDef polygonLayer(const QString& name, const QString& wkt, Color fill, LayerStatus status = LayerStatus::Default)
{
    LayerDef l;
    l.name = name;
    l.type = LayerType::Polygon;
    l.status = status;
    InlineFeatureDef f;
    f.wkt = wkt;
    l.features << f;
    ClassDef c;
    StyleDef s;
    s.color = fill;
    c.styles << s;
    l.classes << c;
    return l;
}

// A layer "roads" of `type` with WKT features and one class of `styles`.
inline LayerDef featureLayer(LayerType type, const QStringList& wkts, const QList<StyleDef>& styles)
{
    LayerDef l;
    l.name = "roads";
    l.type = type;
    l.status = LayerStatus::Default;
    for (const QString& wkt : wkts) {
        InlineFeatureDef f;
        f.wkt = wkt;
        l.features << f;
    }
    ClassDef c;
    c.styles = styles;
    l.classes << c;
    return l;
}

inline LayerDef lineLayer(const QStringList& wkts, const QList<StyleDef>& styles)
{
    return featureLayer(LayerType::Line, wkts, styles);
}

// A style of `color` and `width` pixels.
inline StyleDef lineStyle(Color color, double width)
{
    StyleDef s;
    s.color = color;
    s.width = width;
    return s;
}

// A style drawing symbol `name` at `size` pixels in `color`.
inline StyleDef symbolStyle(const QString& name, double size, Color color)
{
    StyleDef s;
    s.symbolName = name;
    s.size.value = size;
    s.color = color;
    return s;
}

// An ELLIPSE symbol `name` (a circle as wide as the style's SIZE).
inline SymbolDef ellipseSymbol(const QString& name, bool filled)
{
    SymbolDef sym;
    sym.name = name;
    sym.type = SymbolType::Ellipse;
    sym.points = {{1, 1}};
    sym.filled = filled;
    return sym;
}

inline QRgb pixel(const RenderResult& r, int x, int y) { return r.image.pixel(x, y); }

}  // namespace maptune::rendertest
