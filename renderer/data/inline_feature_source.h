#pragma once
// Features written in the mapfile (LAYER FEATURE POINTS/WKT/ITEMS).

#include "data/feature_source.h"
#include "mapfile/map_def.h"

namespace maptune {

class InlineFeatureSource : public FeatureSource {
public:
    static std::unique_ptr<InlineFeatureSource> create(const LayerDef& layer, QString* error);
    QStringList fields() const override { return m_fields; }
    std::unique_ptr<FeatureCursor> query(const FeatureQuery& q, QString* error) override;

private:
    QStringList m_fields;
    QList<Feature> m_features;
};

}  // namespace maptune
