#pragma once
// A STYLE resolved for one feature: attribute bindings, then MapServer's
// scaling by SYMBOLSCALEDENOM and the MIN/MAX limits; and the QPen that
// strokes it as AGG would. Const and shared by the threads drawing a layer.

#include "geo/map_view.h"
#include "mapfile/map_def.h"

#include <QColor>
#include <QHash>
#include <QPen>
#include <QStringList>

#include <optional>

namespace maptune {

struct ResolvedStyle {
    QColor color, outline;
    double width = 1, outlineWidth = 0, size = 1, angle = 0, opacity = 1;
    double offsetX = 0, offsetY = 0;
    double polarRadius = 0, polarAngle = 0;  // POLAROFFSET: pixels, degrees counter-clockwise
    const SymbolDef* symbol = nullptr;
};

class StyleResolver {
public:
    // `layer` must outlive the resolver, unchanged: its styles are looked up by address.
    StyleResolver(const MapDef& map, const LayerDef& layer, const MapView& view, const QStringList& fields);

    double number(const NumberOrAttr& n, const QStringList& values) const;
    Color color(const ColorOrAttr& c, const QStringList& values) const;
    ResolvedStyle resolve(const StyleDef& s, const QStringList& values) const;
    // A query map's HILITE: every style's colour (its outline where it has
    // no fill) becomes `c`.
    void setHighlight(const QColor& c) { m_highlight = c; }
    // msSymbolGetDefaultSize of the style's symbol (1 without one).
    double symbolDefaultSize(const StyleDef& s) const { return defaultSize(symbolFor(s)); }

    // A line of `width` pixels in `c` as AGG strokes it: hairlines (width <= 1)
    // with butt caps and bevel joins whatever LINECAP/LINEJOIN say; PATTERN
    // and INITIALGAP as a dash pattern scaled by `scale`. `vector`: as
    // cairo strokes it for SVG, with LINECAP/LINEJOIN at every width.
    static QPen linePen(const QColor& c, double width, const StyleDef& s, double scale, bool vector = false);

private:
    ResolvedStyle resolveBindings(const StyleDef& s, const QStringList& values) const;
    const SymbolDef* symbolFor(const StyleDef& s) const;
    static double defaultSize(const SymbolDef* sym);

    const MapDef& m_map;
    QStringList m_fields;
    double m_scale = 1;
    bool m_scaled = false;
    std::optional<QColor> m_highlight;
    // The layer's styles that bind no attribute, resolved once: the same
    // for every feature (most of a road map's thousands per request).
    QHash<const StyleDef*, ResolvedStyle> m_unbound;
};

}  // namespace maptune
