#pragma once
// A mapfile read as blocks and keywords by the keyword schema alone: values
// are kept as tokens, never interpreted. It works on text that does not
// parse (as it is while someone types), and it is what lint, completion and
// the outline walk; the typed model (map_parser.h) is for drawing.

#include "mapfile/map_lexer.h"
#include "mapfile/schema/keyword_schema.h"

#include <QList>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

namespace maptune {

struct SyntaxNode {
    Token keyword;                       // as written
    QString name;                        // upper-cased
    QString block;                       // the block it is written in ("LAYER"); "" at a file's top
    const KeywordSpec* spec = nullptr;   // null: not a keyword of `block` (or of any top-level block)
    QList<Token> values;
    QList<SyntaxNode> children;          // the keywords of a block it opens
    std::optional<Token> end;            // the END of a block, METADATA, POINTS...

    bool opensBlock() const { return spec && spec->type == ValueType::Block; }
    // Byte offset just after its last token (its END, last value, or keyword).
    int endOffset() const;
    // The first child with this name, or null.
    const SyntaxNode* child(const QString& upper) const;
    QList<const SyntaxNode*> childrenNamed(const QString& upper) const;
    // The first value's text (string unquoted), "" when there is none.
    QString text() const { return values.isEmpty() ? QString() : values.first().text; }
};

struct MapSyntax {
    QList<SyntaxNode> roots;             // MAP, SYMBOLSET, or stray keywords

    using Visitor = std::function<void(const SyntaxNode& node, const QList<const SyntaxNode*>& ancestors)>;
    // Every node depth first, with its enclosing block keywords outermost first.
    void visit(const Visitor& visitor) const;
};

// From tokens (comments are skipped). INCLUDE, when still in the tokens, is
// a keyword of every block with its path as value.
MapSyntax readMapSyntax(const std::vector<Token>& tokens, const KeywordSchema& schema = KeywordSchema::builtin());
// One file's text as written (INCLUDE not followed).
MapSyntax readMapSyntaxText(const QByteArray& text, const QString& file,
                            const KeywordSchema& schema = KeywordSchema::builtin());
// A mapfile with its INCLUDEs read in place; lexer errors land in diags.
MapSyntax readMapSyntaxFile(const QString& path, Diagnostics& diags,
                            const KeywordSchema& schema = KeywordSchema::builtin());

}  // namespace maptune
