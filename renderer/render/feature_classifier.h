#pragma once
// FILTER and CLASS selection for one layer, compiled once and bound to the
// cursor's field list.

#include "expr/expression.h"
#include "mapfile/map_def.h"

#include <QStringList>

#include <optional>

namespace maptune {

class FeatureClassifier {
public:
    // Compiles FILTER, class EXPRESSIONs and TEXTs; errors name the layer/class.
    bool compile(const LayerDef& layer, QString* error);
    // Every attribute the layer needs from its source.
    QStringList attributes() const { return m_attributes; }
    bool bind(const QStringList& fields, QString* error);

    bool passesFilter(const QStringList& values) const;
    // Index of the first matching class in scale range, or -1.
    int classify(const QStringList& values, double scaleDenom) const;
    // Label text for a feature of class `cls` (CLASS TEXT, else LABELITEM).
    QString labelText(int cls, const QStringList& values) const;

private:
    struct CompiledClass {
        const ClassDef* def = nullptr;
        std::optional<Expression> expression;
        std::optional<BoundExpression> bound;
        std::optional<Expression> text;
        std::optional<BoundExpression> boundText;
    };
    const LayerDef* m_layer = nullptr;
    std::optional<Expression> m_filter;
    std::optional<BoundExpression> m_boundFilter;
    QList<CompiledClass> m_classes;
    QStringList m_attributes;
    QStringList m_fields;
    int m_labelItem = -1;
};

}  // namespace maptune
