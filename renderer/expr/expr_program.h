#pragma once
// Internal: a compiled logical expression. Nodes live in one vector and refer
// to each other by index; every node's result type is fixed at compile time
// because MapServer's grammar types values lexically ([a] is a number, '[a]'
// a string, `[a]` a time).

#include "expr/expr_time.h"

#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <vector>

namespace maptune {

enum class ValueType : quint8 { Bool, Number, String, Time };

enum class OpCode : quint8 {
    // leaves
    LitBool, LitNumber, LitString, LitTime,
    AttrNumber, AttrString, AttrTime,
    // unary
    Not, Neg,
    // binary
    And, Or, Add, Sub, Mul, Div, Mod, Pow, Concat,
    Eq, Ne, Lt, Gt, Le, Ge, IEq, Re, IRe, In,
    // functions
    Length, ToString, Commify, Upper, Lower, InitCap, FirstCap, Round,
};

struct ExprNode {
    OpCode op = OpCode::LitBool;
    ValueType type = ValueType::Bool;      // result
    ValueType operandType = ValueType::Bool;  // comparisons: the type compared
    int lhs = -1;
    int rhs = -1;
    int slot = -1;      // Attr*: attribute slot; Re/IRe: precompiled regex index
    int column = 0;     // 1-based, for diagnostics
    double number = 0;  // LitNumber, LitBool
    QString string;     // LitString
    ExprTime time;      // LitTime
    QStringList list;   // In with a literal list
    std::vector<double> numbers;  // In with a literal list, numeric left side
};

struct ExprProgram {
    std::vector<ExprNode> nodes;
    int root = -1;
    QStringList attributes;                 // slot -> attribute name as written
    std::vector<QRegularExpression> regexes;  // literal patterns, compiled once
};

// Regex options matching regcomp(REG_EXTENDED | REG_NOSUB [| REG_ICASE]).
QRegularExpression compilePosixRegex(const QString& pattern, bool caseInsensitive);

}  // namespace maptune
