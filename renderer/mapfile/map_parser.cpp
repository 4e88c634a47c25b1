#include "mapfile/map_parser.h"

#include "mapfile/schema/keyword_schema.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace maptune {

namespace {

// Optimal string alignment distance: Levenshtein plus adjacent transpositions,
// so STYEL is one edit away from STYLE.
int editDistance(const QString& a, const QString& b)
{
    const int n = a.size(), m = b.size();
    std::vector<std::vector<int>> d(n + 1, std::vector<int>(m + 1));
    for (int i = 0; i <= n; ++i) d[i][0] = i;
    for (int j = 0; j <= m; ++j) d[0][j] = j;
    for (int i = 1; i <= n; ++i) {
        for (int j = 1; j <= m; ++j) {
            const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    }
    return d[n][m];
}

bool parseNumber(const Token& t, double& value)
{
    if (t.kind != Token::Kind::Word) return false;
    bool ok = false;
    value = t.text.toDouble(&ok);
    return ok && std::isfinite(value);
}

std::optional<Color> parseHexColor(const QString& text)
{
    if (!text.startsWith(QLatin1Char('#')) || (text.size() != 7 && text.size() != 9)) return std::nullopt;
    bool ok = true;
    auto part = [&](int i) {
        bool partOk = false;
        const int v = text.mid(1 + 2 * i, 2).toInt(&partOk, 16);
        ok = ok && partOk;
        return v;
    };
    Color c = Color::rgb(part(0), part(1), part(2), text.size() == 9 ? part(3) : 255);
    if (!ok) return std::nullopt;
    return c;
}

// Words that open a nested block inside blocks we keep verbatim (LEADER, JOIN...).
bool opensRawBlock(const QString& upper)
{
    static const QSet<QString> openers = {
        QStringLiteral("STYLE"), QStringLiteral("LABEL"), QStringLiteral("VALUES"), QStringLiteral("POINTS"),
        QStringLiteral("PATTERN"), QStringLiteral("METADATA"), QStringLiteral("VALIDATION"),
        QStringLiteral("PROJECTION"), QStringLiteral("FEATURE"), QStringLiteral("CLASS")};
    return openers.contains(upper);
}

// The block a keyword belongs to, innermost first, for "COLOR goes in a
// STYLE block": from the keyword schema, which the parser's tables match
// (tests/mapfile/test_keyword_schema checks both ways).
QString blockOwning(const QString& upper)
{
    for (const char* block : {"STYLE", "LABEL", "CLASS", "LAYER", "SYMBOL", "OUTPUTFORMAT", "WEB", "MAP"})
        if (const KeywordSpec* k = KeywordSchema::builtin().keyword(QLatin1String(block), upper); k && !k->isRemoved())
            return QLatin1String(block);
    return {};
}

}  // namespace

QString readGeomTransform(MapParser& p, const Token& k)
{
    if (p.peek().kind == Token::Kind::Logical) return QLatin1Char('(') + p.next().text + QLatin1Char(')');
    return p.readString(k);
}

QString suggestKeyword(const QString& word, const QStringList& candidates)
{
    const int limit = word.size() <= 4 ? 1 : 2;
    QString best;
    int bestDistance = limit + 1;
    QStringList sorted = candidates;
    sorted.sort();  // ties resolve the same way every run
    for (const QString& c : sorted) {
        const int d = editDistance(word, c);
        if (d < bestDistance) {
            bestDistance = d;
            best = c;
        }
    }
    return best;
}

void MapParser::error(const SourcePos& pos, const QString& message)
{
    m_diags.append({Diagnostic::Severity::Error, pos, message});
}

void MapParser::warning(const SourcePos& pos, const QString& message)
{
    m_diags.append({Diagnostic::Severity::Warning, pos, message});
}

bool MapParser::isArgumentEnd(const Token& t)
{
    if (t.kind == Token::Kind::Eof) return true;
    if (t.kind != Token::Kind::Word) return false;
    const QString upper = t.upper();
    if (upper == QLatin1String("END")) return true;
    return !m_blockKeywords.isEmpty() && m_blockKeywords.last()(upper);
}

void MapParser::missingValue(const Token& kw, const char* what)
{
    error(kw.pos, QStringLiteral("missing value for %1 (expected %2)").arg(kw.upper(), QLatin1String(what)));
}

bool MapParser::nextIsNumber()
{
    double v = 0;
    return parseNumber(peek(), v);
}

QString MapParser::readString(const Token& kw)
{
    const Token& t = peek();
    if (t.kind == Token::Kind::Eof || t.isWord("END")) {
        missingValue(kw, "a string");
        return {};
    }
    const Token v = next();
    // An unquoted path like /tmp/ lexes as a regex (flex rule order); its text is the path.
    if (v.kind == Token::Kind::Regex) return v.raw();
    if (v.kind != Token::Kind::String && v.kind != Token::Kind::Word) {
        error(v.pos, QStringLiteral("bad value %1 for %2 (expected a string)").arg(v.describe(), kw.upper()));
        return {};
    }
    return v.text;
}

QString MapParser::readWord(const Token& kw, const std::vector<const char*>& allowed)
{
    QStringList names;
    for (const char* a : allowed) names << QLatin1String(a);
    const Token& t = peek();
    if (t.kind == Token::Kind::Eof || t.isWord("END")) {
        missingValue(kw, qPrintable(QStringLiteral("one of ") + names.join(QLatin1String(", "))));
        return {};
    }
    const Token v = next();
    const QString upper = v.upper();
    if ((v.kind == Token::Kind::Word || v.kind == Token::Kind::String) && names.contains(upper)) {
        if (v.kind == Token::Kind::Word) mark(v, TokenRole::EnumValue);
        return upper;
    }
    const QString suggestion = suggestKeyword(upper, names);
    error(v.pos, QStringLiteral("bad value %1 for %2 (expected %3)")
                     .arg(v.describe(), kw.upper(),
                          suggestion.isEmpty() ? QStringLiteral("one of ") + names.join(QLatin1String(", "))
                                               : QStringLiteral("'%1'?").arg(suggestion)));
    // A quoted value's text is not what is written at its position; only a bare word is replaced.
    if (!suggestion.isEmpty() && v.kind == Token::Kind::Word) m_diags.last().fix = Diagnostic::Fix{v.text, suggestion};
    return {};
}

double MapParser::readNumber(const Token& kw)
{
    double v = 0;
    if (parseNumber(peek(), v)) {
        next();
        return v;
    }
    if (isArgumentEnd(peek())) {
        missingValue(kw, "a number");
        return 0;
    }
    const Token bad = next();
    error(bad.pos, QStringLiteral("bad number %1 for %2").arg(bad.describe(), kw.upper()));
    return 0;
}

int MapParser::readInt(const Token& kw)
{
    const SourcePos pos = peek().pos;
    const double v = readNumber(kw);
    if (v != std::floor(v) || std::abs(v) > 2e9) {
        error(pos, QStringLiteral("bad number %1 for %2 (expected an integer)").arg(v).arg(kw.upper()));
        return 0;
    }
    return int(v);
}

bool MapParser::readBool(const Token& kw)
{
    const QString v = readWord(kw, {"TRUE", "FALSE", "ON", "OFF", "YES", "NO"});
    return v == QLatin1String("TRUE") || v == QLatin1String("ON") || v == QLatin1String("YES");
}

NumberOrAttr MapParser::readNumberOrAttr(const Token& kw)
{
    if (peek().kind == Token::Kind::Attr) return {0, next().text};
    return {readNumber(kw), {}};
}

Color MapParser::readColor(const Token& kw, bool allowAlpha)
{
    const Token& t = peek();
    if (t.kind == Token::Kind::String) {
        const Token s = next();
        if (auto c = parseHexColor(s.text)) return *c;
        error(s.pos, QStringLiteral("bad colour %1 for %2 (expected R G B, \"#rrggbb\" or \"#rrggbbaa\")")
                         .arg(s.describe(), kw.upper()));
        return {};
    }
    if (t.kind == Token::Kind::Attr) {
        const Token a = next();
        error(a.pos, QStringLiteral("%1 cannot be bound to an attribute here").arg(kw.upper()));
        return {};
    }
    Color c;
    c.r = readInt(kw);
    c.g = readInt(kw);
    c.b = readInt(kw);
    if (allowAlpha && nextIsNumber()) c.a = readInt(kw);  // MapServer reads 3; a 4th number can only be alpha
    for (int v : {c.r, c.g, c.b, c.a}) {
        // MapServer 8 does not range-check; negative values act as "no colour".
        if (v > 255) {
            error(kw.pos, QStringLiteral("colour component %1 of %2 is out of range (0-255, or -1 -1 -1 for none)")
                              .arg(v)
                              .arg(kw.upper()));
            break;
        }
        if (v < -1) {
            warning(kw.pos, QStringLiteral("colour component %1 of %2 is negative: the colour counts as not set "
                                           "(write -1 -1 -1 for none)")
                                .arg(v)
                                .arg(kw.upper()));
            break;
        }
    }
    return c;
}

ColorOrAttr MapParser::readColorOrAttr(const Token& kw)
{
    if (peek().kind == Token::Kind::Attr) return {Color{}, next().text};
    return {readColor(kw), {}};
}

ExpressionDef MapParser::readExpression(const Token& kw)
{
    using Type = ExpressionDef::Type;
    const Token& t = peek();
    if (t.kind == Token::Kind::Eof || t.isWord("END")) {
        missingValue(kw, "an expression");
        return {};
    }
    const Token v = next();
    switch (v.kind) {
    case Token::Kind::String: return {v.caseInsensitive ? Type::IString : Type::String, v.text};
    case Token::Kind::Word: return {Type::String, v.text};
    case Token::Kind::Regex: return {v.caseInsensitive ? Type::IRegex : Type::Regex, v.text};
    case Token::Kind::Logical: return {Type::Logical, v.text};
    case Token::Kind::List: return {Type::List, v.text};
    default:
        error(v.pos, QStringLiteral("bad value %1 for %2 (expected \"string\", /regex/, (expression) or {list})")
                         .arg(v.describe(), kw.upper()));
        return {};
    }
}

Rect MapParser::readExtent(const Token& kw)
{
    Rect r;
    r.minx = readNumber(kw);
    r.miny = readNumber(kw);
    r.maxx = readNumber(kw);
    r.maxy = readNumber(kw);
    return r;
}

void MapParser::readKeyValues(const Token& kw, KeyValues& into)
{
    mark(kw, TokenRole::BlockOpen);
    for (;;) {
        const Token key = next();
        if (key.kind == Token::Kind::Eof) {
            error(kw.pos, QStringLiteral("missing END for %1 (reached end of file)").arg(kw.upper()));
            m_eofReported = true;
            return;
        }
        if (key.isWord("END")) return;
        if (key.kind != Token::Kind::String && key.kind != Token::Kind::Word) {
            error(key.pos, QStringLiteral("unexpected %1 in %2 (expected \"key\" \"value\")").arg(key.describe(), kw.upper()));
            continue;
        }
        const Token& value = peek();
        if (value.kind == Token::Kind::Eof || value.isWord("END") ||
            (value.kind != Token::Kind::String && value.kind != Token::Kind::Word)) {
            error(key.pos, QStringLiteral("%1 key %2 has no value").arg(kw.upper(), key.raw()));
            continue;
        }
        into.set(key.text, next().text);
    }
}

QStringList MapParser::readStringBlock(const Token& kw)
{
    mark(kw, TokenRole::BlockOpen);
    QStringList out;
    for (;;) {
        const Token t = next();
        if (t.kind == Token::Kind::Eof) {
            error(kw.pos, QStringLiteral("missing END for %1 (reached end of file)").arg(kw.upper()));
            m_eofReported = true;
            return out;
        }
        if (t.isWord("END")) return out;
        if (t.kind == Token::Kind::String || t.kind == Token::Kind::Word)
            out << t.text;
        else
            error(t.pos, QStringLiteral("unexpected %1 in %2 (expected strings)").arg(t.describe(), kw.upper()));
    }
}

QList<double> MapParser::readNumberList(const Token& kw, std::optional<SourcePos>* end)
{
    mark(kw, TokenRole::BlockOpen);
    QList<double> values;
    for (;;) {
        const Token& t = peek();
        if (t.kind == Token::Kind::Eof) {
            error(kw.pos, QStringLiteral("missing END for %1 (reached end of file)").arg(kw.upper()));
            m_eofReported = true;
            return values;
        }
        if (t.isWord("END")) {
            const Token endTok = next();
            if (end) *end = endTok.pos;
            return values;
        }
        // readNumber would not consume a keyword: without this the loop never ends.
        if (isArgumentEnd(t)) {
            error(t.pos, QStringLiteral("missing END for %1 before %2").arg(kw.upper(), t.describe()));
            return values;
        }
        values << readNumber(kw);
    }
}

QList<std::pair<double, double>> MapParser::readPoints(const Token& kw)
{
    std::optional<SourcePos> end;
    const QList<double> values = readNumberList(kw, &end);
    if (end && values.size() % 2 != 0)
        error(*end, QStringLiteral("%1 holds an odd number of values (expected x y pairs)").arg(kw.upper()));
    QList<std::pair<double, double>> points;
    for (int i = 0; i + 1 < values.size(); i += 2) points.append({values[i], values[i + 1]});
    return points;
}

ExtraProperty MapParser::readExtra(const Token& kw, int arity)
{
    ExtraProperty extra{kw.upper(), {}};
    if (arity >= 0) {
        for (int i = 0; i < arity; ++i) {
            const Token& t = peek();
            if (t.kind == Token::Kind::Eof || t.isWord("END")) {
                missingValue(kw, "a value");
                break;
            }
            extra.args << next().raw();
        }
        return extra;
    }
    mark(kw, TokenRole::BlockOpen);
    int depth = 0;
    for (;;) {
        const Token t = next();
        if (t.kind == Token::Kind::Eof) {
            error(kw.pos, QStringLiteral("missing END for %1 (reached end of file)").arg(kw.upper()));
            m_eofReported = true;
            break;
        }
        extra.args << t.raw();
        const bool opens = t.kind == Token::Kind::Word && opensRawBlock(t.upper());
        mark(t, opens ? TokenRole::VerbatimBlockOpen : TokenRole::Verbatim);
        if (t.isWord("END") && depth-- == 0) break;
        if (opens) ++depth;
    }
    return extra;
}

void MapParser::reportUnknown(const Token& t, const char* blockName, const QString& suggestion)
{
    QString message = QStringLiteral("unknown keyword '%1' in %2").arg(t.text, QLatin1String(blockName));
    if (!suggestion.isEmpty()) {
        message += QStringLiteral(" (did you mean '%1'?)").arg(suggestion);
    } else if (const QString home = blockOwning(t.upper()); !home.isEmpty()) {
        message += QStringLiteral(" (%1 goes in a %2 block)").arg(t.upper(), home);
    }
    error(t.pos, message);
    if (!suggestion.isEmpty()) m_diags.last().fix = Diagnostic::Fix{t.text, suggestion};
}

void MapParser::skipArguments(const Token& unknown)
{
    for (;;) {
        const Token& t = peek();
        if (t.pos.line != unknown.pos.line || t.pos.file != unknown.pos.file || isArgumentEnd(t)) return;
        next();
    }
}

}  // namespace maptune
