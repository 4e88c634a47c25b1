// The expression language: compile, bind to a fixed schema, evaluate on a
// fixed feature. The first input byte picks the expression form (mostly
// logical), the rest is the text as it would stand in a mapfile.

#include "fuzz_targets.h"

#include "expr/expression.h"

#include <QString>

namespace maptune::fuzz {

int expr(const uint8_t* data, size_t size)
{
    if (size < 1) return -1;
    static const ExpressionDef::Type forms[] = {
        ExpressionDef::Type::Logical, ExpressionDef::Type::Logical, ExpressionDef::Type::Logical,
        ExpressionDef::Type::String, ExpressionDef::Type::IString, ExpressionDef::Type::Regex,
        ExpressionDef::Type::IRegex, ExpressionDef::Type::List,
    };
    ExpressionDef def;
    def.type = forms[data[0] % (sizeof forms / sizeof forms[0])];
    def.text = QString::fromUtf8(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));

    const auto compiled = Expression::compile(def);
    if (!compiled) {
        check(!compiled.message().isEmpty(), "a failed compile says why");
        return 0;
    }
    compiled->attributes();
    compiled->warning();
    // The schema and first feature of tests/expr, so its expressions seed the corpus.
    static const QStringList fields = {"CTY_NAME", "CTY_ABBR", "POP", "AREA", "LASTMOD", "NAME",
                                       "EMPTY", "NEG", "DATE8", "CODE", "ZERO", "NUMSTR"};
    static const QList<AttributeValues> features = {
        {"Itasca", "ITAS", "45058", "7.5", "2011-03-04 10:00:00", "lake of the woods", "", "-3.5", "20101201", "a.b",
         "0", "  12abc"},
        {"\u00e9t\u00e9 [x]", "", "-0", "1e308", "9999-99-99", "%s%n", " ", "nan", "-20101201", "", "inf", "0x1F"},
    };
    const auto bound = compiled->bind(fields, QStringLiteral("CTY_NAME"));
    if (!bound) return 0;
    for (const AttributeValues& values : features) {
        bound->matches(values);
        bound->text(values);
        bool ok = false;
        bound->number(values, &ok);
        substituteAttributes(def.text, fields, values);
    }
    return 0;
}

}  // namespace maptune::fuzz
