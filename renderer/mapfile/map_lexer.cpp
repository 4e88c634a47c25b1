#include "mapfile/map_lexer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace maptune {

struct MapLexer::Source {
    QByteArray data;
    QString file;
    const char* p = nullptr;
    const char* end = nullptr;
    const char* lineStart = nullptr;
    int line = 1;

    Source(const QByteArray& bytes, const QString& name) : data(bytes), file(name)
    {
        p = data.constData();
        end = p + data.size();
        if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;  // UTF-8 BOM
        lineStart = p;
    }

    SourcePos at(const char* where) const
    {
        int column = 1;
        for (const char* c = lineStart; c < where; ++c)
            if ((static_cast<unsigned char>(*c) & 0xC0) != 0x80) ++column;  // count code points
        return {file, line, column};
    }
    void newline(const char* at)
    {
        ++line;
        lineStart = at + 1;
    }
};

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

bool isWordChar(char c)
{
    switch (c) {
    case '"': case '\'': case '#': case '[': case '(': case '{': case '`':
        return false;
    default:
        return !isSpace(c);
    }
}

// A trailing i after "string" or /regex/ makes it case-insensitive.
bool takeInsensitiveFlag(const char*& p, const char* end)
{
    if (p < end && (*p == 'i' || *p == 'I') && (p + 1 == end || !isWordChar(p[1]) || p[1] == ')')) {
        ++p;
        return true;
    }
    return false;
}

// A comment as scanSourceTokens reports it (# to the end of the line, or /* */).
Token commentToken(const SourcePos& pos, int offset, const QString& text)
{
    Token comment;
    comment.kind = Token::Kind::Comment;
    comment.pos = pos;
    comment.offset = offset;
    comment.text = text;
    return comment;
}

}  // namespace

bool Token::isWord(const char* upper) const
{
    return kind == Kind::Word && text.compare(QLatin1String(upper), Qt::CaseInsensitive) == 0;
}

QString quoteMapString(const QString& text)
{
    QString out;
    out.reserve(text.size() + 2);
    out += QLatin1Char('"');
    for (QChar c : text) {
        if (c == QLatin1Char('"') || c == QLatin1Char('\\')) out += QLatin1Char('\\');
        out += c;
    }
    out += QLatin1Char('"');
    return out;
}

QString Token::raw() const
{
    const QString flag = caseInsensitive ? QStringLiteral("i") : QString();
    switch (kind) {
    case Kind::Eof: return {};
    case Kind::Word: return text;
    case Kind::String: return quoteMapString(text) + flag;
    case Kind::Attr: return QLatin1Char('[') + text + QLatin1Char(']');
    case Kind::Regex: return QLatin1Char('/') + text + QLatin1Char('/') + flag;
    case Kind::Logical: return QLatin1Char('(') + text + QLatin1Char(')');
    case Kind::List: return QLatin1Char('{') + text + QLatin1Char('}');
    case Kind::Time: return QLatin1Char('`') + text + QLatin1Char('`');
    case Kind::Comment: return text;
    }
    return {};
}

QString Token::describe() const
{
    switch (kind) {
    case Kind::Eof: return QStringLiteral("end of file");
    case Kind::Word: return QStringLiteral("'%1'").arg(text);
    case Kind::String: return QStringLiteral("string %1").arg(raw());
    case Kind::Attr: return QStringLiteral("attribute binding %1").arg(raw());
    case Kind::Regex: return QStringLiteral("regular expression %1").arg(raw());
    case Kind::Logical: return QStringLiteral("expression %1").arg(raw().left(40));
    case Kind::List: return QStringLiteral("list %1").arg(raw().left(40));
    case Kind::Time: return QStringLiteral("time %1").arg(raw());
    case Kind::Comment: return QStringLiteral("comment");
    }
    return {};
}

MapLexer::MapLexer(const QByteArray& text, const QString& file, const QString& includeBase, Diagnostics& diags)
    : m_includeBase(includeBase), m_diags(diags)
{
    m_stack.push_back(std::make_unique<Source>(text, file));
}

MapLexer::~MapLexer() = default;

void MapLexer::error(const SourcePos& pos, const QString& message)
{
    m_diags.append({Diagnostic::Severity::Error, pos, message});
}

Token MapLexer::next()
{
    if (m_peeked) {
        Token t = std::move(*m_peeked);
        m_peeked.reset();
        return t;
    }
    return lex();
}

const Token& MapLexer::peek()
{
    if (!m_peeked) m_peeked = lex();
    return *m_peeked;
}

Token MapLexer::lex()
{
    for (;;) {
        Token t = lexIn(*m_stack.back());
        if (t.kind == Token::Kind::Eof && m_stack.size() > 1) {
            m_stack.pop_back();
            continue;
        }
        if (!m_sourceOnly && t.isWord("INCLUDE")) {
            pushInclude(t);
            continue;
        }
        return t;
    }
}

void MapLexer::pushInclude(const Token& includeKw)
{
    Source& current = *m_stack.back();
    const Token path = lexIn(current);
    if (path.kind != Token::Kind::String && path.kind != Token::Kind::Word) {
        error(includeKw.pos, QStringLiteral("INCLUDE expects a file name, got %1").arg(path.describe()));
        return;
    }
    if (int(m_stack.size()) > kMaxIncludeDepth) {
        error(path.pos, QStringLiteral("INCLUDE nested more than %1 levels deep: '%2' (is a file including itself?)")
                            .arg(kMaxIncludeDepth)
                            .arg(path.text));
        return;
    }
    QString resolved = path.text;
    if (QFileInfo(path.text).isRelative()) {
        resolved = QDir::cleanPath(QDir(m_includeBase).filePath(path.text));
        // Not MapServer's rule, but harmless: a nested include next to its parent.
        const QString sibling = QDir::cleanPath(QFileInfo(current.file).dir().filePath(path.text));
        if (!QFileInfo::exists(resolved) && QFileInfo::exists(sibling)) resolved = sibling;
    }
    QFile f(resolved);
    if (!f.open(QIODevice::ReadOnly)) {
        error(path.pos, QStringLiteral("cannot open INCLUDE file '%1': %2").arg(resolved, f.errorString()));
        return;
    }
    if (!m_included.contains(resolved)) m_included.append(resolved);
    m_stack.push_back(std::make_unique<Source>(f.readAll(), resolved));
}

std::vector<Token> MapLexer::scanSourceTokens(const QByteArray& text, const QString& file, Diagnostics& diags)
{
    MapLexer lexer(text, file, QString(), diags);
    lexer.m_sourceOnly = true;
    std::vector<Token> tokens;
    for (;;) {
        Token t = lexer.next();
        if (t.kind == Token::Kind::Eof) break;
        tokens.push_back(t);
    }
    return tokens;
}

Token MapLexer::lexIn(Source& s)
{
    Token t = lexToken(s);
    t.length = int(s.p - s.data.constData()) - t.offset;
    return t;
}

Token MapLexer::lexToken(Source& s)
{
    const char*& p = s.p;
    const char* end = s.end;
    for (;;) {
        while (p < end && isSpace(*p)) {
            if (*p == '\n') s.newline(p);
            ++p;
        }
        if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            // MapServer's multi-line comment: /* ... */
            const SourcePos where = s.at(p);
            const char* from = p;
            p += 2;
            while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n') s.newline(p);
                ++p;
            }
            if (p + 1 >= end) {
                error(where, QStringLiteral("unterminated comment (missing */)"));
                p = end;
            } else {
                p += 2;
            }
            if (!m_sourceOnly) continue;
            return commentToken(where, int(from - s.data.constData()), QString::fromUtf8(from, p - from));
        }
        if (p < end && *p == '#') {
            const char* from = p;
            while (p < end && *p != '\n') ++p;
            if (!m_sourceOnly) continue;
            const char* to = p;
            while (to > from && (to[-1] == '\r' || to[-1] == ' ' || to[-1] == '\t')) --to;
            return commentToken(s.at(from), int(from - s.data.constData()), QString::fromUtf8(from, to - from));
        }
        break;
    }
    Token t;
    t.pos = s.at(p);
    t.offset = int(p - s.data.constData());
    if (p == end) return t;

    const char* start = p;
    const char c = *p;
    auto scanQuoted = [&](char quote, bool unescape) -> bool {
        // p is on the opening quote; leaves p after the closing one.
        QByteArray out;
        const char* from = ++p;
        bool escaped = false;
        while (p < end && *p != quote) {
            if (*p == '\\' && p + 1 < end && (p[1] == quote || p[1] == '\\') && unescape) {
                escaped = true;
                p += 2;
                continue;
            }
            if (*p == '\n') s.newline(p);
            ++p;
        }
        if (!escaped) {
            t.text = QString::fromUtf8(from, p - from);
        } else {
            for (const char* q = from; q < p; ++q) {
                if (*q == '\\' && q + 1 < p && (q[1] == quote || q[1] == '\\')) ++q;
                out += *q;
            }
            t.text = QString::fromUtf8(out);
        }
        if (p == end) return false;
        ++p;
        return true;
    };

    switch (c) {
    case '"':
    case '\'':
        t.kind = Token::Kind::String;
        if (!scanQuoted(c, true))
            error(t.pos, QStringLiteral("unterminated string (missing closing %1)").arg(QLatin1Char(c)));
        t.caseInsensitive = takeInsensitiveFlag(p, end);
        return t;
    case '`':
        t.kind = Token::Kind::Time;
        if (!scanQuoted('`', false)) error(t.pos, QStringLiteral("unterminated time literal (missing closing `)"));
        return t;
    case '[': {
        t.kind = Token::Kind::Attr;
        const char* from = ++p;
        while (p < end && *p != ']' && *p != '\n') ++p;
        t.text = QString::fromUtf8(from, p - from);
        if (p == end || *p != ']')
            error(t.pos, QStringLiteral("unterminated attribute binding (missing ']' on this line)"));
        else
            ++p;
        return t;
    }
    case '(':
    case '{': {
        const char close = c == '(' ? ')' : '}';
        t.kind = c == '(' ? Token::Kind::Logical : Token::Kind::List;
        const char* from = ++p;
        int depth = 1;
        while (p < end) {
            const char d = *p;
            if (d == '"' || d == '\'' || d == '`') {
                const QString saved = t.text;
                if (!scanQuoted(d, false)) break;
                t.text = saved;
                continue;
            }
            if (d == '\n') s.newline(p);
            if (d == c) ++depth;
            if (d == close && --depth == 0) break;
            ++p;
        }
        t.text = QString::fromUtf8(from, p - from);
        if (p >= end) {
            error(t.pos, c == '(' ? QStringLiteral("unterminated expression (missing ')')")
                                  : QStringLiteral("unterminated list (missing '}')"));
            t.text = QString::fromUtf8(from, end - from);
        } else {
            ++p;
        }
        return t;
    }
    default:
        break;
    }

    const char* wordEnd = p;
    while (wordEnd < end && isWordChar(*wordEnd)) ++wordEnd;
    if (c == '/' && p + 1 < end && p[1] != '*') {
        // /regex/ against a bare path like /data/roads.shp: the longer reading
        // wins, as with flex's longest match.
        const char* close = p + 1;
        while (close < end && *close != '/' && *close != '\n') ++close;
        if (close < end && *close == '/' && close > p + 1) {
            const char* after = close + 1;
            const bool insensitive = takeInsensitiveFlag(after, end);
            if (after - start >= wordEnd - start) {
                t.kind = Token::Kind::Regex;
                t.text = QString::fromUtf8(start + 1, close - start - 1);
                t.caseInsensitive = insensitive;
                p = after;
                return t;
            }
        }
    }
    t.kind = Token::Kind::Word;
    t.text = QString::fromUtf8(start, wordEnd - start);
    p = wordEnd;
    return t;
}

}  // namespace maptune
