#pragma once
// Tokens of the mapfile language, read from a stack of sources: INCLUDE "file"
// splices the file's tokens in place wherever it appears (as MapServer's lexer
// does), with positions that name the included file.

#include "mapfile/diagnostic.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace maptune {

struct Token {
    enum class Kind {
        Eof,
        Word,     // bare word or number: NAME, 12.5, png8, etc/fonts.txt
        String,   // "..." or '...' (unescaped); caseInsensitive for "..."i
        Attr,     // [item]
        Regex,    // /re/ or /re/i
        Logical,  // ( ... ) kept verbatim without the outer parentheses
        List,     // { ... } without the braces
        Time,     // `...` without the backticks
        Comment,  // # to the end of the line, or /* ... */ (only from scanSourceTokens)
    };
    Kind kind = Kind::Eof;
    QString text;
    bool caseInsensitive = false;
    SourcePos pos;
    int offset = -1;  // bytes into its source text, and how many it spans
    int length = 0;

    bool isWord(const char* upper) const;  // a Word equal to upper, case-insensitively
    QString upper() const { return text.toUpper(); }
    QString raw() const;                    // canonical source text: quoted, bracketed...
    QString describe() const;               // for messages: "string \"x\"", "'NAME'"...
};

class MapLexer {
public:
    static constexpr int kMaxIncludeDepth = 5;

    // includeBase: the directory relative INCLUDE paths resolve against
    // (MapServer: the main mapfile's directory, for nested includes too).
    MapLexer(const QByteArray& text, const QString& file, const QString& includeBase, Diagnostics& diags);
    ~MapLexer();

    Token next();
    const Token& peek();
    const QStringList& includedFiles() const { return m_included; }

    // Every token of one text as written, comments included and INCLUDE left
    // as a word: what a formatter needs to keep everything the author wrote.
    static std::vector<Token> scanSourceTokens(const QByteArray& text, const QString& file, Diagnostics& diags);

private:
    struct Source;
    Token lex();
    Token lexIn(Source& s);
    Token lexToken(Source& s);
    void pushInclude(const Token& includeKw);
    void error(const SourcePos& pos, const QString& message);

    std::vector<std::unique_ptr<Source>> m_stack;
    QString m_includeBase;
    Diagnostics& m_diags;
    QStringList m_included;
    std::optional<Token> m_peeked;
    bool m_sourceOnly = false;  // scanSourceTokens: comments kept, no INCLUDE
};

// "text" with backslashes and double quotes escaped, as the lexer reads it back.
QString quoteMapString(const QString& text);

}  // namespace maptune
