// Raster class EXPRESSIONs over the items MapServer offers for raster
// pixels: [pixel] (the value, formatted like C's %g) and [red], [green],
// [blue] (the palette colour; -1 for non-8-bit data).

#include "raster_class_expression.h"

#include "expr/expression.h"

namespace maptune {

Result<RasterClassMatch> compileRasterExpression(const ExpressionDef& def)
{
    const auto compiled = Expression::compile(def);
    if (!compiled) return Error(QStringLiteral("class EXPRESSION %1: %2").arg(def.text, compiled.message()));
    static const QStringList fields{QStringLiteral("pixel"), QStringLiteral("red"), QStringLiteral("green"),
                                    QStringLiteral("blue")};
    const auto bound = compiled->bind(fields, QString());
    if (!bound)
        return Error(QStringLiteral("class EXPRESSION %1: %2 (raster classes know [pixel], [red], [green], [blue])")
                         .arg(def.text, bound.message()));
    return RasterClassMatch([b = *bound](double pixel, int r, int g, int bl) {
        const AttributeValues values{QString::number(pixel, 'g', 6), QString::number(r), QString::number(g),
                                     QString::number(bl)};
        return b.matches(values);
    });
}

}  // namespace maptune
