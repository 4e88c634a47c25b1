#include "expr/feature_classifier.h"
#include "mapfile/map_def.h"

#include <QRegularExpression>

namespace maptune {

namespace {
void addUnique(QStringList& list, const QString& name)
{
    if (name.isEmpty()) return;
    for (const QString& n : list)
        if (n.compare(name, Qt::CaseInsensitive) == 0) return;
    list << name;
}

void addBindings(QStringList& list, const StyleDef& s)
{
    for (const QString& a : {s.color.attribute, s.outlineColor.attribute, s.width.attribute, s.size.attribute,
                             s.angle.attribute, s.opacity.attribute, s.symbolAttr, s.outlineWidth.attribute,
                             s.offsetX.attribute, s.offsetY.attribute, s.polarOffsetRadius.attribute,
                             s.polarOffsetAngle.attribute, s.rangeItem})
        addUnique(list, a);
}
}  // namespace

Result<std::shared_ptr<const LayerExpressions>> LayerExpressions::compile(const LayerDef& layer)
{
    auto out = std::make_shared<LayerExpressions>();
    out->m_layer = &layer;
    QStringList& attributes = out->m_attributes;
    // A contour layer's FILTER chooses among its TILEINDEX's rasters (as a
    // raster layer's does); its generated lines carry no such attributes.
    const bool filterIsForTiles = layer.connectionType == ConnectionType::Contour && !layer.tileIndex.isEmpty();
    if (layer.filter.isSet() && !filterIsForTiles) {
        Result<Expression> filter = Expression::compile(layer.filter);
        if (!filter) return filter.error().prefixed(QStringLiteral("layer '%1': FILTER: ").arg(layer.name));
        out->m_filter = std::move(filter).value();
        for (const QString& a : out->m_filter->attributes()) addUnique(attributes, a);
        if (layer.filter.type != ExpressionDef::Type::Logical) addUnique(attributes, layer.filterItem);
    }
    addUnique(attributes, layer.labelItem);
    // CLASSGROUP keeps the classes of that GROUP; when none has it, all count (msShapeGetClass).
    bool groupUsed = false;
    for (const ClassDef& c : layer.classes) groupUsed |= !layer.classGroup.isEmpty() && c.group == layer.classGroup;
    for (const ClassDef& c : layer.classes) {
        CompiledClass cc;
        cc.def = &c;
        cc.inClassGroup = !groupUsed || c.group == layer.classGroup;
        if (c.expression.isSet()) {
            Result<Expression> expression = Expression::compile(c.expression);
            if (!expression)
                return expression.error().prefixed(
                    QStringLiteral("layer '%1' class '%2': EXPRESSION: ").arg(layer.name, c.name));
            cc.expression = std::move(expression).value();
            for (const QString& a : cc.expression->attributes()) addUnique(attributes, a);
            if (c.expression.type != ExpressionDef::Type::Logical) addUnique(attributes, layer.classItem);
        }
        // A TEXT that does not compile does not fail the layer: labelText() falls back to LABELITEM.
        if (c.text.isSet()) {
            cc.text = Expression::compile(c.text).toOptional();
            if (cc.text)
                for (const QString& a : cc.text->attributes()) addUnique(attributes, a);
        }
        for (const StyleDef& s : c.styles) addBindings(attributes, s);
        for (const LabelDef& l : c.labels) {
            addUnique(attributes, l.size.attribute);
            addUnique(attributes, l.angle.attribute);
            addUnique(attributes, l.color.attribute);
            addUnique(attributes, l.outlineColor.attribute);
            addUnique(attributes, l.shadowColor.attribute);
            // A label's STYLEs bind attributes too (msLayerWhichItems).
            for (const StyleDef& s : l.styles) addBindings(attributes, s);
            for (const ExpressionDef* e : {&l.text, &l.expression}) {
                if (!e->isSet()) continue;
                if (auto t = Expression::compile(*e))
                    for (const QString& a : t->attributes()) addUnique(attributes, a);
            }
        }
        out->m_classes << cc;
    }
    return std::shared_ptr<const LayerExpressions>(std::move(out));
}

Status FeatureClassifier::compile(const LayerDef& layer)
{
    Result<std::shared_ptr<const LayerExpressions>> compiled = LayerExpressions::compile(layer);
    if (!compiled) {
        m_compiled.reset();
        return compiled.error();
    }
    m_compiled = std::move(compiled).value();
    return {};
}

Status FeatureClassifier::bind(const QStringList& fields)
{
    if (!m_compiled) return Error(QStringLiteral("the layer's expressions are not compiled"));
    const LayerDef& layer = *m_compiled->m_layer;
    m_filter.reset();
    if (m_compiled->m_filter) {
        Result<BoundExpression> filter = m_compiled->m_filter->bind(fields, layer.filterItem);
        if (!filter) return filter.error().prefixed(QStringLiteral("layer '%1': FILTER: ").arg(layer.name));
        m_filter = std::move(filter).value();
    }
    m_classes.clear();
    for (const LayerExpressions::CompiledClass& cc : m_compiled->m_classes) {
        BoundClass bc;
        if (cc.expression) {
            Result<BoundExpression> expression = cc.expression->bind(fields, layer.classItem);
            if (!expression)
                return expression.error().prefixed(
                    QStringLiteral("layer '%1' class '%2': EXPRESSION: ").arg(layer.name, cc.def->name));
            bc.expression = std::move(expression).value();
        }
        if (cc.text) bc.text = cc.text->bind(fields, {}).toOptional();
        m_classes << bc;
    }
    m_memoItem = -1;
    m_memoCount = m_memoNext = 0;
    std::optional<int> item;
    bool soleItem = true;
    for (const BoundClass& bc : std::as_const(m_classes)) {
        if (!bc.expression) continue;
        const std::optional<int> reads = bc.expression->soleItem();
        soleItem = soleItem && reads && (!item || *item == *reads);
        item = reads;
    }
    if (soleItem && item && *item >= 0) m_memoItem = *item;
    m_labelItem = -1;
    for (qsizetype i = 0; i < fields.size(); ++i)
        if (fields[i].compare(layer.labelItem, Qt::CaseInsensitive) == 0) m_labelItem = int(i);
    return {};
}

bool FeatureClassifier::passesFilter(const QStringList& values) const
{
    return !m_filter || m_filter->matches(values);
}

int FeatureClassifier::classify(const QStringList& values, double scaleDenom) const
{
    if (m_memoItem < 0 || m_memoItem >= values.size()) return firstMatch(values, scaleDenom);
    const QString& value = values[m_memoItem];
    if (scaleDenom != m_memoScale) m_memoCount = m_memoNext = 0, m_memoScale = scaleDenom;
    // The same block of shared text (not raw data), which the memo keeps
    // alive and unchanged: the same value.
    for (int i = 0; i < m_memoCount; ++i) {
        const QString& known = m_memo[size_t(i)].value;
        if (value.constData() == known.constData() && value.size() == known.size() && value.data_ptr().isSharedWith(known.data_ptr()))
            return m_memo[size_t(i)].cls;
    }
    const int cls = firstMatch(values, scaleDenom);
    m_memo[size_t(m_memoNext)] = {value, cls};
    m_memoNext = (m_memoNext + 1) % kMemoSize;
    m_memoCount = std::max(m_memoCount, m_memoNext == 0 ? kMemoSize : m_memoNext);
    return cls;
}

int FeatureClassifier::firstMatch(const QStringList& values, double scaleDenom) const
{
    if (!m_compiled) return -1;
    for (qsizetype i = 0; i < m_classes.size(); ++i) {
        const LayerExpressions::CompiledClass& cc = m_compiled->m_classes[i];
        const ClassDef& c = *cc.def;
        if (c.status == 0 || !cc.inClassGroup) continue;
        if (scaleDenom > 0) {
            if (c.maxScaleDenom > 0 && scaleDenom >= c.maxScaleDenom) continue;
            if (c.minScaleDenom > 0 && scaleDenom < c.minScaleDenom) continue;
        }
        if (cc.expression && !(m_classes[i].expression && m_classes[i].expression->matches(values))) continue;
        return int(i);
    }
    return -1;
}

bool FeatureClassifier::expressionMatches(int cls, const QStringList& values) const
{
    if (!m_compiled || cls < 0 || cls >= m_classes.size()) return false;
    if (!m_compiled->m_classes[cls].expression) return true;
    return m_classes[cls].expression && m_classes[cls].expression->matches(values);
}

QString FeatureClassifier::labelText(int cls, const QStringList& values) const
{
    if (cls >= 0 && cls < m_classes.size() && m_classes[cls].text) return m_classes[cls].text->text(values);
    if (m_labelItem >= 0 && m_labelItem < values.size()) return values[m_labelItem];
    return {};
}

}  // namespace maptune
