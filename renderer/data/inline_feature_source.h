#pragma once
// Features written in the mapfile (LAYER FEATURE POINTS/WKT/ITEMS).

#include "core/result.h"
#include "data/feature_source.h"
#include "mapfile/map_def.h"

namespace maptune {

class InlineFeatureSource : public FeatureSource {
public:
    static Result<std::unique_ptr<InlineFeatureSource>> create(const LayerDef& layer);
    QStringList fields() const override { return m_fields; }
    Result<std::unique_ptr<FeatureCursor>> query(const FeatureQuery& q) override;

private:
    QStringList m_fields;
    QList<Feature> m_features;
};

}  // namespace maptune
