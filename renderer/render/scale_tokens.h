#pragma once
// SCALETOKEN substitution (MapServer's msLayerApplyScaletokens): every
// %token% named by a layer's SCALETOKEN blocks is replaced, in DATA,
// CONNECTION, TILEINDEX, FILTERITEM and FILTER -- for every layer type,
// rasters included --, by the value whose minimum
// scale denominator is the largest one not above the current scale. A
// substituted FILTER is re-read as a mapfile expression ((...), /re/, {list}
// or a plain string).

#include "mapfile/map_def.h"

namespace maptune {

class ScaleTokens {
public:
    // The value of `token` at `scaleDenom`, or nullopt when no entry applies.
    static std::optional<QString> valueAt(const ScaleTokenDef& token, double scaleDenom);
    // `layer` with every scale token substituted; unchanged without tokens.
    static LayerDef apply(const LayerDef& layer, double scaleDenom);
    // The scales at which apply() changes its answer, ascending, distinct:
    // between two of them (and below the first) a layer reads the same.
    static QList<double> breakpoints(const LayerDef& layer);
    // Re-reads expression text as msLoadExpressionString does.
    static ExpressionDef parseExpression(const QString& text);
};

}  // namespace maptune
