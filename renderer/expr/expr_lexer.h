#pragma once
// Internal: splits a logical expression into tokens, as MapServer's msyylex
// does in its EXPRESSION_STRING state (words are case-insensitive).

#include <QList>
#include <QString>

namespace maptune {

enum class TokenKind {
    End,
    Number,       // 12, 1.5, .5, 1e3
    String,       // 'text' or "text"
    Time,         // `2010-12-01`
    AttrNumber,   // [name]
    AttrString,   // '[name]' or "[name]"
    AttrTime,     // `[name]`
    Boolean,      // true / false (number = 1 / 0)
    Function,     // length, tostring, ... (text = lower-case name)
    LParen, RParen, Comma,
    Or, And, Not,
    Eq, Ne, Lt, Gt, Le, Ge, IEq, Re, IRe, In,
    Plus, Minus, Star, Slash, Percent, Caret,
};

struct ExprToken {
    TokenKind kind = TokenKind::End;
    int column = 0;   // 1-based
    QString text;     // as written (unescaped for strings; attribute name for Attr*)
    double number = 0;
};

struct LexResult {
    QList<ExprToken> tokens;  // ends with an End token
    QString error;        // empty when lexing succeeded
};

// `shapes`: a GEOMTRANSFORM expression, where [shape], [map_cellsize] and
// [data_cellsize] are bindings (AttrNumber tokens) and the geometry
// functions (buffer, densify, centerline, ...) are Function tokens.
LexResult lexExpression(const QString& text, bool shapes = false);

// How a token reads in messages: "')'", "end of expression", "'[name]'".
QString describeToken(const ExprToken& token);

}  // namespace maptune
