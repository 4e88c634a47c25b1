#pragma once
// An EXPRESSION, FILTER or TEXT value as the mapfile writes it.

#include <QString>

namespace maptune {

// An expression as written: the expr module compiles it.
struct ExpressionDef {
    enum class Type {
        None,     // not given
        String,   // "text" or 'text' or bare word: equality with CLASSITEM/FILTERITEM
        IString,  // "text"i
        Regex,    // /re/
        IRegex,   // /re/i
        Logical,  // ( ... )
        List,     // {a,b,c}
    };
    Type type = Type::None;
    QString text;  // without delimiters
    bool isSet() const { return type != Type::None; }
    bool operator==(const ExpressionDef&) const = default;
};

}  // namespace maptune
