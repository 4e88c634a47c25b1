#include "mapfile_editor.h"

#include <QHelpEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QTextBlock>
#include <QToolTip>

namespace maptune {

namespace {

class Gutter : public QWidget {
public:
    explicit Gutter(MapfileEditor* editor) : QWidget(editor), m_editor(editor) {}
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event); }

private:
    MapfileEditor* m_editor;
};

constexpr int kSwatch = 10;

// "COLOR 12 34 56", "OUTLINECOLOR ...", "IMAGECOLOR ..." etc. (not [attr] bindings).
std::optional<QColor> colourOnLine(const QString& line)
{
    static const QRegularExpression re(
        QStringLiteral("^\\s*\\w*COLOR\\w*\\s+(\\d{1,3})\\s+(\\d{1,3})\\s+(\\d{1,3})\\b"),
        QRegularExpression::CaseInsensitiveOption);
    const auto m = re.match(line);
    if (!m.hasMatch()) return std::nullopt;
    return QColor(std::min(255, m.captured(1).toInt()), std::min(255, m.captured(2).toInt()),
                  std::min(255, m.captured(3).toInt()));
}

}  // namespace

MapfileEditor::MapfileEditor(QWidget* parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this))
{
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::TypeWriter);
    setFont(mono);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, &MapfileEditor::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &MapfileEditor::updateExtraSelections);
    setViewportMargins(gutterWidth(), 0, 0, 0);
    updateExtraSelections();
}

int MapfileEditor::gutterWidth() const
{
    const int digits = int(QString::number(std::max(1, blockCount())).size());
    return 8 + kSwatch + 4 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

void MapfileEditor::updateGutter(const QRect& rect, int dy)
{
    if (dy) m_gutter->scroll(0, dy);
    else m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void MapfileEditor::resizeEvent(QResizeEvent* event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect cr = contentsRect();
    m_gutter->setGeometry(QRect(cr.left(), cr.top(), gutterWidth(), cr.height()));
}

void MapfileEditor::paintGutter(QPaintEvent* event)
{
    QPainter p(m_gutter);
    p.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int lineHeight = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        if (block.isVisible() && bottom >= event->rect().top()) {
            const int line = block.blockNumber() + 1;
            bool hasError = false;
            for (const Diagnostic& d : std::as_const(m_diagnostics))
                hasError |= d.pos.line == line && d.isError();
            p.setPen(hasError ? QColor(Qt::red) : palette().color(QPalette::PlaceholderText));
            p.drawText(0, top, m_gutter->width() - kSwatch - 8, lineHeight, Qt::AlignRight, QString::number(line));
            if (const auto colour = colourOnLine(block.text())) {
                const QRect swatch(m_gutter->width() - kSwatch - 3, top + (lineHeight - kSwatch) / 2, kSwatch, kSwatch);
                p.fillRect(swatch, *colour);
                p.setPen(Qt::darkGray);
                p.drawRect(swatch.adjusted(0, 0, -1, -1));
            }
        }
        block = block.next();
        top = bottom;
    }
}

void MapfileEditor::setDiagnostics(const Diagnostics& diagnostics, const QString& file)
{
    m_diagnostics.clear();
    for (const Diagnostic& d : diagnostics)
        if (d.pos.line > 0 && (d.pos.file.isEmpty() || file.isEmpty() || d.pos.file == file)) m_diagnostics << d;
    updateExtraSelections();
    m_gutter->update();
}

void MapfileEditor::updateExtraSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    QTextEdit::ExtraSelection current;
    current.format.setBackground(palette().color(QPalette::Highlight).lighter(190));
    current.format.setProperty(QTextFormat::FullWidthSelection, true);
    current.cursor = textCursor();
    current.cursor.clearSelection();
    selections << current;
    for (const Diagnostic& d : std::as_const(m_diagnostics)) {
        const QTextBlock block = document()->findBlockByNumber(d.pos.line - 1);
        if (!block.isValid()) continue;
        QTextEdit::ExtraSelection s;
        s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        s.format.setUnderlineColor(d.isError() ? QColor(Qt::red) : QColor(0xd0, 0x90, 0x00));
        s.format.setToolTip(d.message);
        // Underline the token at the column (or the whole line without one).
        const QString text = block.text();
        int start = std::clamp(d.pos.column - 1, 0, int(std::max<qsizetype>(0, text.size() - 1)));
        int end = start;
        while (end < text.size() && !text[end].isSpace()) ++end;
        if (d.pos.column <= 0 || end == start) {
            start = 0;
            end = int(text.size());
        }
        s.cursor = QTextCursor(block);
        s.cursor.setPosition(block.position() + start);
        s.cursor.setPosition(block.position() + std::max(end, start + 1), QTextCursor::KeepAnchor);
        selections << s;
    }
    setExtraSelections(selections);
}

bool MapfileEditor::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QTextCursor c = cursorForPosition(help->pos());
        QStringList messages;
        for (const Diagnostic& d : std::as_const(m_diagnostics))
            if (d.pos.line == c.blockNumber() + 1) messages << d.message;
        if (!messages.isEmpty()) {
            QToolTip::showText(help->globalPos(), messages.join(QLatin1Char('\n')), this);
            return true;
        }
    }
    return QPlainTextEdit::viewportEvent(event);
}

void MapfileEditor::goTo(int line, int column)
{
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid()) return;
    QTextCursor c(block);
    c.setPosition(block.position() + std::clamp(column - 1, 0, int(block.text().size())));
    setTextCursor(c);
    centerCursor();
    setFocus();
}

}  // namespace maptune
