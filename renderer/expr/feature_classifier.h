#pragma once
// FILTER and CLASS selection for one layer: LayerExpressions compiles FILTER,
// class EXPRESSIONs and TEXTs once (a prepared layer keeps them for every
// request); a FeatureClassifier binds them to one cursor's field list.

#include "core/result.h"
#include "expr/expression.h"
#include "mapfile/layer_def.h"

#include <QStringList>

#include <array>
#include <memory>
#include <optional>

namespace maptune {

class LayerExpressions {
public:
    // Errors name the layer and class. `layer` must outlive the result.
    static Result<std::shared_ptr<const LayerExpressions>> compile(const LayerDef& layer);
    // Every attribute the layer needs from its source.
    const QStringList& attributes() const { return m_attributes; }
    const LayerDef& layer() const { return *m_layer; }

private:
    friend class FeatureClassifier;
    struct CompiledClass {
        const ClassDef* def = nullptr;
        bool inClassGroup = true;  // false: the layer's CLASSGROUP leaves it out
        std::optional<Expression> expression;
        std::optional<Expression> text;
    };
    const LayerDef* m_layer = nullptr;
    std::optional<Expression> m_filter;
    QList<CompiledClass> m_classes;
    QStringList m_attributes;
};

class FeatureClassifier {
public:
    FeatureClassifier() = default;
    explicit FeatureClassifier(std::shared_ptr<const LayerExpressions> compiled) : m_compiled(std::move(compiled)) {}

    // Compiles on the spot (for one-off uses such as a legend).
    Status compile(const LayerDef& layer);
    QStringList attributes() const { return m_compiled ? m_compiled->attributes() : QStringList(); }
    Status bind(const QStringList& fields);

    bool passesFilter(const QStringList& values) const;
    // Index of the first matching class in scale range, or -1.
    int classify(const QStringList& values, double scaleDenom) const;
    // Whether class `cls`'s EXPRESSION (none: always) holds, whatever its
    // scale range and status (a CHART layer counts every such class).
    bool expressionMatches(int cls, const QStringList& values) const;
    // Label text for a feature of class `cls` (CLASS TEXT, else LABELITEM).
    QString labelText(int cls, const QStringList& values) const;

private:
    struct BoundClass {
        std::optional<BoundExpression> expression;
        std::optional<BoundExpression> text;
    };
    int firstMatch(const QStringList& values, double scaleDenom) const;

    std::shared_ptr<const LayerExpressions> m_compiled;
    std::optional<BoundExpression> m_filter;
    QList<BoundClass> m_classes;
    int m_labelItem = -1;
    // When every class EXPRESSION reads the same one attribute (CLASSITEM),
    // the classes of the last values classified: readers hand out a repeated
    // value as the same shared string, so a road type is classified once
    // rather than compared against each class again. -1: not applicable.
    // classify() is for one thread (the reader's).
    int m_memoItem = -1;
    struct Memo {
        QString value;  // keeps the shared text alive and unchanged
        int cls = -1;
    };
    // A road map's handful of types, interleaved: each keeps its entry.
    static constexpr int kMemoSize = 16;
    mutable std::array<Memo, kMemoSize> m_memo;
    mutable int m_memoCount = 0, m_memoNext = 0;
    mutable double m_memoScale = 0;
};

}  // namespace maptune
