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

    // One output line per source line that holds a token (a token spanning
    // lines -- a string, an expression, a block comment -- stays whole).
    struct Line {
        int indent = 0;
        bool blankBefore = false;
        QStringList parts;
        int kinds = 0;        // tokens that are not comments
        bool simple = true;   // only single-line words and strings
        int block = -1;       // the METADATA/VALIDATION block it sits in, else -1
    };
    std::vector<Line> lines;
    struct Open {
        bool keyValues;
        int id;
    };
    std::vector<Open> open;
    int nextBlock = 0;
    int lastLine = 0;  // source line the previous token ended on
    for (size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        const QByteArray bytes = text.mid(t.offset, t.length);
        const bool closes = t.isWord("END");
        if (lastLine == 0 || t.pos.line > lastLine) {
            Line l;
            l.blankBefore = lastLine > 0 && t.pos.line > lastLine + 1;
            l.indent = kIndent * std::max(0, int(open.size()) - (closes ? 1 : 0));
            if (!open.empty() && open.back().keyValues) l.block = open.back().id;
            lines.push_back(std::move(l));
        }
        Line& line = lines.back();
        line.parts << spell(t, QString::fromUtf8(bytes), roles, i + 1 < tokens.size() ? &tokens[i + 1] : nullptr);
        if (t.kind != Token::Kind::Comment) {
            ++line.kinds;
            line.simple = line.simple && !closes && bytes.count('\n') == 0
                          && (t.kind == Token::Kind::String || t.kind == Token::Kind::Word);
        }
        if (closes) {
            if (!open.empty()) open.pop_back();
        } else if (const auto role = roles.role(t.pos); t.kind == Token::Kind::Word && role && opensBlock(*role)) {
            open.push_back({t.isWord("METADATA") || t.isWord("VALIDATION"), nextBlock++});
        }
        lastLine = t.pos.line + int(bytes.count('\n'));
    }

    // "key" "value" lines of a METADATA or VALIDATION block keep their values
    // in one column, as people write them.
    auto isPair = [&](const Line& l) { return l.block >= 0 && l.simple && l.kinds == 2; };
    for (size_t i = 0; i < lines.size();) {
        size_t end = i;
        qsizetype width = 0;
        while (end < lines.size() && isPair(lines[end]) && lines[end].block == lines[i].block
               && (end == i || !lines[end].blankBefore)) {
            width = std::max(width, lines[end].parts.first().size());
            ++end;
        }
        for (size_t k = i; k < end; ++k) lines[k].parts.first() = lines[k].parts.first().leftJustified(width);
        i = end > i ? end : i + 1;
    }

    QString out;
    out.reserve(text.size() + text.size() / 4);
    for (const Line& l : lines) {
        if (l.blankBefore) out += QLatin1Char('\n');
        out += QString(l.indent, QLatin1Char(' '));
        const QString text = l.parts.join(QLatin1Char(' '));
        out += text;
        // A string left open after the map's END runs to the end of the file,
        // its last newline included: a second one would grow at every format.
        if (!text.endsWith(QLatin1Char('\n'))) out += QLatin1Char('\n');
    }
    result.text = out;
    return result;
}

}  // namespace maptune
