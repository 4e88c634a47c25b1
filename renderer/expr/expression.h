#pragma once
// MapServer's expression language: CLASS EXPRESSION, LAYER FILTER, LABEL
// EXPRESSION and TEXT. Compile once per layer, bind once per data schema,
// evaluate per feature.
//
//   auto expr = Expression::compile(classDef.expression);
//   auto bound = expr->bind(fields, layer.classItem);  // each: if (!r) r.message()
//   for (feature : features) if (bound->matches(feature.values)) ...
//
// Typing follows MapServer's grammar, where a value's type comes from how it
// is written: [a] is a number, '[a]' and "[a]" a string, `[a]` a time.
// ([a] = 5) compares numbers, ('[a]' = '5') strings; ([a] = 'x') is a type
// error (compiles, with warning(), and never matches, as in MapServer).

#include "core/result.h"
#include "mapfile/expression_def.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace maptune {

// Attribute values of one feature, in the order of the field list given to bind().
using AttributeValues = QList<QString>;

struct ExpressionData;
class BoundExpression;

// An expression compiled from its mapfile form. Immutable; copies are cheap
// (shared) and may be used from several threads.
class Expression {
public:
    Expression();  // not set: binds to an expression that matches everything

    // Fails on syntax errors with a message naming the column within def.text
    // (1-based), e.g. "unexpected ')' at column 12".
    static Result<Expression> compile(const ExpressionDef& def);
    // Compiles so far in this process: tests and benchmarks show that a
    // prepared map compiles once per load, not once per request.
    static qint64 compileCount();

    bool isSet() const;
    ExpressionDef::Type type() const;
    const QString& text() const;

    // Attribute names referenced, as written ("[CTY_NAME]" -> "CTY_NAME"),
    // without duplicates. For String types these are the [name] tokens of the
    // text (used by TEXT templates). CLASSITEM / FILTERITEM are not included.
    QStringList attributes() const;

    // Non-empty when the expression parsed but can never evaluate, e.g. it
    // compares a number with a string; it then never matches.
    QString warning() const;

    // Resolves attribute names against a field list (case-insensitive).
    // itemName is CLASSITEM / FILTERITEM / LABELITEM for the String, Regex and
    // List forms. Errors: an attribute or item not in fields; a Regex or List
    // form without item. A String form without item binds (it is then a TEXT
    // template) but never matches, as in MapServer.
    Result<BoundExpression> bind(const QStringList& fields, const QString& itemName = {}) const;

private:
    std::shared_ptr<const ExpressionData> m_data;
};

// An expression bound to one schema. Immutable and thread-safe to evaluate.
class BoundExpression {
public:
    BoundExpression();  // matches everything, text() empty

    // CLASS EXPRESSION / FILTER semantics. An expression that is not set
    // matches; evaluation errors (division by zero, an unparsable time
    // value) do not.
    bool matches(const AttributeValues& values) const;

    // TEXT evaluation: a logical expression's value as text ("true"/"false",
    // numbers as %g, strings as they are); other forms substitute [attr]
    // tokens. Empty on evaluation errors.
    QString text(const AttributeValues& values) const;

    // Numeric value of a logical expression (booleans are 1/0, strings are
    // read as numbers); *ok false on errors or when the value is not numeric.
    double number(const AttributeValues& values, bool* ok = nullptr) const;

    // The index in values of the one attribute matches() reads (CLASSITEM /
    // FILTERITEM forms: string, regex, list; -1 when bound without one), or
    // nullopt when it may read others (logical) or none (not set).
    std::optional<int> soleItem() const;

private:
    friend class Expression;
    std::shared_ptr<const ExpressionData> m_data;
    QList<int> m_fieldOfSlot;  // attribute slot -> index in values (-1: unknown)
    int m_itemIndex = -1;
};

// CLASS TEXT / LABEL TEXT given as a plain string "[name] ([pop])": replaces
// each [attr] whose name is in fields (case-insensitive) by its value; other
// bracketed text is kept.
QString substituteAttributes(const QString& templ, const QStringList& fields, const AttributeValues& values);

}  // namespace maptune
