#include "expr/expr_lexer.h"

#include <charconv>

namespace maptune {
namespace {

struct Word {
    const char16_t* text;
    TokenKind kind;
};

constexpr Word kWords[] = {
    {u"or", TokenKind::Or},   {u"and", TokenKind::And}, {u"not", TokenKind::Not},
    {u"eq", TokenKind::Eq},   {u"ne", TokenKind::Ne},   {u"lt", TokenKind::Lt},
    {u"gt", TokenKind::Gt},   {u"le", TokenKind::Le},   {u"ge", TokenKind::Ge},
    {u"in", TokenKind::In},   {u"true", TokenKind::Boolean}, {u"false", TokenKind::Boolean},
    {u"length", TokenKind::Function},  {u"tostring", TokenKind::Function},
    {u"commify", TokenKind::Function}, {u"upper", TokenKind::Function},
    {u"lower", TokenKind::Function},   {u"initcap", TokenKind::Function},
    {u"firstcap", TokenKind::Function}, {u"round", TokenKind::Function},
};

// The functions of GEOMTRANSFORM's shape expressions.
constexpr const char16_t* kShapeFunctions[] = {
    u"buffer", u"difference", u"simplify", u"simplifypt", u"generalize",
    u"smoothsia", u"centerline", u"densify", u"outer", u"inner",
};

// MapServer words we recognise but do not implement in logical expressions
// (geometry and JavaScript operators): named in the error instead of
// "unknown word".
constexpr const char16_t* kUnsupportedWords[] = {
    u"area", u"buffer", u"difference", u"simplify", u"simplifypt", u"generalize",
    u"smoothsia", u"centerline", u"densify", u"outer", u"inner", u"javascript",
    u"intersects", u"disjoint", u"touches", u"overlaps", u"crosses", u"within",
    u"contains", u"equals", u"beyond", u"dwithin", u"fromtext",
};

struct Symbol {
    const char16_t* text;
    TokenKind kind;
};

// Longest first, so that "<=" wins over "<".
constexpr Symbol kSymbols[] = {
    {u"==", TokenKind::Eq}, {u"=*", TokenKind::IEq}, {u"!=", TokenKind::Ne},
    {u"<>", TokenKind::Ne}, {u"<=", TokenKind::Le},  {u">=", TokenKind::Ge},
    {u"~*", TokenKind::IRe}, {u"&&", TokenKind::And}, {u"||", TokenKind::Or},
    {u"=", TokenKind::Eq},  {u"<", TokenKind::Lt},   {u">", TokenKind::Gt},
    {u"~", TokenKind::Re},  {u"!", TokenKind::Not},  {u"(", TokenKind::LParen},
    {u")", TokenKind::RParen}, {u",", TokenKind::Comma}, {u"+", TokenKind::Plus},
    {u"-", TokenKind::Minus}, {u"*", TokenKind::Star}, {u"/", TokenKind::Slash},
    {u"%", TokenKind::Percent}, {u"^", TokenKind::Caret},
};

class Lexer {
public:
    Lexer(const QString& text, bool shapes) : m_text(text), m_shapes(shapes) {}

    LexResult run()
    {
        LexResult result;
        while (true) {
            skipBlanks();
            ExprToken tok;
            tok.column = int(m_pos) + 1;
            if (m_pos >= m_text.size()) {
                result.tokens.append(tok);
                return result;
            }
            if (!next(tok)) {
                result.error = m_error;
                return result;
            }
            result.tokens.append(tok);
        }
    }

private:
    void skipBlanks()
    {
        while (m_pos < m_text.size() && m_text[m_pos].isSpace()) ++m_pos;
    }

    bool fail(const QString& message, qsizetype at)
    {
        m_error = QStringLiteral("%1 at column %2").arg(message).arg(at + 1);
        return false;
    }

    bool next(ExprToken& tok)
    {
        const QChar c = m_text[m_pos];
        if (c == u'\'' || c == u'"') return quoted(tok, c);
        if (c == u'`') return backticked(tok);
        if (c == u'[') return binding(tok);
        if (c.isDigit() || (c == u'.' && m_pos + 1 < m_text.size() && m_text[m_pos + 1].isDigit()))
            return number(tok);
        if (c.isLetter() || c == u'_') return word(tok);
        for (const Symbol& s : kSymbols) {
            const QStringView sym(s.text);
            if (QStringView(m_text).mid(m_pos).startsWith(sym)) {
                tok.kind = s.kind;
                tok.text = sym.toString();
                m_pos += sym.size();
                return true;
            }
        }
        return fail(QStringLiteral("unexpected character '%1'").arg(c), m_pos);
    }

    bool quoted(ExprToken& tok, QChar quote)
    {
        const qsizetype start = m_pos++;
        QString value;
        bool closed = false;
        while (m_pos < m_text.size()) {
            const QChar c = m_text[m_pos++];
            if (c == quote) {
                closed = true;
                break;
            }
            // As MapServer's lexer: \' \" \\ stand for the character, a lone \ is kept.
            if (c == u'\\' && m_pos < m_text.size() && QStringView(u"'\"\\").contains(m_text[m_pos]))
                value.append(m_text[m_pos++]);
            else
                value.append(c);
        }
        if (!closed) return fail(QStringLiteral("unterminated string"), start);
        // '[name]' binds an attribute as a string, but only when the whole
        // string is one attribute reference.
        if (isSingleBinding(value)) {
            tok.kind = TokenKind::AttrString;
            tok.text = value.mid(1, value.size() - 2);
        } else {
            tok.kind = TokenKind::String;
            tok.text = value;
        }
        return true;
    }

    static bool isSingleBinding(const QString& v)
    {
        return v.size() >= 3 && v.front() == u'[' && v.back() == u']' && v.indexOf(u']') == v.size() - 1;
    }

    bool backticked(ExprToken& tok)
    {
        const qsizetype start = m_pos++;
        const qsizetype end = m_text.indexOf(u'`', m_pos);
        if (end < 0) return fail(QStringLiteral("unterminated time literal"), start);
        const QString value = m_text.mid(m_pos, end - m_pos);
        m_pos = end + 1;
        if (isSingleBinding(value)) {
            tok.kind = TokenKind::AttrTime;
            tok.text = value.mid(1, value.size() - 2);
        } else {
            tok.kind = TokenKind::Time;
            tok.text = value;
        }
        return true;
    }

    bool binding(ExprToken& tok)
    {
        const qsizetype start = m_pos;
        const qsizetype end = m_text.indexOf(u']', m_pos);
        if (end < 0) return fail(QStringLiteral("unterminated attribute reference"), start);
        tok.text = m_text.mid(start + 1, end - start - 1);
        if (tok.text.isEmpty()) return fail(QStringLiteral("empty attribute reference '[]'"), start);
        m_pos = end + 1;
        const QString lower = tok.text.toLower();
        if (!m_shapes && (lower == u"shape" || lower == u"map_cellsize" || lower == u"data_cellsize"))
            return fail(QStringLiteral("'[%1]' is not supported").arg(tok.text), start);
        tok.kind = TokenKind::AttrNumber;
        return true;
    }

    bool number(ExprToken& tok)
    {
        const qsizetype start = m_pos;
        auto digits = [&] { while (m_pos < m_text.size() && m_text[m_pos].isDigit()) ++m_pos; };
        digits();
        if (m_pos < m_text.size() && m_text[m_pos] == u'.') { ++m_pos; digits(); }
        if (m_pos < m_text.size() && (m_text[m_pos] == u'e' || m_text[m_pos] == u'E')) {
            qsizetype p = m_pos + 1;
            if (p < m_text.size() && (m_text[p] == u'+' || m_text[p] == u'-')) ++p;
            if (p < m_text.size() && m_text[p].isDigit()) { m_pos = p; digits(); }
        }
        tok.text = m_text.mid(start, m_pos - start);
        const QByteArray latin = tok.text.toLatin1();
        std::from_chars(latin.constData(), latin.constData() + latin.size(), tok.number);
        tok.kind = TokenKind::Number;
        return true;
    }

    bool word(ExprToken& tok)
    {
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && (m_text[m_pos].isLetterOrNumber() || m_text[m_pos] == u'_')) ++m_pos;
        const QString lower = m_text.mid(start, m_pos - start).toLower();
        for (const Word& w : kWords) {
            if (lower == QStringView(w.text)) {
                tok.kind = w.kind;
                tok.text = lower;
                tok.number = lower == u"true" ? 1 : 0;
                return true;
            }
        }
        if (m_shapes)
            for (const char16_t* w : kShapeFunctions)
                if (lower == QStringView(w)) {
                    tok.kind = TokenKind::Function;
                    tok.text = lower;
                    return true;
                }
        for (const char16_t* w : kUnsupportedWords)
            if (lower == QStringView(w))
                return fail(QStringLiteral("'%1' is not supported (geometry operators are not implemented)").arg(lower), start);
        return fail(QStringLiteral("unknown word '%1'").arg(m_text.mid(start, m_pos - start)), start);
    }

    const QString& m_text;
    bool m_shapes;
    qsizetype m_pos = 0;
    QString m_error;
};

}  // namespace

LexResult lexExpression(const QString& text, bool shapes)
{
    return Lexer(text, shapes).run();
}

QString describeToken(const ExprToken& token)
{
    switch (token.kind) {
    case TokenKind::End: return QStringLiteral("end of expression");
    case TokenKind::String: return QStringLiteral("string '%1'").arg(token.text);
    case TokenKind::Time: return QStringLiteral("time `%1`").arg(token.text);
    case TokenKind::AttrNumber: return QStringLiteral("'[%1]'").arg(token.text);
    case TokenKind::AttrString: return QStringLiteral("'\"[%1]\"'").arg(token.text);
    case TokenKind::AttrTime: return QStringLiteral("'`[%1]`'").arg(token.text);
    default: return QStringLiteral("'%1'").arg(token.text);
    }
}

}  // namespace maptune
