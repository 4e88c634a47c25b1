#include "expr/expression.h"

#include "expr/expr_evaluator.h"
#include "expr/expr_parser.h"
#include "expr/expr_strings.h"
#include "expr/expression_data.h"

#include <atomic>

namespace maptune {
namespace {

using Type = ExpressionDef::Type;

using exprstr::fieldIndex;

QString unknownAttribute(const QString& what, const QString& name, const QStringList& fields)
{
    QStringList shown = fields.mid(0, 12);
    if (fields.size() > shown.size()) shown.append(QStringLiteral("..."));
    return QStringLiteral("%1 '%2' is not a field of the data (fields: %3)")
        .arg(what, name, shown.isEmpty() ? QStringLiteral("none") : shown.join(QStringLiteral(", ")));
}

// Splits TEXT-style strings at their [name] tokens, as MapServer's
// tokenizer finds bindings in a String expression.
void buildTemplate(ExpressionData& d)
{
    const QString& t = d.text;
    qsizetype pos = 0;
    QString literal;
    while (pos < t.size()) {
        const qsizetype open = t.indexOf(u'[', pos);
        const qsizetype close = open < 0 ? -1 : t.indexOf(u']', open + 1);
        if (open < 0 || close < 0) break;
        if (close == open + 1) {  // "[]" is plain text
            literal += QStringView(t).mid(pos, close + 1 - pos);
            pos = close + 1;
            continue;
        }
        literal += QStringView(t).mid(pos, open - pos);
        const QString name = t.mid(open + 1, close - open - 1);
        qsizetype slot = d.attributes.indexOf(name);
        if (slot < 0) {
            d.attributes.append(name);
            slot = d.attributes.size() - 1;
        }
        d.templ.push_back({literal, int(slot), t.mid(open, close + 1 - open)});
        literal.clear();
        pos = close + 1;
    }
    literal += QStringView(t).mid(pos);
    d.templ.push_back({literal, -1, {}});
}

Status compileLogical(ExpressionData& d)
{
    ParseResult parsed = parseLogicalExpression(d.text);
    if (!parsed.program) return Error(parsed.error);
    d.warning = parsed.typeError;
    d.attributes = parsed.program->attributes;
    d.program = std::move(parsed.program);
    return {};
}

}  // namespace

// ---- Expression -------------------------------------------------------------

Expression::Expression() : m_data(std::make_shared<ExpressionData>()) {}

namespace {
std::atomic<qint64> g_compiles{0};
}  // namespace

qint64 Expression::compileCount()
{
    return g_compiles.load(std::memory_order_relaxed);
}

Result<Expression> Expression::compile(const ExpressionDef& def)
{
    g_compiles.fetch_add(1, std::memory_order_relaxed);
    auto data = std::make_shared<ExpressionData>();
    data->type = def.type;
    data->text = def.text;
    switch (def.type) {
    case Type::None:
        break;
    case Type::String:
    case Type::IString:
        buildTemplate(*data);
        break;
    case Type::Regex:
    case Type::IRegex:
        data->regex = compilePosixRegex(def.text, def.type == Type::IRegex);
        if (!data->regex.isValid())
            return Error(QStringLiteral("invalid regular expression /%1/: %2 at column %3")
                             .arg(def.text, data->regex.errorString())
                             .arg(data->regex.patternErrorOffset() + 1));
        break;
    case Type::List:
        data->listItems = def.text.split(u',');
        break;
    case Type::Logical:
        if (Status logical = compileLogical(*data); !logical) return logical.error();
        break;
    }
    Expression e;
    e.m_data = std::move(data);
    return e;
}

bool Expression::isSet() const { return m_data->type != Type::None; }
ExpressionDef::Type Expression::type() const { return m_data->type; }
const QString& Expression::text() const { return m_data->text; }
QStringList Expression::attributes() const { return m_data->attributes; }
QString Expression::warning() const { return m_data->warning; }

Result<BoundExpression> Expression::bind(const QStringList& fields, const QString& itemName) const
{
    auto failWith = [](const QString& message) -> Result<BoundExpression> { return Error(message); };
    BoundExpression b;
    b.m_data = m_data;
    const Type t = m_data->type;
    const bool usesItem = t == Type::String || t == Type::IString || t == Type::Regex || t == Type::IRegex || t == Type::List;
    if (usesItem && !itemName.isEmpty()) {
        b.m_itemIndex = fieldIndex(fields, itemName);
        if (b.m_itemIndex < 0) return failWith(unknownAttribute(QStringLiteral("item"), itemName, fields));
    } else if (usesItem && t != Type::String && t != Type::IString) {
        return failWith(QStringLiteral("a regular expression or list expression needs CLASSITEM or FILTERITEM"));
    }
    for (const QString& name : m_data->attributes) {
        const int index = fieldIndex(fields, name);
        // Unknown [tokens] in a TEXT string stay as written, as in MapServer.
        if (index < 0 && t == Type::Logical) return failWith(unknownAttribute(QStringLiteral("attribute"), name, fields));
        b.m_fieldOfSlot.append(index);
    }
    return b;
}

// ---- BoundExpression --------------------------------------------------------

BoundExpression::BoundExpression() : m_data(std::make_shared<ExpressionData>()) {}

std::optional<int> BoundExpression::soleItem() const
{
    switch (m_data->type) {
    case Type::String:
    case Type::IString:
    case Type::Regex:
    case Type::IRegex:
    case Type::List:
        return m_itemIndex;
    default:
        return std::nullopt;
    }
}

bool BoundExpression::matches(const AttributeValues& values) const
{
    const ExpressionData& d = *m_data;
    const QString& item = (m_itemIndex >= 0 && m_itemIndex < values.size()) ? values[m_itemIndex] : QString();
    switch (d.type) {
    case Type::None:
        return true;
    case Type::String:
    case Type::IString:
        if (m_itemIndex < 0) return false;  // "no item index defined"
        // operator== tests the lengths first: most classes fail there.
        return d.type == Type::String ? item == d.text : item.compare(d.text, Qt::CaseInsensitive) == 0;
    case Type::Regex:
    case Type::IRegex:
        return m_itemIndex >= 0 && !item.isEmpty() && d.regex.match(item).hasMatch();
    case Type::List:
        return m_itemIndex >= 0 && d.listItems.contains(item);
    case Type::Logical: {
        if (!d.warning.isEmpty()) return false;
        ExprEvaluator ev(*d.program, m_fieldOfSlot, values);
        const ExprNode& root = d.program->nodes[size_t(d.program->root)];
        bool result = false;
        if (root.type == ValueType::String) {
            ev.asString(d.program->root);  // any string is true, unless it fails
            result = true;
        } else if (root.type == ValueType::Number) {
            result = ev.asNumber(d.program->root) != 0;
        } else {
            result = ev.asBool(d.program->root);
        }
        return result && !ev.failed();
    }
    }
    return false;
}

QString BoundExpression::text(const AttributeValues& values) const
{
    const ExpressionData& d = *m_data;
    if (d.type == Type::Logical) {
        if (!d.warning.isEmpty()) return {};
        ExprEvaluator ev(*d.program, m_fieldOfSlot, values);
        QString s = ev.asString(d.program->root);
        return ev.failed() ? QString() : s;
    }
    if (d.templ.empty()) return d.text;
    QString out;
    for (const TemplatePart& part : d.templ) {
        out += part.literal;
        if (part.slot < 0) continue;
        const int field = m_fieldOfSlot.value(part.slot, -1);
        if (field < 0)
            out += part.token;
        else if (field < values.size())
            out += values[field];
    }
    return out;
}

double BoundExpression::number(const AttributeValues& values, bool* ok) const
{
    const ExpressionData& d = *m_data;
    bool good = false;
    double v = 0;
    if (d.type == Type::Logical && d.warning.isEmpty()) {
        ExprEvaluator ev(*d.program, m_fieldOfSlot, values);
        const int root = d.program->root;
        switch (d.program->nodes[size_t(root)].type) {
        case ValueType::Number: v = ev.asNumber(root); good = true; break;
        case ValueType::Bool: v = ev.asBool(root) ? 1 : 0; good = true; break;
        case ValueType::String: v = exprstr::leadingNumber(ev.asString(root), &good); break;
        case ValueType::Time: break;
        }
        good = good && !ev.failed();
    } else if (d.type != Type::Logical && d.type != Type::None) {
        v = exprstr::leadingNumber(text(values), &good);
    }
    if (ok) *ok = good;
    return good ? v : 0;
}

QString substituteAttributes(const QString& templ, const QStringList& fields, const AttributeValues& values)
{
    QString out;
    out.reserve(templ.size());
    qsizetype pos = 0;
    while (pos < templ.size()) {
        const qsizetype open = templ.indexOf(u'[', pos);
        const qsizetype close = open < 0 ? -1 : templ.indexOf(u']', open + 1);
        if (open < 0 || close < 0) break;
        out += QStringView(templ).mid(pos, open - pos);
        const int field = fieldIndex(fields, templ.mid(open + 1, close - open - 1));
        if (field >= 0 && field < values.size())
            out += values[field];
        else if (field < 0)
            out += QStringView(templ).mid(open, close + 1 - open);
        pos = close + 1;
    }
    out += QStringView(templ).mid(pos);
    return out;
}

}  // namespace maptune
