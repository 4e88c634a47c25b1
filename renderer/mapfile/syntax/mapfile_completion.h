#pragma once
// What may be typed at a place in a mapfile: the keywords of the block the
// cursor is in, or the values of the keyword it follows, from the keyword
// schema and from what the open map knows (symbols, fonts, attributes).
// Lexical, so it answers on text that does not parse yet.

#include "mapfile/schema/keyword_schema.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace maptune {

struct CompletionSources {
    QStringList symbols;      // SYMBOL names of the map and its SYMBOLSET
    QStringList fonts;        // FONTSET aliases
    QStringList attributes;   // of the layer the cursor is in
    QString mapPath;          // the mapfile: file paths complete relative to its folder (DATA: SHAPEPATH first)
};

struct CompletionContext {
    QStringList blocks;       // enclosing blocks, outermost first: MAP, LAYER, CLASS
    QString keyword;          // the keyword whose value is being typed ("" at a keyword position)
    QString prefix;           // what is typed of the word at the cursor
    int prefixStart = 0;      // byte offset where the prefix starts
    QString layerName;        // the NAME of the enclosing LAYER, when there is one
    bool inLiteral = false;   // inside a string or comment: only file paths and EPSG codes complete
    QString shapePath;        // the MAP's SHAPEPATH, as written
    QString block() const { return blocks.isEmpty() ? QString() : blocks.last(); }
};

struct CompletionItem {
    enum class Kind { Keyword, Value, Symbol, Font, Attribute, Path, Crs };
    QString text;             // to insert
    Kind kind = Kind::Keyword;
    QString detail;           // type or source ("color", "FONTSET", a CRS's name)
    const KeywordSpec* spec = nullptr;
};

// The context at a byte offset of UTF-8 mapfile text.
CompletionContext completionContextAt(const QByteArray& text, int offset,
                                      const KeywordSchema& schema = KeywordSchema::builtin());

// Candidates for that context whose text starts with its prefix (case-insensitively), sorted.
QList<CompletionItem> completionsFor(const CompletionContext& context, const CompletionSources& sources = {},
                                     const KeywordSchema& schema = KeywordSchema::builtin());

// The keyword under a byte offset and the block it is written in, for hover
// help: null when the offset is not on a keyword the schema knows.
struct KeywordAt {
    const KeywordSpec* spec = nullptr;
    QString block;
    int offset = -1, length = 0;   // of the keyword in the text
};
KeywordAt keywordAt(const QByteArray& text, int offset, const KeywordSchema& schema = KeywordSchema::builtin());

// EPSG codes and names from PROJ's database ("4326", "WGS 84"), read once.
const QList<std::pair<QString, QString>>& epsgCodes();

// Hover text for a keyword: type, values, default, versions, description (rich text).
QString keywordHelpHtml(const KeywordSpec& spec, const QString& block);

}  // namespace maptune
