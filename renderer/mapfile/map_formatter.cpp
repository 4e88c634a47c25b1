#include "mapfile/map_formatter.h"

#include "mapfile/map_lexer.h"
#include "mapfile/map_loader.h"
#include "mapfile/token_roles.h"

#include <vector>

namespace maptune {

namespace {

constexpr int kIndent = 2;

// 'text' becomes "text" only when nothing inside needs escaping: MapServer's
// own lexer and ours then read the same characters.
QString spellString(const Token& t, const QString& source)
{
    if (!source.startsWith(QLatin1Char('\''))) return source;
    if (t.text.contains(QLatin1Char('"')) || t.text.contains(QLatin1Char('\\'))) return source;
    return QLatin1Char('"') + t.text + QLatin1Char('"') + (t.caseInsensitive ? QStringLiteral("i") : QString());
}

QString spell(const Token& t, const QString& source, const TokenRoles& roles, const Token* next)
{
    switch (t.kind) {
    case Token::Kind::Word: {
        const std::optional<TokenRole> role = roles.role(t.pos);
        if (role && keepsCase(*role)) return source;
        if (role || t.isWord("END")) return t.upper();
        if (t.isWord("INCLUDE") && next && next->kind == Token::Kind::String) return t.upper();
        return source;
    }
    case Token::Kind::String:
        return spellString(t, source);
    case Token::Kind::Comment:
        return t.text;
    default:
        return source;  // expressions, lists, regexes, bindings: exactly as written
    }
}

}  // namespace

FormatResult formatMapText(const QByteArray& text, const QString& path)
{
    FormatResult result;
    TokenRoles roles(path);
    const LoadResult parsed = parseMapText(text, path, &roles);
    result.diagnostics = parsed.diagnostics;
    if (!parsed.map && !hasErrors(result.diagnostics))
        result.diagnostics.append({Diagnostic::Severity::Error, {path, 1, 1}, QStringLiteral("no MAP block to format")});
    if (!result.ok()) return result;

    Diagnostics scanDiagnostics;  // the parse above already reported anything the scan could find
    const std::vector<Token> tokens = MapLexer::scanSourceTokens(text, path, scanDiagnostics);

    QString out;
    out.reserve(text.size() + text.size() / 4);
    QString line;
    int depth = 0;
    int lastLine = 0;  // source line the previous token ended on
    auto flush = [&] {
        while (line.endsWith(QLatin1Char(' '))) line.chop(1);
        out += line;
        out += QLatin1Char('\n');
        line.clear();
    };
    for (size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        const QByteArray bytes = text.mid(t.offset, t.length);
        const bool closes = t.isWord("END");
        const bool newLine = lastLine == 0 || t.pos.line > lastLine;
        if (newLine) {
            if (lastLine > 0) {
                flush();
                if (t.pos.line > lastLine + 1) out += QLatin1Char('\n');
            }
            line = QString(kIndent * std::max(0, depth - (closes ? 1 : 0)), QLatin1Char(' '));
        } else {
            line += QLatin1Char(' ');
        }
        line += spell(t, QString::fromUtf8(bytes), roles, i + 1 < tokens.size() ? &tokens[i + 1] : nullptr);
        if (closes)
            depth = std::max(0, depth - 1);
        else if (const auto role = roles.role(t.pos); t.kind == Token::Kind::Word && role && opensBlock(*role))
            ++depth;
        lastLine = t.pos.line + int(bytes.count('\n'));
    }
    if (lastLine > 0) flush();
    result.text = out;
    return result;
}

}  // namespace maptune
