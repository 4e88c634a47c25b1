#include "mapfile_highlighter.h"

#include "mapfile_blocks.h"

namespace maptune {

namespace {

// Keywords that open a block closed by END, END itself and INCLUDE: shown
// bold, like structure (the list is the editor's block matching's).
bool isStructure(const QString& upper)
{
    return upper == QLatin1String("END") || upper == QLatin1String("INCLUDE") || opensMapfileBlock(upper);
}

}  // namespace

MapfileHighlighter::MapfileHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document),
      m_word(QStringLiteral("\\b[A-Za-z_][A-Za-z0-9_]*\\b")),
      m_numberRe(QStringLiteral("(?<![\\w.])-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?\\b"))
{
    m_block.setForeground(QColor(0x1a, 0x4f, 0x9c));
    m_block.setFontWeight(QFont::Bold);
    m_keyword.setForeground(QColor(0x7a, 0x1f, 0x9c));
    m_string.setForeground(QColor(0x2e, 0x7d, 0x32));
    m_number.setForeground(QColor(0xb3, 0x5c, 0x00));
    m_comment.setForeground(QColor(0x80, 0x80, 0x80));
    m_comment.setFontItalic(true);
}

void MapfileHighlighter::highlightBlock(const QString& text)
{
    // One pass that knows about strings, so that '#' inside quotes is not a comment.
    int stringsEnd = 0;
    QList<std::pair<int, int>> strings;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == QLatin1Char('#')) {
            setFormat(i, int(text.size()) - i, m_comment);
            stringsEnd = i;
            break;
        }
        if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
            int j = i + 1;
            while (j < text.size() && text[j] != c) j += (text[j] == QLatin1Char('\\')) ? 2 : 1;
            const int len = std::min(int(text.size()), j + 1) - i;
            strings.append({i, len});
            setFormat(i, len, m_string);
            i = i + len - 1;
        }
        stringsEnd = i + 1;
    }
    auto inString = [&strings](int pos) {
        for (const auto& [start, len] : strings)
            if (pos >= start && pos < start + len) return true;
        return false;
    };
    const QString code = text.left(stringsEnd);
    for (auto it = m_word.globalMatch(code); it.hasNext();) {
        const auto m = it.next();
        if (inString(int(m.capturedStart()))) continue;
        const QString word = m.captured().toUpper();
        if (isStructure(word)) setFormat(int(m.capturedStart()), int(m.capturedLength()), m_block);
        else if (m.captured() == word && word.size() > 1)
            setFormat(int(m.capturedStart()), int(m.capturedLength()), m_keyword);
    }
    for (auto it = m_numberRe.globalMatch(code); it.hasNext();) {
        const auto m = it.next();
        if (!inString(int(m.capturedStart()))) setFormat(int(m.capturedStart()), int(m.capturedLength()), m_number);
    }
}

}  // namespace maptune
