#include "render/feature_classifier.h"

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

bool FeatureClassifier::compile(const LayerDef& layer, QString* error)
{
    m_layer = &layer;
    QString err;
    if (layer.filter.isSet()) {
        m_filter = Expression::compile(layer.filter, &err);
        if (!m_filter) {
            if (error) *error = QStringLiteral("layer '%1': FILTER: %2").arg(layer.name, err);
            return false;
        }
        for (const QString& a : m_filter->attributes()) addUnique(m_attributes, a);
        if (layer.filter.type != ExpressionDef::Type::Logical) addUnique(m_attributes, layer.filterItem);
    }
    addUnique(m_attributes, layer.labelItem);
    for (const ClassDef& c : layer.classes) {
        CompiledClass cc;
        cc.def = &c;
        if (c.expression.isSet()) {
            cc.expression = Expression::compile(c.expression, &err);
            if (!cc.expression) {
                if (error)
                    *error = QStringLiteral("layer '%1' class '%2': EXPRESSION: %3").arg(layer.name, c.name, err);
                return false;
            }
            for (const QString& a : cc.expression->attributes()) addUnique(m_attributes, a);
            if (c.expression.type != ExpressionDef::Type::Logical) addUnique(m_attributes, layer.classItem);
        }
        if (c.text.isSet()) {
            cc.text = Expression::compile(c.text, &err);
            if (cc.text)
                for (const QString& a : cc.text->attributes()) addUnique(m_attributes, a);
        }
        for (const StyleDef& s : c.styles) addBindings(m_attributes, s);
        for (const LabelDef& l : c.labels) {
            addUnique(m_attributes, l.size.attribute);
            addUnique(m_attributes, l.angle.attribute);
            addUnique(m_attributes, l.color.attribute);
            if (l.text.isSet()) {
                if (auto t = Expression::compile(l.text, &err))
                    for (const QString& a : t->attributes()) addUnique(m_attributes, a);
            }
        }
        m_classes << cc;
    }
    return true;
}

bool FeatureClassifier::bind(const QStringList& fields, QString* error)
{
    m_fields = fields;
    QString err;
    if (m_filter) {
        m_boundFilter = m_filter->bind(fields, m_layer->filterItem, &err);
        if (!m_boundFilter) {
            if (error) *error = QStringLiteral("layer '%1': FILTER: %2").arg(m_layer->name, err);
            return false;
        }
    }
    for (CompiledClass& cc : m_classes) {
        if (cc.expression) {
            cc.bound = cc.expression->bind(fields, m_layer->classItem, &err);
            if (!cc.bound) {
                if (error)
                    *error = QStringLiteral("layer '%1' class '%2': EXPRESSION: %3").arg(m_layer->name, cc.def->name, err);
                return false;
            }
        }
        if (cc.text) cc.boundText = cc.text->bind(fields, {}, &err);
    }
    m_labelItem = -1;
    for (qsizetype i = 0; i < fields.size(); ++i)
        if (fields[i].compare(m_layer->labelItem, Qt::CaseInsensitive) == 0) m_labelItem = int(i);
    return true;
}

bool FeatureClassifier::passesFilter(const QStringList& values) const
{
    return !m_boundFilter || m_boundFilter->matches(values);
}

int FeatureClassifier::classify(const QStringList& values, double scaleDenom) const
{
    for (qsizetype i = 0; i < m_classes.size(); ++i) {
        const CompiledClass& cc = m_classes[i];
        const ClassDef& c = *cc.def;
        if (c.status == 0) continue;
        if (scaleDenom > 0) {
            if (c.maxScaleDenom > 0 && scaleDenom >= c.maxScaleDenom) continue;
            if (c.minScaleDenom > 0 && scaleDenom < c.minScaleDenom) continue;
        }
        if (cc.expression && !(cc.bound && cc.bound->matches(values))) continue;
        return int(i);
    }
    return -1;
}

QString FeatureClassifier::labelText(int cls, const QStringList& values) const
{
    if (cls >= 0 && cls < m_classes.size() && m_classes[cls].boundText) return m_classes[cls].boundText->text(values);
    if (m_labelItem >= 0 && m_labelItem < values.size()) return values[m_labelItem];
    return {};
}

}  // namespace maptune
