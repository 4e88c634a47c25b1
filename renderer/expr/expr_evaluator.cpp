#include "expr/expr_evaluator.h"

#include "expr/expr_strings.h"

#include <QHash>

#include <cmath>

namespace maptune {
namespace {

const QString& emptyString()
{
    static const QString empty;
    return empty;
}

// Patterns that come from feature values are compiled on first use; the
// cache is per thread so evaluation needs no lock.
const QRegularExpression& cachedRegex(const QString& pattern, bool caseInsensitive)
{
    thread_local QHash<QString, QRegularExpression> cache[2];
    QHash<QString, QRegularExpression>& c = cache[caseInsensitive ? 1 : 0];
    auto it = c.constFind(pattern);
    if (it != c.constEnd()) return *it;
    if (c.size() >= 256) c.clear();
    return *c.insert(pattern, compilePosixRegex(pattern, caseInsensitive));
}

template <typename T>
bool ordered(OpCode op, const T& c)  // c: <0, 0, >0 like strcmp
{
    switch (op) {
    case OpCode::Eq:
    case OpCode::IEq: return c == 0;
    case OpCode::Ne: return c != 0;
    case OpCode::Lt: return c < 0;
    case OpCode::Gt: return c > 0;
    case OpCode::Le: return c <= 0;
    case OpCode::Ge: return c >= 0;
    default: return false;
    }
}

}  // namespace

const QString& ExprEvaluator::attribute(int slot) const
{
    const int field = m_fieldOfSlot.value(slot, -1);
    if (field < 0 || field >= m_values.size()) return emptyString();
    return m_values[field];
}

const QString& ExprEvaluator::stringRef(int i, QString& scratch)
{
    const ExprNode& n = node(i);
    if (n.op == OpCode::LitString) return n.string;
    if (n.op == OpCode::AttrString) return attribute(n.slot);
    scratch = asString(i);
    return scratch;
}

bool ExprEvaluator::truth(int i)
{
    return node(i).type == ValueType::Number ? asNumber(i) != 0 : asBool(i);
}

bool ExprEvaluator::asBool(int i)
{
    const ExprNode& n = node(i);
    switch (n.op) {
    case OpCode::LitBool: return n.number != 0;
    case OpCode::Not: return !truth(n.lhs);
    // Short-circuit: MapServer evaluates both sides, which only differs when
    // the skipped side would have failed.
    case OpCode::And: return truth(n.lhs) && truth(n.rhs);
    case OpCode::Or: return truth(n.lhs) || truth(n.rhs);
    case OpCode::Re:
    case OpCode::IRe: return regexMatch(n);
    case OpCode::In: return inList(n);
    default: break;
    }
    if (n.op >= OpCode::Eq && n.op <= OpCode::IEq) return compare(n);
    if (n.type == ValueType::Number) return asNumber(i) != 0;
    if (n.type == ValueType::String) return true;  // MapServer: a string is "not NULL"
    return fail();
}

bool ExprEvaluator::compare(const ExprNode& n)
{
    switch (n.operandType) {
    case ValueType::Number: {
        const double a = asNumber(n.lhs), b = asNumber(n.rhs);
        switch (n.op) {  // direct operators keep C's NaN behaviour
        case OpCode::Eq: case OpCode::IEq: return a == b;
        case OpCode::Ne: return a != b;
        case OpCode::Lt: return a < b;
        case OpCode::Gt: return a > b;
        case OpCode::Le: return a <= b;
        case OpCode::Ge: return a >= b;
        default: return fail();
        }
    }
    case ValueType::String: return compareStrings(n);
    case ValueType::Time: return ordered(n.op, asTime(n.lhs).compare(asTime(n.rhs)));
    case ValueType::Bool: {
        const bool a = asBool(n.lhs), b = asBool(n.rhs);
        return ordered(n.op, a == b ? 0 : 1);
    }
    }
    return fail();
}

bool ExprEvaluator::compareStrings(const ExprNode& n)
{
    QString sa, sb;
    const QString& a = stringRef(n.lhs, sa);
    const QString& b = stringRef(n.rhs, sb);
    if (n.op == OpCode::Eq) return a == b;
    if (n.op == OpCode::Ne) return a != b;
    const Qt::CaseSensitivity cs = n.op == OpCode::IEq ? Qt::CaseInsensitive : Qt::CaseSensitive;
    return ordered(n.op, QString::compare(a, b, cs));
}

bool ExprEvaluator::regexMatch(const ExprNode& n)
{
    QString sa, sb;
    const QString& subject = stringRef(n.lhs, sa);
    if (subject.isEmpty()) return false;  // as MapServer: an empty value never matches
    if (n.slot >= 0) return m_prog.regexes[size_t(n.slot)].match(subject).hasMatch();
    const QRegularExpression& re = cachedRegex(stringRef(n.rhs, sb), n.op == OpCode::IRe);
    return re.isValid() && re.match(subject).hasMatch();
}

bool ExprEvaluator::inList(const ExprNode& n)
{
    QString sb;
    const bool literal = !n.list.isEmpty();
    const QStringList dynamicList = literal ? QStringList() : stringRef(n.rhs, sb).split(u',');
    const QStringList& list = literal ? n.list : dynamicList;
    if (n.operandType == ValueType::Number) {
        const double v = asNumber(n.lhs);
        for (qsizetype k = 0; k < list.size(); ++k) {
            const double item = literal ? n.numbers[size_t(k)] : exprstr::leadingNumber(list[k]);
            if (item == v) return true;
        }
        return false;
    }
    QString sa;
    return list.contains(stringRef(n.lhs, sa));
}

double ExprEvaluator::asNumber(int i)
{
    const ExprNode& n = node(i);
    switch (n.op) {
    case OpCode::LitNumber: return n.number;
    case OpCode::AttrNumber: return exprstr::leadingNumber(attribute(n.slot));
    case OpCode::Neg: return -asNumber(n.lhs);
    case OpCode::Length: {
        QString s;
        return double(stringRef(n.lhs, s).toUtf8().size());  // strlen(): bytes
    }
    case OpCode::Round: {
        const double v = asNumber(n.lhs);
        const double base = n.rhs >= 0 ? asNumber(n.rhs) : 1.0;
        if (base == 0) return fail();
        return std::round(v / base) * base;  // MS_NINT rounds half away from zero
    }
    default: return arithmetic(n);
    }
}

double ExprEvaluator::arithmetic(const ExprNode& n)
{
    if (n.type != ValueType::Number) return fail();
    const double a = asNumber(n.lhs), b = asNumber(n.rhs);
    switch (n.op) {
    case OpCode::Add: return a + b;
    case OpCode::Sub: return a - b;
    case OpCode::Mul: return a * b;
    case OpCode::Div:
        if (b == 0) return fail();  // "Division by zero."
        return a / b;
    case OpCode::Mod: {
        // MapServer: (int)a % (int)b.
        if (!std::isfinite(a) || !std::isfinite(b) || std::fabs(a) >= 2147483648.0 || std::fabs(b) >= 2147483648.0)
            return fail();
        const int ib = int(b);
        if (ib == 0) return fail();
        return double(int(a) % ib);
    }
    case OpCode::Pow: return std::pow(a, b);
    default: return fail();
    }
}

QString ExprEvaluator::asString(int i)
{
    const ExprNode& n = node(i);
    switch (n.op) {
    case OpCode::LitString: return n.string;
    case OpCode::AttrString: return attribute(n.slot);
    case OpCode::Concat: {
        QString sa, sb;
        return stringRef(n.lhs, sa) + stringRef(n.rhs, sb);
    }
    default: break;
    }
    switch (n.type) {
    case ValueType::String: return callString(n);
    case ValueType::Number: return exprstr::formatG(asNumber(i));
    case ValueType::Bool: return asBool(i) ? QStringLiteral("true") : QStringLiteral("false");
    case ValueType::Time: break;
    }
    fail();
    return {};
}

QString ExprEvaluator::callString(const ExprNode& n)
{
    if (n.op == OpCode::ToString) {
        const double v = asNumber(n.lhs);
        QString sf;
        auto text = exprstr::formatNumber(stringRef(n.rhs, sf), v);
        if (!text) fail();  // "tostring() failed."
        return text.value_or(QString());
    }
    QString s;
    const QString& arg = stringRef(n.lhs, s);
    switch (n.op) {
    case OpCode::Commify: return exprstr::commify(arg);
    case OpCode::Upper: return arg.toUpper();
    case OpCode::Lower: return arg.toLower();
    case OpCode::InitCap: return exprstr::initCap(arg);
    case OpCode::FirstCap: return exprstr::firstCap(arg);
    default: break;
    }
    fail();
    return {};
}

ExprTime ExprEvaluator::asTime(int i)
{
    const ExprNode& n = node(i);
    if (n.op == OpCode::LitTime) return n.time;
    if (n.op == OpCode::AttrTime) {
        if (auto t = ExprTime::parse(attribute(n.slot))) return *t;
    }
    fail();  // "Parsing time value failed."
    return {};
}

}  // namespace maptune
