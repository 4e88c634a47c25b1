#include "render/line_pen_cache.h"

#include "render/style_resolver.h"

namespace maptune {

const QPen& LinePenCache::pen(const QColor& color, double width, const StyleDef& s, double scale, bool vector)
{
    const QRgb rgba = color.rgba();
    for (const Entry& e : m_entries)
        if (e.used && e.rgba == rgba && e.width == width && e.scale == scale && e.cap == s.lineCap && e.join == s.lineJoin
            && e.joinMaxSize == s.lineJoinMaxSize && e.initialGap == s.initialGap && e.pattern == s.pattern && e.vector == vector)
            return e.pen;
    Entry& e = m_entries[size_t(m_next)];
    m_next = (m_next + 1) % int(m_entries.size());
    e = {rgba, width, scale, s.initialGap, s.lineJoinMaxSize, s.lineCap, s.lineJoin, s.pattern,
         StyleResolver::linePen(color, width, s, scale, vector), vector, true};
    return e.pen;
}

}  // namespace maptune
