#pragma once
// Internal: what Expression shares with its BoundExpressions.

#include "expr/expr_program.h"
#include "mapfile/expression_def.h"

#include <memory>

namespace maptune {

// A String-form text split at its [attr] tokens: literal, slot, literal, ...
struct TemplatePart {
    QString literal;  // text before the token (or the tail when slot < 0)
    int slot = -1;    // attribute slot of the token that follows, -1 at the end
    QString token;    // the token as written, "[name]", used when unbound
};

struct ExpressionData {
    ExpressionDef::Type type = ExpressionDef::Type::None;
    QString text;
    QString warning;
    QStringList attributes;                  // slot -> name as written
    std::shared_ptr<const ExprProgram> program;  // Logical
    QRegularExpression regex;                // Regex / IRegex
    QStringList listItems;                   // List
    std::vector<TemplatePart> templ;         // String / IString (TEXT use)
};

}  // namespace maptune
