#include "mapfile_blocks.h"

#include "mapfile/map_lexer.h"

#include <QSet>
#include <QTextBlock>
#include <QTextDocument>

namespace maptune {

namespace {

// The lexer counts columns in code points, the document in UTF-16 units.
int documentPosition(const QTextDocument& document, const SourcePos& pos)
{
    const QTextBlock block = document.findBlockByNumber(pos.line - 1);
    if (!block.isValid()) return -1;
    const QString text = block.text();
    int index = 0;
    for (int points = 1; points < pos.column && index < text.size(); ++points)
        index += (text[index].isHighSurrogate() && index + 1 < text.size()) ? 2 : 1;
    return block.position() + index;
}

bool valueKeyword(const QString& upper) { return upper == QLatin1String("SYMBOL") || upper == QLatin1String("SYMBOLSET"); }

}  // namespace

bool opensMapfileBlock(const QString& upper)
{
    static const QSet<QString> words = {
        QStringLiteral("MAP"), QStringLiteral("LAYER"), QStringLiteral("CLASS"), QStringLiteral("STYLE"),
        QStringLiteral("LABEL"), QStringLiteral("PROJECTION"), QStringLiteral("METADATA"),
        QStringLiteral("VALIDATION"), QStringLiteral("FEATURE"), QStringLiteral("POINTS"), QStringLiteral("WEB"),
        QStringLiteral("LEGEND"), QStringLiteral("SCALEBAR"), QStringLiteral("QUERYMAP"),
        QStringLiteral("REFERENCE"), QStringLiteral("OUTPUTFORMAT"), QStringLiteral("SYMBOL"),
        QStringLiteral("SYMBOLSET"), QStringLiteral("COMPOSITE"), QStringLiteral("LEADER"), QStringLiteral("GRID"),
        QStringLiteral("JOIN"), QStringLiteral("CLUSTER"), QStringLiteral("SCALETOKEN"), QStringLiteral("VALUES"),
        QStringLiteral("PATTERN"), QStringLiteral("CONNECTIONOPTIONS"), QStringLiteral("BINDVALS"),
        QStringLiteral("IDENTIFY")};
    return words.contains(upper);
}

QList<MapfileBlock> scanMapfileBlocks(const QTextDocument& document)
{
    Diagnostics ignored;  // the parser reports these; here a bad token is just skipped
    const std::vector<Token> tokens =
        MapLexer::scanSourceTokens(document.toPlainText().toUtf8(), QString(), ignored);
    QList<MapfileBlock> blocks;
    QList<qsizetype> open;  // indexes into blocks of the blocks not yet closed
    for (size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.kind != Token::Kind::Word) continue;
        const QString upper = t.upper();
        if (upper == QLatin1String("END")) {
            if (open.isEmpty()) continue;  // a stray END: the parser reports it
            MapfileBlock& b = blocks[open.takeLast()];
            b.endPos = documentPosition(document, t.pos);
            b.endLine = t.pos.line - 1;
            continue;
        }
        if (!opensMapfileBlock(upper)) continue;
        if (valueKeyword(upper)) {
            size_t next = i + 1;
            while (next < tokens.size() && tokens[next].kind == Token::Kind::Comment) ++next;
            if (next < tokens.size() && tokens[next].pos.line == t.pos.line) continue;
        }
        MapfileBlock b;
        b.openPos = documentPosition(document, t.pos);
        b.openLength = int(t.text.size());
        b.openLine = t.pos.line - 1;
        open << blocks.size();
        blocks << b;
    }
    return blocks;
}

}  // namespace maptune
