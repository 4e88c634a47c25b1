#pragma once
// Mapfile syntax colours: keywords, strings, numbers, comments, and colour
// triples after COLOR-like keywords (the editor draws a swatch for them).

#include <QRegularExpression>
#include <QSyntaxHighlighter>

namespace maptune {

class MapfileHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit MapfileHighlighter(QTextDocument* document);

protected:
    void highlightBlock(const QString& text) override;

private:
    QTextCharFormat m_block, m_keyword, m_string, m_number, m_comment;
    QRegularExpression m_word, m_numberRe;
};

}  // namespace maptune
