#pragma once
// The KEYWORD ... END blocks of the text in the editor, found from its tokens
// (a keyword inside a string or comment does not count). Lexical rather than
// parsed, so that block matching and folding keep working on text that does
// not parse, as it is while typing.

#include <QList>
#include <QString>

class QTextDocument;

namespace maptune {

struct MapfileBlock {
    int openPos = -1;     // document position of the opening keyword
    int openLength = 0;
    int endPos = -1;      // of its END; -1 when the block is not closed
    int openLine = 0;     // 0-based text block (line) numbers
    int endLine = -1;
    bool closed() const { return endPos >= 0; }
    bool spansLines() const { return closed() && endLine > openLine; }
};

// Keywords that open a block closed by END, upper-cased. scanMapfileBlocks
// counts SYMBOL and SYMBOLSET only when nothing follows them on their line:
// SYMBOL "circle" in a STYLE is a value.
bool opensMapfileBlock(const QString& upper);

// Every block, in the order of its opening keyword.
QList<MapfileBlock> scanMapfileBlocks(const QTextDocument& document);

}  // namespace maptune
