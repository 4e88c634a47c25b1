#include "render/label_line_clip.h"

#include "render/style_resolver.h"

#include <algorithm>
#include <cmath>

namespace maptune {

QRectF labelLineClip(const ClassDef& c, const StyleResolver& resolver, const QStringList& values,
                     double scaleFactor, double resolutionFactor, int width, int height)
{
    int buffer = 0;
    bool transformed = false;
    for (const StyleDef& s : c.styles) {
        const double size = std::max({resolver.symbolDefaultSize(s), resolver.number(s.size, values),
                                      resolver.number(s.width, values)});
        const double unscaled = std::max(s.minSize, s.minWidth) * resolutionFactor;
        buffer = std::max(buffer, int(std::lround(std::max(size * scaleFactor, unscaled) + 1)));
        transformed = transformed || !s.geomTransform.isEmpty();
    }
    const double edge = transformed ? 0 : 1;
    return QRectF(-buffer, -buffer, width - edge + 2 * buffer, height - edge + 2 * buffer);
}

}  // namespace maptune
