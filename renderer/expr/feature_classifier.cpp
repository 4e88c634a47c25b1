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

std::shared_ptr<const LayerExpressions> LayerExpressions::compile(const LayerDef& layer, QString* error)
{
    auto out = std::make_shared<LayerExpressions>();
    out->m_layer = &layer;
    QStringList& attributes = out->m_attributes;
    QString err;
    if (layer.filter.isSet()) {
        out->m_filter = Expression::compile(layer.filter, &err);
        if (!out->m_filter) {
            if (error) *error = QStringLiteral("layer '%1': FILTER: %2").arg(layer.name, err);
            return nullptr;
        }
        for (const QString& a : out->m_filter->attributes()) addUnique(attributes, a);
        if (layer.filter.type != ExpressionDef::Type::Logical) addUnique(attributes, layer.filterItem);
    }
    addUnique(attributes, layer.labelItem);
    for (const ClassDef& c : layer.classes) {
        CompiledClass cc;
        cc.def = &c;
        if (c.expression.isSet()) {
            cc.expression = Expression::compile(c.expression, &err);
            if (!cc.expression) {
                if (error)
                    *error = QStringLiteral("layer '%1' class '%2': EXPRESSION: %3").arg(layer.name, c.name, err);
                return nullptr;
            }
            for (const QString& a : cc.expression->attributes()) addUnique(attributes, a);
            if (c.expression.type != ExpressionDef::Type::Logical) addUnique(attributes, layer.classItem);
        }
        if (c.text.isSet()) {
            cc.text = Expression::compile(c.text, &err);
            if (cc.text)
                for (const QString& a : cc.text->attributes()) addUnique(attributes, a);
        }
        for (const StyleDef& s : c.styles) addBindings(attributes, s);
        for (const LabelDef& l : c.labels) {
            addUnique(attributes, l.size.attribute);
            addUnique(attributes, l.angle.attribute);
            addUnique(attributes, l.color.attribute);
            if (l.text.isSet()) {
                if (auto t = Expression::compile(l.text, &err))
                    for (const QString& a : t->attributes()) addUnique(attributes, a);
            }
        }
        out->m_classes << cc;
    }
    return out;
}

bool FeatureClassifier::compile(const LayerDef& layer, QString* error)
{
    m_compiled = LayerExpressions::compile(layer, error);
    return m_compiled != nullptr;
}

bool FeatureClassifier::bind(const QStringList& fields, QString* error)
{
    if (!m_compiled) {
        if (error) *error = QStringLiteral("the layer's expressions are not compiled");
        return false;
    }
    const LayerDef& layer = *m_compiled->m_layer;
    QString err;
    m_filter.reset();
    if (m_compiled->m_filter) {
        m_filter = m_compiled->m_filter->bind(fields, layer.filterItem, &err);
        if (!m_filter) {
            if (error) *error = QStringLiteral("layer '%1': FILTER: %2").arg(layer.name, err);
            return false;
        }
    }
    m_classes.clear();
    for (const LayerExpressions::CompiledClass& cc : m_compiled->m_classes) {
        BoundClass bc;
        if (cc.expression) {
            bc.expression = cc.expression->bind(fields, layer.classItem, &err);
            if (!bc.expression) {
                if (error)
                    *error = QStringLiteral("layer '%1' class '%2': EXPRESSION: %3").arg(layer.name, cc.def->name, err);
                return false;
            }
        }
        if (cc.text) bc.text = cc.text->bind(fields, {}, &err);
        m_classes << bc;
    }
    m_labelItem = -1;
    for (qsizetype i = 0; i < fields.size(); ++i)
        if (fields[i].compare(layer.labelItem, Qt::CaseInsensitive) == 0) m_labelItem = int(i);
    return true;
}

bool FeatureClassifier::passesFilter(const QStringList& values) const
{
    return !m_filter || m_filter->matches(values);
}

int FeatureClassifier::classify(const QStringList& values, double scaleDenom) const
{
    if (!m_compiled) return -1;
    for (qsizetype i = 0; i < m_classes.size(); ++i) {
        const LayerExpressions::CompiledClass& cc = m_compiled->m_classes[i];
        const ClassDef& c = *cc.def;
        if (c.status == 0) continue;
        if (scaleDenom > 0) {
            if (c.maxScaleDenom > 0 && scaleDenom >= c.maxScaleDenom) continue;
            if (c.minScaleDenom > 0 && scaleDenom < c.minScaleDenom) continue;
        }
        if (cc.expression && !(m_classes[i].expression && m_classes[i].expression->matches(values))) continue;
        return int(i);
    }
    return -1;
}

QString FeatureClassifier::labelText(int cls, const QStringList& values) const
{
    if (cls >= 0 && cls < m_classes.size() && m_classes[cls].text) return m_classes[cls].text->text(values);
    if (m_labelItem >= 0 && m_labelItem < values.size()) return values[m_labelItem];
    return {};
}

}  // namespace maptune
