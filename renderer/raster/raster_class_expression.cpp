// Raster class EXPRESSIONs over the items MapServer offers for raster
// pixels: [pixel] (the value, formatted like C's %g) and [red], [green],
// [blue] (the palette colour; -1 for non-8-bit data).

#include "expr/expression.h"
#include "mapfile/map_def.h"

#include <functional>
#include <optional>

namespace maptune {

std::optional<std::function<bool(double, int, int, int)>> compileRasterExpression(const ExpressionDef& def,
                                                                                  QString* error)
{
    const auto compiled = Expression::compile(def);
    if (!compiled) {
        *error = QStringLiteral("class EXPRESSION %1: %2").arg(def.text, compiled.message());
        return std::nullopt;
    }
    static const QStringList fields{QStringLiteral("pixel"), QStringLiteral("red"), QStringLiteral("green"),
                                    QStringLiteral("blue")};
    const auto bound = compiled->bind(fields, QString());
    if (!bound) {
        *error = QStringLiteral("class EXPRESSION %1: %2 (raster classes know [pixel], [red], [green], [blue])")
                     .arg(def.text, bound.message());
        return std::nullopt;
    }
    return [b = *bound](double pixel, int r, int g, int bl) {
        const AttributeValues values{QString::number(pixel, 'g', 6), QString::number(r), QString::number(g),
                                     QString::number(bl)};
        return b.matches(values);
    };
}

}  // namespace maptune
