// Tests of the MapServer expression language. Expected values come from
// MapServer 8's grammar (mapparser.y), lexer (maplexer.l), msEvalExpression
// (maputil.c), maptime.c and mapstring.cpp, not from running this code.

#include "expr/expression.h"

#include <QFile>
#include <QTest>

#include <atomic>
#include <thread>

using namespace maptune;
using Type = ExpressionDef::Type;

Q_DECLARE_METATYPE(ExpressionDef::Type)

namespace {

// One feature used by most rows.
const QStringList kFields = {"CTY_NAME", "CTY_ABBR", "POP", "AREA", "LASTMOD", "NAME",
                             "EMPTY", "NEG", "DATE8", "CODE", "ZERO", "NUMSTR"};
const AttributeValues kValues = {"Itasca", "ITAS", "45058", "7.5", "2011-03-04 10:00:00", "lake of the woods",
                                 "", "-3.5", "20101201", "a.b", "0", "  12abc"};

BoundExpression bindOrFail(const ExpressionDef& def, const QStringList& fields = kFields, const QString& item = {})
{
    const auto expr = Expression::compile(def);
    if (!expr) qFatal("compile failed for '%s': %s", qPrintable(def.text), qPrintable(expr.message()));
    const auto bound = expr->bind(fields, item);
    if (!bound) qFatal("bind failed for '%s': %s", qPrintable(def.text), qPrintable(bound.message()));
    return *bound;
}

ExpressionDef logical(const QString& text) { return {Type::Logical, text}; }

struct Table {
    QStringList fields;
    QList<AttributeValues> rows;
};

// tests/data/expr/counties.tsv: the attributes of msautotest's bdry_counpy2.dbf.
Table loadCounties()
{
    QFile f(QStringLiteral(MAPTUNE_TEST_DATA "/expr/counties.tsv"));
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot open %s", qPrintable(f.fileName()));
    Table t;
    while (!f.atEnd()) {
        const QString line = QString::fromUtf8(f.readLine()).chopped(1);
        if (line.startsWith(u'#') || line.isEmpty()) continue;
        if (t.fields.isEmpty())
            t.fields = line.split(u'\t');
        else
            t.rows.append(line.split(u'\t'));
    }
    return t;
}

}  // namespace

class TestExpr : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void logicalMatches_data();
    void logicalMatches();
    void text_data();
    void text();
    void number_data();
    void number();
    void compileErrors_data();
    void compileErrors();
    void typeErrorsNeverMatch_data();
    void typeErrorsNeverMatch();
    void simpleForms_data();
    void simpleForms();
    void bindErrors_data();
    void bindErrors();
    void attributes_data();
    void attributes();
    void substitute_data();
    void substitute();
    void filtersMap_data();
    void filtersMap();
    void unsetExpressionMatches();
    void missingValuesDoNotCrash();
    void concurrentEvaluation();
    void benchmarkEvaluate_data();
    void benchmarkEvaluate();
};

namespace {

void row(const char* name, const char* e, bool r)
{
    QTest::newRow(name) << QString::fromUtf8(e) << r;
}

void stringRows()
{
    // String equality: '[attr]' binds the value as a string; strcmp semantics.
    row("str =", "'[CTY_NAME]' = 'Itasca'", true);
    row("str = case", "'[CTY_NAME]' = 'itasca'", false);
    row("str ==", "'[CTY_NAME]' == 'Itasca'", true);
    row("str eq", "'[CTY_NAME]' eq 'Itasca'", true);
    row("str EQ upper", "'[CTY_NAME]' EQ 'Itasca'", true);
    row("str double quotes", "\"[CTY_NAME]\" = \"Itasca\"", true);
    row("str =*", "'[CTY_NAME]' =* 'itasca'", true);
    row("str =* differs", "'[CTY_NAME]' =* 'itasc'", false);
    row("str !=", "'[CTY_NAME]' != 'Itasca'", false);
    row("str ne", "'[CTY_NAME]' ne 'Aitkin'", true);
    row("str <>", "'[CTY_NAME]' <> 'Aitkin'", true);
    row("binding case-insensitive", "'[cty_name]' = 'Itasca'", true);
    row("str <", "'[CTY_NAME]' < 'J'", true);
    row("str lt", "'[CTY_NAME]' lt 'I'", false);
    row("str >", "'[CTY_NAME]' > 'Itasc'", true);
    row("str gt", "'[CTY_NAME]' gt 'Iz'", false);
    row("str <=", "'[CTY_NAME]' <= 'Itasca'", true);
    row("str le", "'[CTY_NAME]' le 'Itasc'", false);
    row("str >=", "'[CTY_NAME]' >= 'Itasca'", true);
    row("str ge", "'[CTY_NAME]' ge 'Iz'", false);
    row("strcmp upper before lower", "'B' > 'a'", false);
    row("strings compare as strings", "'10' < '9'", true);
    row("string 10 vs 10.0", "'10' = '10.0'", false);
    row("escaped quote", "'it\\'s' = \"it's\"", true);
    row("concat", "'[CTY_NAME]' + 'x' = 'Itascax'", true);
    row("two bindings", "'[CTY_ABBR]' + '[CTY_NAME]' = 'ITASItasca'", true);
}

void numberRows()
{
    // Numbers: a bare [attr] is atof() of the value.
    row("num =", "[POP] = 45058", true);
    row("num = decimal", "[POP] = 45058.0", true);
    row("num >", "[POP] > 45000", true);
    row("num <", "[POP] < 45000", false);
    row("num >=", "[POP] >= 45058", true);
    row("num <=", "[POP] <= 45057", false);
    row("num !=", "[POP] != 1", true);
    row("num gt lt and", "[POP] gt 45000 and [AREA] lt 8", true);
    row("num le ge", "[AREA] le 7.5 and [AREA] ge 7.5", true);
    row("num eq ne", "[AREA] eq 7.5 and [AREA] ne 7", true);
    row("negative value", "[NEG] < 0", true);
    row("negative literal", "[NEG] = -3.5", true);
    row("atof prefix", "[NUMSTR] = 12", true);
    row("atof non-number is 0", "[CTY_NAME] = 0", true);
    row("atof empty is 0", "[EMPTY] = 0", true);
    row("numbers 10 vs 10.0", "10 = 10.0", true);
    row("exponent", "1e3 = 1000", true);
    row("leading dot", ".5 = 0.5", true);
    row("=* on numbers", "[POP] =* 45058", true);
}

void regexRows()
{
    // Regular expressions (POSIX extended).
    row("re ~", "'[CTY_NAME]' ~ '^I'", true);
    row("re ~ case", "'[CTY_NAME]' ~ '^i'", false);
    row("re ~*", "'[CTY_NAME]' ~* '^i'", true);
    row("re unanchored", "'[CTY_NAME]' ~ 'asc'", true);
    row("re dot", "'[CODE]' ~ '^a.b$'", true);
    row("re escaped dot", "'[CODE]' ~ '^a\\.b$'", true);
    row("re escaped dot rejects", "'axb' ~ '^a\\.b$'", false);
    row("re posix class", "'[CTY_NAME]' ~ '^[[:upper:]][[:lower:]]+$'", true);
    row("re backslash in bracket is literal", "'5' ~ '^[\\d]$'", false);
    row("re backslash in bracket matches d", "'d' ~ '^[\\d]$'", true);
    row("re alternation", "'[CTY_ABBR]' ~ '^(ANOK|ITAS)$'", true);
    row("re interval", "'[POP]' ~ '^[0-9]{5}$'", true);
    row("re empty value never matches", "'[EMPTY]' ~ '.*'", false);
    row("re pattern from attribute", "'Itasca' ~ '[CTY_ABBR]'", false);
    row("re pattern from attribute icase", "'Itasca' ~* '[CTY_ABBR]'", true);
    row("re word start", "'[NAME]' ~ '\\<woods'", true);
    row("re word start rejects", "'[NAME]' ~ '\\<oods'", false);
}

void inRows()
{
    // IN: the right string is a comma-separated list.
    row("in", "'[CTY_ABBR]' in 'ANOK,ITAS,CARL'", true);
    row("in miss", "'[CTY_ABBR]' in 'ANOK,RAMS,CARL'", false);
    row("IN upper single", "'[CTY_ABBR]' IN 'ITAS'", true);
    row("in partial", "'[CTY_ABBR]' in 'ITA,S'", false);
    row("in case-sensitive", "'[CTY_ABBR]' in 'anok,itas'", false);
    row("in last item", "'[CTY_ABBR]' in 'ANOK,ITAS'", true);
    row("in empty item", "'[EMPTY]' in 'a,,b'", true);
    row("in numeric", "[POP] in '1,45058,3'", true);
    row("in numeric decimal", "[POP] in '45058.0'", true);
    row("in numeric miss", "[POP] in '1,2'", false);
    row("in list from attribute", "'ITAS' in '[CTY_ABBR]'", true);
}

void logicalRows()
{
    // Logical operators and precedence (OR < AND < NOT < comparisons).
    row("true", "true", true);
    row("false", "false", false);
    row("TRUE upper", "TRUE", true);
    row("not", "not false", true);
    row("!", "!true", false);
    row("and", "true and false", false);
    row("&&", "true && true", true);
    row("or", "false or true", true);
    row("||", "false || false", false);
    row("AND/OR upper", "false OR true AND true", true);
    row("not binds looser than =", "not [POP] = 1", true);
    row("and before or", "true or false and false", true);
    row("parens", "(true or false) and false", false);
    row("nested parens", "((([POP] = 45058)))", true);
    row("bool = bool", "true = true", true);
    row("bool = bool false", "true = false", false);
    row("comparison results equal", "([POP] > 1) = ([AREA] > 1)", true);
    row("number as logical zero", "[ZERO]", false);
    row("number as logical", "[POP]", true);
    row("numbers and", "1 and 0", false);
    row("numbers or", "0 or 2", true);
    row("not number", "not 0", true);
    row("mixed and", "[POP] > 1 and 1", true);
    row("string alone is true", "'abc'", true);
    row("empty string alone is true", "'[EMPTY]'", true);
}

void arithmeticRows()
{
    // Arithmetic: + - < * / % < unary minus < ^ (right-associative).
    row("precedence * over +", "1 + 2 * 3 = 7", true);
    row("parens arithmetic", "(1 + 2) * 3 = 9", true);
    row("^ right assoc", "2 ^ 3 ^ 2 = 512", true);
    row("^ over unary minus", "-2 ^ 2 = -4", true);
    row("- left assoc", "10 - 4 - 3 = 3", true);
    row("/ left assoc", "16 / 4 / 2 = 2", true);
    row("%", "7 % 3 = 1", true);
    row("% truncates to int", "7.9 % 3 = 1", true);
    row("/", "9 / 2 = 4.5", true);
    row("unary minus of attribute", "-[NEG] = 3.5", true);
    row("times negative", "2 * -3 = -6", true);
    row("minus without spaces", "[POP]-58 = 45000", true);
    row("arithmetic on attributes", "[POP] / 2 > [AREA] * 1000", true);
    row("division by zero fails", "1 / 0 = 1", false);
    row("division by zero fails whole", "not (1 / 0 = 1)", false);
    row("modulo zero fails", "5 % 0 = 0", false);
}

void functionRows()
{
    // Functions.
    row("length", "length('[CTY_NAME]') = 6", true);
    row("length empty", "length('') = 0", true);
    row("length bytes", "length('\xc3\xa9') = 2", true);  // strlen() counts UTF-8 bytes
    row("upper", "upper('[CTY_NAME]') = 'ITASCA'", true);
    row("lower", "lower('[CTY_ABBR]') = 'itas'", true);
    row("initcap", "initcap('[NAME]') = 'Lake Of The Woods'", true);
    row("firstcap", "firstcap('[NAME]') = 'Lake of the woods'", true);
    row("round", "round(2.5) = 3", true);
    row("round negative half", "round(-2.5) = -3", true);
    row("round base", "round(1234, 100) = 1200", true);
    row("round base up", "round(1250, 100) = 1300", true);
    row("tostring", "tostring([AREA], '%.2f') = '7.50'", true);
    row("commify", "commify('1234567') = '1,234,567'", true);
    row("function names any case", "UPPER('a') = 'A'", true);
}

void timeRows()
{
    // Times: fields compared year..second; missing fields are 0 (day 0!).
    row("time >", "`[LASTMOD]` > `2010-12-01`", true);
    row("time < seconds", "`[LASTMOD]` < `2011-03-04T10:00:01`", true);
    row("time = Z", "`[LASTMOD]` = `2011-03-04T10:00:00Z`", true);
    row("time = date only differs", "`[LASTMOD]` = `2011-03-04`", false);
    row("time = space form", "`[LASTMOD]` eq `2011-03-04 10:00:00`", true);
    row("time != ", "`[LASTMOD]` != `2011-03-04 10:00:00`", false);
    row("time =*", "`[LASTMOD]` =* `2011-03-04 10:00:00`", true);
    row("time ge", "`[LASTMOD]` ge `2011-03-05`", false);
    row("time >= year", "`[LASTMOD]` >= `2011`", true);
    row("time minutes", "`[LASTMOD]` = `2011-03-04T10:00`", true);
    row("time hours", "`[LASTMOD]` <= `2011-03-04 10`", true);
    row("yyyymmdd", "`[DATE8]` = `2010-12-01`", true);
    row("year has day 0", "`2010` < `2010-01-01`", true);
    row("year equals year-month", "`2010` = `2010-01`", true);
    row("time only", "`T10:00:00` = `10:00:00Z`", true);
    row("unparsable time value fails", "`[CTY_NAME]` > `2000`", false);
    row("unparsable time fails whole", "not (`[CTY_NAME]` > `2000`)", false);
}

}  // namespace

void TestExpr::logicalMatches_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<bool>("expected");
    stringRows();
    numberRows();
    regexRows();
    inRows();
    logicalRows();
    arithmeticRows();
    functionRows();
    timeRows();
}

void TestExpr::logicalMatches()
{
    QFETCH(QString, expression);
    QFETCH(bool, expected);
    const BoundExpression b = bindOrFail(logical(expression));
    QCOMPARE(b.matches(kValues), expected);
}

void TestExpr::text_data()
{
    QTest::addColumn<ExpressionDef::Type>("type");
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("expected");
    auto row = [](const char* name, Type t, const char* e, const char* r) {
        QTest::newRow(name) << t << QString::fromUtf8(e) << QString::fromUtf8(r);
    };
    const Type L = Type::Logical;
    row("tostring %.2f", L, "tostring([AREA], '%.2f')", "7.50");
    row("tostring width", L, "tostring([AREA], '%5.1f')", "  7.5");
    row("tostring %d with text", L, "tostring([POP], '%d people')", "45058 people");
    row("tostring %x", L, "tostring(255, '%x')", "ff");
    row("tostring %%", L, "tostring(50, '%d%%')", "50%");
    row("tostring %s rejected", L, "tostring([AREA], '%s')", "");
    row("tostring two conversions rejected", L, "tostring([AREA], '%f %f')", "");
    row("concat", L, "'[CTY_NAME]' + ' x'", "Itasca x");
    row("binding string", L, "\"[NAME]\"", "lake of the woods");
    // Only a whole '[name]' string is a binding (maplexer.l); other text is literal.
    row("brackets inside literal", L, "'[CTY_NAME] County'", "[CTY_NAME] County");
    row("upper", L, "upper('[NAME]')", "LAKE OF THE WOODS");
    row("commify attribute", L, "commify('[POP]')", "45,058");
    row("commify decimals", L, "commify('1234567.891')", "1,234,567.891");
    row("commify negative", L, "commify('-1234')", "-1,234");
    row("commify short", L, "commify('123')", "123");
    row("commify two points", L, "commify('1.2.3')", "1.2.3");
    row("initcap spaces", L, "initcap('hello  wORLD')", "Hello  World");
    row("firstcap leading blanks", L, "firstcap('  hello World')", "  Hello world");
    row("number %g", L, "[POP] * 2", "90116");
    row("number fraction", L, "[AREA] / 3", "2.5");
    row("number %g precision", L, "1 / 3", "0.333333");
    row("number %g exponent", L, "1e20", "1e+20");
    row("round", L, "round([AREA])", "8");
    row("length", L, "length('[NAME]')", "17");
    row("bool true", L, "[POP] > 1", "true");
    row("bool false", L, "[POP] < 1", "false");
    row("error is empty", L, "1 / 0", "");
    row("empty plus value", L, "'[EMPTY]' + '[CTY_ABBR]'", "ITAS");
    row("string template", Type::String, "[CTY_NAME] ([POP])", "Itasca (45058)");
    row("string template case", Type::String, "[cty_name]", "Itasca");
    row("string template unknown kept", Type::String, "[UNKNOWN] x", "[UNKNOWN] x");
    row("string template repeated", Type::String, "[CTY_ABBR]-[CTY_ABBR]", "ITAS-ITAS");
    row("string without tokens", Type::String, "no tokens", "no tokens");
    row("string empty brackets", Type::String, "[] x", "[] x");
    row("istring template", Type::IString, "[CTY_ABBR]", "ITAS");
}

void TestExpr::text()
{
    QFETCH(ExpressionDef::Type, type);
    QFETCH(QString, expression);
    QFETCH(QString, expected);
    const BoundExpression b = bindOrFail({type, expression});
    QCOMPARE(b.text(kValues), expected);
}

void TestExpr::number_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<double>("expected");
    QTest::addColumn<bool>("ok");
    QTest::newRow("arithmetic") << "[POP] * 2" << 90116.0 << true;
    QTest::newRow("boolean") << "[POP] > 1" << 1.0 << true;
    QTest::newRow("numeric string") << "tostring([AREA], '%.1f')" << 7.5 << true;
    QTest::newRow("text string") << "'[CTY_NAME]'" << 0.0 << false;
    QTest::newRow("division by zero") << "1 / 0" << 0.0 << false;
    QTest::newRow("pow") << "2 ^ 10" << 1024.0 << true;
}

void TestExpr::number()
{
    QFETCH(QString, expression);
    QFETCH(double, expected);
    QFETCH(bool, ok);
    const BoundExpression b = bindOrFail(logical(expression));
    bool gotOk = !ok;
    const double v = b.number(kValues, &gotOk);
    QCOMPARE(gotOk, ok);
    QCOMPARE(v, expected);
}

void TestExpr::compileErrors_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("error");
    auto row = [](const char* e, const char* msg) { QTest::newRow(e) << QString::fromUtf8(e) << QString::fromUtf8(msg); };
    row("'[CTY_NAME]' = 'Itasca')", "unexpected ')' at column 24");
    row("[POP] > ", "unexpected end of expression at column 9");
    row("(1 + 2", "unexpected end of expression at column 7");
    row("[POP] = 1 2", "unexpected '2' at column 11");
    row("[POP] = = 1", "unexpected '=' at column 9");
    row("'abc", "unterminated string at column 1");
    row("1 = `2010", "unterminated time literal at column 5");
    row("[POP = 1", "unterminated attribute reference at column 1");
    row("[] = 1", "empty attribute reference '[]' at column 1");
    row("foo = 1", "unknown word 'foo' at column 1");
    row("[POP] # 1", "unexpected character '#' at column 7");
    row("area([shape]) > 5", "'area' is not supported (geometry operators are not implemented) at column 1");
    row("length('a', 'b') = 1", "length() takes 1 argument(s), 2 given at column 1");
    row("x = round()", "unknown word 'x' at column 1");
    row("1 = round()", "round() takes 2 argument(s), 0 given at column 5");
    row("`yesterday` > `2010`", "cannot parse time `yesterday` (use e.g. YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS) at column 1");
    row("'[CTY_NAME]' ~ '('", "at column 16");
    row("", "empty expression");
    row("   ", "empty expression");
    row("upper 'a'", "unexpected string 'a' at column 7");
}

void TestExpr::compileErrors()
{
    QFETCH(QString, expression);
    QFETCH(QString, error);
    const auto expr = Expression::compile(logical(expression));
    QVERIFY(!expr.ok());
    const QString message = expr.message();
    QVERIFY2(message.endsWith(error), qPrintable(QStringLiteral("got: ") + message));
}

void TestExpr::typeErrorsNeverMatch_data()
{
    // MapServer's grammar has no rule for these: yyparse fails, the class never matches.
    QTest::addColumn<QString>("expression");
    QTest::newRow("number = string") << "[POP] = 'x'";
    QTest::newRow("bare binding vs string") << "[CTY_NAME] = 'Itasca'";
    QTest::newRow("string + number") << "'[CTY_NAME]' + 1 = 2";
    QTest::newRow("time = number") << "`2010` = 2010";
    QTest::newRow("regex on number") << "[POP] ~ '4'";
    QTest::newRow("length of number") << "length([POP]) = 5";
    QTest::newRow("upper of number binding") << "upper([CTY_NAME]) = 'ITASCA'";
    QTest::newRow("and on string") << "'a' and true";
    QTest::newRow("bool < bool") << "true < false";
    QTest::newRow("time alone") << "`[LASTMOD]`";
}

void TestExpr::typeErrorsNeverMatch()
{
    QFETCH(QString, expression);
    const auto expr = Expression::compile(logical(expression));
    QVERIFY2(expr.ok(), qPrintable(expr.message()));
    QVERIFY(!expr->warning().isEmpty());
    QVERIFY(expr->warning().contains(QStringLiteral("at column")));
    const auto bound = expr->bind(kFields);
    QVERIFY(bound.ok());
    QVERIFY(!bound->matches(kValues));
    QCOMPARE(bound->text(kValues), QString());
}

void TestExpr::simpleForms_data()
{
    QTest::addColumn<ExpressionDef::Type>("type");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("item");
    QTest::addColumn<bool>("expected");
    QTest::newRow("string") << Type::String << "Itasca" << "CTY_NAME" << true;
    QTest::newRow("string case") << Type::String << "itasca" << "CTY_NAME" << false;
    QTest::newRow("string item case-insensitive") << Type::String << "Itasca" << "cty_name" << true;
    QTest::newRow("istring") << Type::IString << "itasca" << "CTY_NAME" << true;
    QTest::newRow("string empty = empty") << Type::String << "" << "EMPTY" << true;
    QTest::newRow("string no item") << Type::String << "Itasca" << "" << false;
    QTest::newRow("regex") << Type::Regex << "^It" << "CTY_NAME" << true;
    QTest::newRow("regex case") << Type::Regex << "^it" << "CTY_NAME" << false;
    QTest::newRow("iregex") << Type::IRegex << "^it" << "CTY_NAME" << true;
    QTest::newRow("regex empty value") << Type::Regex << ".*" << "EMPTY" << false;
    QTest::newRow("regex interval") << Type::Regex << "^[0-9]{5}$" << "POP" << true;
    QTest::newRow("list") << Type::List << "AITK,ITAS" << "CTY_ABBR" << true;
    QTest::newRow("list no trimming") << Type::List << "AITK, ITAS" << "CTY_ABBR" << false;
    QTest::newRow("list partial") << Type::List << "ITA" << "CTY_ABBR" << false;
    QTest::newRow("list numbers as text") << Type::List << "1,45058" << "POP" << true;
    QTest::newRow("none") << Type::None << "" << "" << true;
}

void TestExpr::simpleForms()
{
    QFETCH(ExpressionDef::Type, type);
    QFETCH(QString, text);
    QFETCH(QString, item);
    QFETCH(bool, expected);
    const BoundExpression b = bindOrFail({type, text}, kFields, item);
    QCOMPARE(b.matches(kValues), expected);
}

void TestExpr::bindErrors_data()
{
    QTest::addColumn<ExpressionDef::Type>("type");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("item");
    QTest::addColumn<QString>("mention");
    QTest::newRow("unknown attribute") << Type::Logical << "[NOPE] = 1" << "" << "'NOPE'";
    QTest::newRow("unknown string attribute") << Type::Logical << "'[NOPE]' = 'x'" << "" << "'NOPE'";
    QTest::newRow("unknown item") << Type::String << "x" << "NOPE" << "'NOPE'";
    QTest::newRow("regex without item") << Type::Regex << "^x" << "" << "CLASSITEM";
    QTest::newRow("list without item") << Type::List << "a,b" << "" << "CLASSITEM";
}

void TestExpr::bindErrors()
{
    QFETCH(ExpressionDef::Type, type);
    QFETCH(QString, text);
    QFETCH(QString, item);
    QFETCH(QString, mention);
    const auto expr = Expression::compile({type, text});
    QVERIFY(expr.ok());
    const auto bound = expr->bind(kFields, item);
    QVERIFY(!bound.ok());
    QVERIFY2(bound.message().contains(mention), qPrintable(bound.message()));
}

void TestExpr::attributes_data()
{
    QTest::addColumn<ExpressionDef::Type>("type");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("logical")
        << Type::Logical << "'[CTY_NAME]' = 'x' and [POP] > 1 and `[LASTMOD]` > `2010` or [POP] < 0"
        << QStringList{"CTY_NAME", "POP", "LASTMOD"};
    QTest::newRow("no attributes") << Type::Logical << "1 = 1" << QStringList{};
    QTest::newRow("literal with brackets is not a binding") << Type::Logical << "'[A] b' = 'x'" << QStringList{};
    QTest::newRow("template") << Type::String << "[a] [b] [a]" << QStringList{"a", "b"};
    QTest::newRow("regex has none") << Type::Regex << "^[ab]" << QStringList{};
}

void TestExpr::attributes()
{
    QFETCH(ExpressionDef::Type, type);
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    const auto expr = Expression::compile({type, text});
    QVERIFY(expr.ok());
    QCOMPARE(expr->attributes(), expected);
}

void TestExpr::substitute_data()
{
    QTest::addColumn<QString>("templ");
    QTest::addColumn<QString>("expected");
    QTest::newRow("two") << "[CTY_NAME] ([POP])" << "Itasca (45058)";
    QTest::newRow("case-insensitive") << "[Cty_Name]" << "Itasca";
    QTest::newRow("unknown kept") << "[nope] [CTY_ABBR]" << "[nope] ITAS";
    QTest::newRow("empty value") << "a [EMPTY]b" << "a b";
    QTest::newRow("unclosed") << "x [CTY_NAME" << "x [CTY_NAME";
    QTest::newRow("no tokens") << "plain" << "plain";
}

void TestExpr::substitute()
{
    QFETCH(QString, templ);
    QFETCH(QString, expected);
    QCOMPARE(substituteAttributes(templ, kFields, kValues), expected);
}

void TestExpr::filtersMap_data()
{
    // The ten layers of msautotest query/filters.map, run on the attributes of
    // its data; counts taken from the DBF by hand-written filters (Python).
    QTest::addColumn<ExpressionDef::Type>("type");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("item");
    QTest::addColumn<int>("count");
    QTest::newRow("filters_test001") << Type::String << "Aitkin" << "CTY_NAME" << 1;
    QTest::newRow("filters_test002") << Type::IString << "aitkin" << "CTY_NAME" << 1;
    QTest::newRow("filters_test003") << Type::Regex << "^S" << "CTY_NAME" << 8;
    QTest::newRow("filters_test004") << Type::IRegex << "^s" << "CTY_NAME" << 8;
    QTest::newRow("filters_test005") << Type::Logical << "'[CTY_NAME]' = 'Itasca'" << "" << 1;
    QTest::newRow("filters_test006") << Type::Logical << "'[CTY_NAME]' =* 'wadena'" << "" << 1;
    QTest::newRow("filters_test007") << Type::Logical << "'[CTY_NAME]' ~ '^A'" << "" << 2;
    QTest::newRow("filters_test008") << Type::Logical << "'[CTY_NAME]' ~* '^a'" << "" << 2;
    QTest::newRow("filters_test009") << Type::Logical << "'[CTY_ABBR]' in 'ANOK,RAMS,CARL'" << "" << 3;
    QTest::newRow("filters_test010") << Type::Logical << "`[LASTMOD]` > `2010-12-01`" << "" << 4;
}

void TestExpr::filtersMap()
{
    QFETCH(ExpressionDef::Type, type);
    QFETCH(QString, text);
    QFETCH(QString, item);
    QFETCH(int, count);
    const Table t = loadCounties();
    QCOMPARE(t.rows.size(), 117);
    const BoundExpression b = bindOrFail({type, text}, t.fields, item);
    int matched = 0;
    for (const AttributeValues& row : t.rows) matched += b.matches(row) ? 1 : 0;
    QCOMPARE(matched, count);
}

void TestExpr::unsetExpressionMatches()
{
    const auto expr = Expression::compile({});
    QVERIFY(expr.ok());
    QVERIFY(!expr->isSet());
    QVERIFY(expr->bind({})->matches({}));
    QVERIFY(BoundExpression().matches(kValues));
    QVERIFY(Expression().bind(kFields)->matches(kValues));
}

void TestExpr::missingValuesDoNotCrash()
{
    // A feature with fewer values than fields: missing values read as empty.
    const BoundExpression b = bindOrFail(logical("'[CODE]' = '' and [ZERO] = 0 and length('[NUMSTR]') = 0"));
    QVERIFY(b.matches(AttributeValues{"x"}));
    const BoundExpression t = bindOrFail({Type::String, "<[CODE]>"});
    QCOMPARE(t.text({}), QStringLiteral("<>"));
    const BoundExpression s = bindOrFail({Type::String, "x"}, kFields, "CODE");
    QVERIFY(!s.matches({}));
}

void TestExpr::concurrentEvaluation()
{
    // One bound expression shared by threads (renderer workers); the regex is
    // compiled once and only read. Expected: 8 + 3 rows of the counties table.
    const Table t = loadCounties();
    const BoundExpression b =
        bindOrFail(logical("'[CTY_NAME]' ~ '^S' or '[CTY_ABBR]' in 'ANOK,RAMS,CARL'"), t.fields);
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int k = 0; k < 4; ++k) {
        threads.emplace_back([&] {
            for (int round = 0; round < 200; ++round) {
                int n = 0;
                for (const AttributeValues& row : t.rows) n += b.matches(row) ? 1 : 0;
                if (n != 11) ++wrong;
            }
        });
    }
    for (std::thread& th : threads) th.join();
    QCOMPARE(wrong.load(), 0);
}

void TestExpr::benchmarkEvaluate_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("count");
    QTest::newRow("string equality") << "'[CTY_NAME]' = 'Itasca'" << 1;
    QTest::newRow("numeric and in") << "[CTY_FIPS] > 50 and [CTY_FIPS] * 2 < 200 or '[CTY_ABBR]' in 'ANOK,RAMS,CARL'" << -1;
    QTest::newRow("regex") << "'[CTY_NAME]' ~* '^s'" << 8;
    QTest::newRow("time") << "`[LASTMOD]` > `2010-12-01`" << 4;
}

void TestExpr::benchmarkEvaluate()
{
    QFETCH(QString, expression);
    QFETCH(int, count);
    const Table t = loadCounties();
    const BoundExpression b = bindOrFail(logical(expression), t.fields);
    int matched = 0;
    QBENCHMARK {
        matched = 0;
        for (const AttributeValues& row : t.rows) matched += b.matches(row) ? 1 : 0;
    }
    if (count >= 0) QCOMPARE(matched, count);
    QVERIFY(matched > 0);
}

QTEST_GUILESS_MAIN(TestExpr)
#include "test_expr.moc"
