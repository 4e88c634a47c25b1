// Raster class EXPRESSIONs over the items pixel, red, green, blue.

#include "mapfile/map_def.h"

#include <functional>
#include <optional>

namespace maptune {

std::optional<std::function<bool(double, int, int, int)>> compileRasterExpression(const ExpressionDef& def,
                                                                                  QString* error)
{
    Q_UNUSED(def);
    *error = QStringLiteral("raster class EXPRESSIONs are not supported yet");
    return std::nullopt;
}

}  // namespace maptune
