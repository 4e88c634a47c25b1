#pragma once
// A cursor over features already in memory (inline FEATUREs, generated contours).

#include "data/feature_source.h"

namespace maptune {

class ListCursor : public FeatureCursor {
public:
    ListCursor(QStringList fields, QList<Feature> features) : m_fields(std::move(fields)), m_features(std::move(features))
    {
    }
    const QStringList& fields() const override { return m_fields; }
    bool next(Feature& f) override
    {
        if (m_index >= m_features.size()) return false;
        f = m_features[m_index++];
        return true;
    }

private:
    QStringList m_fields;
    QList<Feature> m_features;
    qsizetype m_index = 0;
};

}  // namespace maptune
