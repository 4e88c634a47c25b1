#pragma once
// A layer as every request at some scale reads it, made once: its SCALETOKENs
// substituted (one variant per range of scales between the tokens' steps,
// for vector and raster layers alike) and its FILTER / CLASS EXPRESSION /
// TEXT compiled. Immutable; shared by all threads.

#include "data/geom_transform/shape_expression.h"
#include "expr/feature_classifier.h"
#include "mapfile/map_def.h"
#include "render/style_geom_transform.h"

#include <optional>

#include <memory>
#include <vector>

namespace maptune {

struct LayerVariant {
    LayerDef def;                                       // tokens substituted
    std::shared_ptr<const LayerExpressions> expressions;  // null when `error` is set
    QString error;                                      // an expression that does not compile
    // GEOMTRANSFORMs: the LAYER's (in map units, before drawing) and each
    // STYLE's ([class][style], in pixels). transformError: one that does
    // not compile, which fails the layer's drawing only.
    std::optional<ShapeExpression> geomTransform;
    std::vector<std::vector<StyleGeomTransform>> styleTransforms;
    QString transformError;
};

class LayerVariants {
public:
    explicit LayerVariants(const LayerDef& layer);
    LayerVariants(const LayerVariants&) = delete;
    LayerVariants& operator=(const LayerVariants&) = delete;

    // The variant a request at `scaleDenom` reads.
    const LayerVariant& at(double scaleDenom) const;
    // All of them (e.g. to report each distinct error once).
    const std::vector<std::unique_ptr<LayerVariant>>& all() const { return m_variants; }

private:
    QList<double> m_breaks;  // m_variants[i] holds below m_breaks[i], the last one above all
    std::vector<std::unique_ptr<LayerVariant>> m_variants;
};

}  // namespace maptune
