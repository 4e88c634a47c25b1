#pragma once
// Recursive-descent parser from tokens to the typed model. Internal to the
// mapfile module: use loadMapFile()/parseMapText() from map_loader.h.
//
// Every block is read by one keyword table (keyword -> handler); errors are
// collected and parsing goes on, so one run reports every problem.

#include "mapfile/map_def.h"
#include "mapfile/map_lexer.h"
#include "mapfile/token_roles.h"

#include <QHash>

#include <functional>
#include <optional>

namespace maptune {

class MapParser;

template <typename T>
struct KeywordEntry {
    std::function<void(MapParser&, T&, const Token&)> handle;
    bool opensBlock = false;  // takes a block ending with END (for error recovery)
};
template <typename T>
using KeywordTable = QHash<QString, KeywordEntry<T>>;

class MapParser {
public:
    MapParser(MapLexer& lexer, Diagnostics& diags) : m_lex(lexer), m_diags(diags) {}

    // Reads "MAP ... END"; returns null if the text holds no MAP at all.
    std::shared_ptr<MapDef> parseMap();
    // Reads "SYMBOLSET SYMBOL ... END ... END" (the SYMBOLSET wrapper is optional).
    QList<SymbolDef> parseSymbolSet();

    // Records what each token was read as (for the formatter); optional.
    void setRoles(TokenRoles* roles) { m_roles = roles; }
    void mark(const Token& t, TokenRole role)
    {
        if (m_roles) m_roles->mark(t, role);
    }

    // Where SYMBOLSET and FONTSET were given, for errors found when loading them.
    SourcePos symbolSetPos, fontSetPos;

    // --- readers used by the keyword handlers ---
    Token next() { return m_lex.next(); }
    const Token& peek() { return m_lex.peek(); }
    QString readString(const Token& kw);
    // One of allowed (upper-cased), or "" after reporting an error.
    QString readWord(const Token& kw, const std::vector<const char*>& allowed);
    double readNumber(const Token& kw);
    int readInt(const Token& kw);
    bool readBool(const Token& kw);
    NumberOrAttr readNumberOrAttr(const Token& kw);
    // allowAlpha: a 4th number is alpha (never after COLORRANGE, whose 2nd colour follows).
    Color readColor(const Token& kw, bool allowAlpha = true);
    ColorOrAttr readColorOrAttr(const Token& kw);
    ExpressionDef readExpression(const Token& kw);
    Rect readExtent(const Token& kw);
    void readKeyValues(const Token& kw, KeyValues& into);
    QStringList readStringBlock(const Token& kw);
    // Numbers up to END (POINTS, PATTERN). A keyword of the enclosing block
    // also ends the list, as a missing END: it is left for the block to read.
    // *end: where the END was, when there was one.
    QList<double> readNumberList(const Token& kw, std::optional<SourcePos>* end = nullptr);
    QList<std::pair<double, double>> readPoints(const Token& kw);
    ExtraProperty readExtra(const Token& kw, int arity);  // arity < 0: a block up to END
    bool nextIsNumber();

    void error(const SourcePos& pos, const QString& message);
    void warning(const SourcePos& pos, const QString& message);

    template <typename T>
    void parseBlock(const Token& opener, const char* blockName, const KeywordTable<T>& table, T& target);

    // Nested blocks, each in the file that knows its keywords.
    void parseLayer(const Token& kw, LayerDef& layer);
    void parseClass(const Token& kw, ClassDef& cls);
    void parseStyle(const Token& kw, StyleDef& style);
    void parseLabel(const Token& kw, LabelDef& label);
    void parseSymbol(const Token& kw, SymbolDef& symbol);
    void parseOutputFormat(const Token& kw, OutputFormatDef& format);
    void parseWeb(const Token& kw, WebDef& web);
    void parseLegend(const Token& kw, LegendDef& legend);
    void parseScalebar(const Token& kw, ScalebarDef& scalebar);
    void parseQueryMap(const Token& kw, QueryMapDef& queryMap);

private:
    bool isArgumentEnd(const Token& t);  // END or a keyword of the block being read
    void missingValue(const Token& kw, const char* what);
    template <typename T>
    void unknownKeyword(const Token& t, const QString& upper, const char* blockName, const KeywordTable<T>& table,
                        T& target);
    void reportUnknown(const Token& t, const char* blockName, const QString& suggestion);
    void skipArguments(const Token& unknown);

    MapLexer& m_lex;
    Diagnostics& m_diags;
    // Keyword sets of the blocks being read, innermost last.
    QList<std::function<bool(const QString&)>> m_blockKeywords;
    bool m_eofReported = false;
    TokenRoles* m_roles = nullptr;
};

// Keywords of the main blocks, to tell where a misplaced keyword belongs.
QStringList mapKeywords();
QStringList layerKeywords();
QStringList classKeywords();
QStringList styleKeywords();
QStringList labelKeywords();
QStringList symbolKeywords();
QStringList webKeywords();
QStringList outputFormatKeywords();

// Closest keyword within a small edit distance (transpositions count once), or "".
QString suggestKeyword(const QString& word, const QStringList& candidates);

// Shared value readers for STATUS and DEBUG, which several blocks accept.
int readDebugLevel(MapParser& p, const Token& k);
LayerStatus readLayerStatus(MapParser& p, const Token& k);
// GEOMTRANSFORM "name" or (expression); the expression form keeps its parentheses.
QString readGeomTransform(MapParser& p, const Token& k);

// Table helpers: one handler per modelled field.
template <typename T>
KeywordEntry<T> stringField(QString T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) { o.*m = p.readString(k); }};
}
template <typename T>
KeywordEntry<T> numberField(double T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) { o.*m = p.readNumber(k); }};
}
template <typename T>
KeywordEntry<T> intField(int T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) { o.*m = p.readInt(k); }};
}
template <typename T>
KeywordEntry<T> boolField(bool T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) { o.*m = p.readBool(k); }};
}
template <typename T>
KeywordEntry<T> wordField(QString T::*m, std::vector<const char*> allowed)
{
    return {[m, values = std::move(allowed)](MapParser& p, T& o, const Token& k) {
        const QString v = p.readWord(k, values);
        if (!v.isEmpty()) o.*m = v;
    }};
}
template <typename T>
KeywordEntry<T> colorField(Color T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) { o.*m = p.readColor(k); }};
}
template <typename T>
KeywordEntry<T> colorOrAttrField(ColorOrAttr T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) { o.*m = p.readColorOrAttr(k); }};
}
template <typename T>
KeywordEntry<T> numberOrAttrField(NumberOrAttr T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) { o.*m = p.readNumberOrAttr(k); }};
}
template <typename T>
KeywordEntry<T> expressionField(ExpressionDef T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) { o.*m = p.readExpression(k); }};
}
template <typename T>
KeywordEntry<T> keyValuesField(KeyValues T::*m)
{
    return {[m](MapParser& p, T& o, const Token& k) { p.readKeyValues(k, o.*m); }, true};
}
// Accepted, kept verbatim for the writer, not interpreted.
template <typename T>
KeywordEntry<T> extraField(int arity)
{
    return {[arity](MapParser& p, T& o, const Token& k) { o.extras.append(p.readExtra(k, arity)); }, arity < 0};
}

// MINSCALE/MAXSCALE are MapServer's old names for MIN/MAXSCALEDENOM.
template <typename T>
void addScaleKeywords(KeywordTable<T>& table, double T::*minField, double T::*maxField)
{
    for (const char* kw : {"MINSCALEDENOM", "MINSCALE"}) table.insert(QLatin1String(kw), numberField(minField));
    for (const char* kw : {"MAXSCALEDENOM", "MAXSCALE"}) table.insert(QLatin1String(kw), numberField(maxField));
}

template <typename T>
void MapParser::parseBlock(const Token& opener, const char* blockName, const KeywordTable<T>& table, T& target)
{
    m_blockKeywords.append([&table](const QString& k) { return table.contains(k); });
    mark(opener, TokenRole::BlockOpen);
    for (;;) {
        const Token t = m_lex.next();
        if (t.kind == Token::Kind::Eof) {
            if (!m_eofReported)
                error(opener.pos, QStringLiteral("missing END for %1 (reached end of file)").arg(QLatin1String(blockName)));
            m_eofReported = true;
            break;
        }
        if (t.kind != Token::Kind::Word) {
            error(t.pos, QStringLiteral("unexpected %1 in %2 (expected a keyword)")
                             .arg(t.describe(), QLatin1String(blockName)));
            continue;
        }
        const QString upper = t.upper();
        if (upper == QLatin1String("END")) break;
        const auto it = table.constFind(upper);
        if (it != table.constEnd()) {
            mark(t, TokenRole::Keyword);
            it->handle(*this, target, t);
        }
        else
            unknownKeyword(t, upper, blockName, table, target);
    }
    m_blockKeywords.removeLast();
}

template <typename T>
void MapParser::unknownKeyword(const Token& t, const QString& upper, const char* blockName,
                               const KeywordTable<T>& table, T& target)
{
    const QString suggestion = suggestKeyword(upper, table.keys());
    reportUnknown(t, blockName, suggestion);
    // A misspelt block opener (STYEL) is read as the block it resembles, so its
    // END does not close the enclosing block and cascade into more errors.
    if (!suggestion.isEmpty() && table.value(suggestion).opensBlock)
        table.value(suggestion).handle(*this, target, t);
    else
        skipArguments(t);
}

}  // namespace maptune
