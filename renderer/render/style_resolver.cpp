#include "render/style_resolver.h"

#include "expr/expr_strings.h"

#include "render/line_offset.h"

#include <algorithm>

namespace maptune {

namespace {

QColor toQColor(const Color& c, double opacity = 1.0)
{
    if (!c.isSet()) return {};
    return QColor(c.r, c.g, c.b, std::clamp(int(c.a * opacity + 0.5), 0, 255));
}

using exprstr::fieldIndex;

QPen withPattern(QPen pen, double width, const StyleDef& s, double scale)
{
    if (!s.pattern.isEmpty() && width > 0) {
        QList<qreal> dashes;
        for (double d : s.pattern) dashes << std::max(d * scale / width, 0.01);
        if (dashes.size() % 2) dashes << dashes.last();
        pen.setDashPattern(dashes);
        // INITIALGAP shifts the pattern: AGG starts it at length - gap.
        if (s.initialGap > 0) {
            double length = 0;
            for (double d : s.pattern) length += d * scale;
            pen.setDashOffset((length - s.initialGap * scale) / width);
        }
    }
    return pen;
}

}  // namespace

StyleResolver::StyleResolver(const MapDef& map, const LayerDef& layer, const MapView& view, const QStringList& fields)
    : m_map(map), m_fields(fields)
{
    if (layer.symbolScaleDenom > 0 && view.scaleDenom > 0) m_scale = layer.symbolScaleDenom / view.scaleDenom;
    if (view.defResolution > 0) m_scale *= view.resolution / view.defResolution;
    m_scaled = layer.symbolScaleDenom > 0;
    for (const ClassDef& c : layer.classes)
        for (const StyleDef& s : c.styles)
            if (!s.bindsAttributes()) m_unbound.insert(&s, resolveBindings(s, {}));
}

double StyleResolver::number(const NumberOrAttr& n, const QStringList& values) const
{
    if (!n.isBound()) return n.value;
    const int i = fieldIndex(m_fields, n.attribute);
    return i >= 0 && i < values.size() ? values[i].toDouble() : n.value;
}

Color StyleResolver::color(const ColorOrAttr& c, const QStringList& values) const
{
    if (!c.isBound()) return c.color;
    const int i = fieldIndex(m_fields, c.attribute);
    if (i < 0 || i >= values.size()) return {};
    const QString v = values[i].trimmed();
    if (v.startsWith(QLatin1Char('#')) && (v.size() == 7 || v.size() == 9)) {
        Color out = Color::rgb(v.mid(1, 2).toInt(nullptr, 16), v.mid(3, 2).toInt(nullptr, 16), v.mid(5, 2).toInt(nullptr, 16));
        if (v.size() == 9) out.a = v.mid(7, 2).toInt(nullptr, 16);
        return out;
    }
    const QStringList parts = v.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (parts.size() >= 3) return Color::rgb(parts[0].toInt(), parts[1].toInt(), parts[2].toInt());
    return {};
}

ResolvedStyle StyleResolver::resolve(const StyleDef& s, const QStringList& values) const
{
    const auto unbound = m_unbound.constFind(&s);
    ResolvedStyle r = unbound != m_unbound.cend() ? *unbound : resolveBindings(s, values);
    if (m_highlight) {
        if (r.color.alpha() > 0) r.color = *m_highlight;
        else if (r.outline.alpha() > 0) r.outline = *m_highlight;
    }
    return r;
}

ResolvedStyle StyleResolver::resolveBindings(const StyleDef& s, const QStringList& values) const
{
    ResolvedStyle r;
    r.opacity = std::clamp(number(s.opacity, values), 0.0, 100.0) / 100.0;
    r.color = toQColor(color(s.color, values), r.opacity);
    r.outline = toQColor(color(s.outlineColor, values), r.opacity);
    const double f = m_scale;
    r.width = number(s.width, values) * f;
    if (m_scaled) r.width = std::clamp(r.width, s.minWidth, s.maxWidth);
    r.outlineWidth = number(s.outlineWidth, values) * f;
    double size = number(s.size, values);
    if (!s.symbolName.isEmpty() || s.symbolIndex > 0) r.symbol = symbolFor(s);
    if (size < 0) size = defaultSize(r.symbol);
    r.size = size * f;
    if (m_scaled) r.size = std::clamp(r.size, s.minSize, s.maxSize);
    r.angle = number(s.angle, values);
    r.offsetX = number(s.offsetX, values) * f;
    r.polarRadius = number(s.polarOffsetRadius, values) * f;
    r.polarAngle = number(s.polarOffsetAngle, values);
    // -99 / -999 are flags (perpendicular offsets), not distances.
    const double oy = number(s.offsetY, values);
    r.offsetY = oy == LineOffset::SingleSided || oy == LineOffset::DoubleSided ? oy : oy * f;
    return r;
}

const SymbolDef* StyleResolver::symbolFor(const StyleDef& s) const
{
    if (!s.symbolName.isEmpty()) return m_map.symbol(s.symbolName);
    // SYMBOL n: index into the symbol set, 0 being MapServer's implicit default.
    if (s.symbolIndex > 0 && s.symbolIndex <= m_map.symbols.size()) return &m_map.symbols[s.symbolIndex - 1];
    return nullptr;
}

double StyleResolver::defaultSize(const SymbolDef* sym)
{
    if (!sym) return 1;
    if (sym->drawnType() == SymbolType::Vector || sym->type == SymbolType::Ellipse) {
        // msSymbolGetDefaultSize: the height, else the width, else 1.
        double sx = 0, sy = 0;
        for (const auto& p : sym->points)
            if (!(p.first == -99 && p.second == -99)) sx = std::max(sx, p.first), sy = std::max(sy, p.second);
        return sy > 0 ? sy : (sx > 0 ? sx : 1);
    }
    return 1;
}

QPen StyleResolver::linePen(const QColor& c, double width, const StyleDef& s, double scale, bool vector)
{
    QPen pen(c, std::max(width, 0.0));
    // AGG strokes hairlines (width <= 1) with butt caps and bevel joins,
    // whatever LINECAP/LINEJOIN say.
    if (width <= 1 && !vector) {
        pen.setCapStyle(Qt::FlatCap);
        pen.setJoinStyle(Qt::BevelJoin);
        return withPattern(pen, width, s, scale);
    }
    switch (s.lineCap) {
    case LineCap::Butt: pen.setCapStyle(Qt::FlatCap); break;
    case LineCap::Square: pen.setCapStyle(Qt::SquareCap); break;
    default: pen.setCapStyle(Qt::RoundCap);
    }
    switch (s.lineJoin) {
    case LineJoin::Miter: pen.setJoinStyle(Qt::MiterJoin); pen.setMiterLimit(s.lineJoinMaxSize); break;
    case LineJoin::Bevel: pen.setJoinStyle(Qt::BevelJoin); break;
    case LineJoin::None: pen.setJoinStyle(Qt::BevelJoin); break;
    default: pen.setJoinStyle(Qt::RoundJoin);
    }
    return withPattern(pen, width, s, scale);
}

}  // namespace maptune
