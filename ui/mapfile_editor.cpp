#include "mapfile_editor.h"

#include "mapfile_completer.h"
#include "mapfile/syntax/mapfile_completion.h"
#include "mapfile/syntax/mapfile_navigation.h"
#include "symbol_preview.h"

#include <QColorDialog>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTimer>
#include <QToolTip>

namespace maptune {

namespace {

class Gutter : public QWidget {
public:
    explicit Gutter(MapfileEditor* editor) : QWidget(editor), m_editor(editor) {}
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent* event) override { m_editor->paintGutter(event); }
    void mousePressEvent(QMouseEvent* event) override
    {
        if (event->button() == Qt::LeftButton) m_editor->gutterPressed(event->position().toPoint());
    }

private:
    MapfileEditor* m_editor;
};

// Set on the first line of a folded block; Qt deletes it with the line.
class FoldMark : public QTextBlockUserData {};

constexpr int kSwatch = 10;
// Above this many characters (some 3000 lines) scanning the blocks costs
// milliseconds: it waits for a pause in typing.
constexpr int kScanAtOnceChars = 100000;
constexpr int kRescanDelayMs = 150;
constexpr int kFold = 9;
// Tells the extra selections apart (tests look for the block match).
constexpr int kBlockMatchProperty = QTextFormat::UserProperty + 1;

// "COLOR 12 34 56", "OUTLINECOLOR ...", "IMAGECOLOR ..." etc. (not [attr] bindings).
QRegularExpressionMatch matchColour(const QString& line)
{
    static const QRegularExpression re(
        QStringLiteral("^\\s*\\w*COLOR\\w*\\s+(\\d{1,3})\\s+(\\d{1,3})\\s+(\\d{1,3})\\b"),
        QRegularExpression::CaseInsensitiveOption);
    return re.match(line);
}

std::optional<QColor> colourOnLine(const QString& line)
{
    const auto m = matchColour(line);
    if (!m.hasMatch()) return std::nullopt;
    return QColor(std::min(255, m.captured(1).toInt()), std::min(255, m.captured(2).toInt()),
                  std::min(255, m.captured(3).toInt()));
}

bool isFoldMark(const QTextBlock& block) { return dynamic_cast<FoldMark*>(block.userData()) != nullptr; }

// The text index of a 1-based code point column (the lexer counts code points).
int indexOfColumn(const QString& text, int column)
{
    int index = 0;
    for (int points = 1; points < column && index < text.size(); ++points)
        index += (text[index].isHighSurrogate() && index + 1 < text.size()) ? 2 : 1;
    return index;
}

}  // namespace

MapfileEditor::MapfileEditor(QWidget* parent)
    : QPlainTextEdit(parent), m_gutter(new Gutter(this)), m_completer(new MapfileCompleter(this)), m_rescan(new QTimer(this))
{
    m_rescan->setSingleShot(true);
    m_rescan->setInterval(kRescanDelayMs);
    connect(m_rescan, &QTimer::timeout, this, [this] {
        m_blocksDirty = true;
        updateExtraSelections();
        if (m_hasFolds) applyFolds();
        m_gutter->update();
    });
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::TypeWriter);
    setFont(mono);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, &MapfileEditor::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &MapfileEditor::cursorMoved);
    connect(this, &QPlainTextEdit::textChanged, this, [this] {
        watchDocument();
        scheduleFolds();
    });
    watchDocument();
    setViewportMargins(gutterWidth(), 0, 0, 0);
    updateExtraSelections();
}

int MapfileEditor::gutterWidth() const
{
    const int digits = int(QString::number(std::max(1, blockCount())).size());
    return 8 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits) + 4 + kSwatch + 4 + kFold + 3;
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

QRect MapfileEditor::lineRect(int line) const
{
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid() || !block.isVisible()) return {};
    const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
    if (r.bottom() < 0 || r.top() > viewport()->height()) return {};
    return QRect(0, qRound(r.top()), m_gutter->width(), fontMetrics().height());
}

int MapfileEditor::lineAtY(int y) const
{
    const int line = cursorForPosition(QPoint(0, y)).blockNumber() + 1;
    const QRect r = lineRect(line);
    return r.isValid() && y >= r.top() && y < r.top() + qRound(blockBoundingRect(document()->findBlockByNumber(line - 1)).height())
               ? line
               : 0;
}

QRect MapfileEditor::swatchRect(int line) const
{
    const QRect r = lineRect(line);
    if (r.isNull() || !colourOnLine(document()->findBlockByNumber(line - 1).text())) return {};
    return QRect(m_gutter->width() - kFold - 3 - 4 - kSwatch, r.top() + (r.height() - kSwatch) / 2, kSwatch, kSwatch);
}

QRect MapfileEditor::foldMarkerRect(int line) const
{
    const QRect r = lineRect(line);
    if (r.isNull() || !canFold(line)) return {};
    return QRect(m_gutter->width() - kFold - 3, r.top() + (r.height() - kFold) / 2, kFold, kFold);
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
            p.drawText(0, top, m_gutter->width() - kSwatch - kFold - 14, lineHeight, Qt::AlignRight, QString::number(line));
            if (const QRect swatch = swatchRect(line); !swatch.isNull()) {
                p.fillRect(swatch, *colourOnLine(block.text()));
                p.setPen(Qt::darkGray);
                p.drawRect(swatch.adjusted(0, 0, -1, -1));
            }
            if (const QRect fold = foldMarkerRect(line); !fold.isNull()) {
                // A folded block with an error inside shows it on its marker.
                bool hiddenError = false;
                const MapfileBlock& b = m_blocks[m_foldableByLine.value(line - 1)];
                if (isFolded(line))
                    for (const Diagnostic& d : std::as_const(m_diagnostics))
                        hiddenError |= d.isError() && d.pos.line > line && d.pos.line <= b.endLine + 1;
                p.setPen(hiddenError ? QColor(Qt::red) : palette().color(QPalette::PlaceholderText));
                p.drawRect(fold.adjusted(0, 0, -1, -1));
                const int midY = fold.center().y(), midX = fold.center().x();
                p.drawLine(fold.left() + 2, midY, fold.right() - 2, midY);
                if (isFolded(line)) p.drawLine(midX, fold.top() + 2, midX, fold.bottom() - 2);
            }
        }
        block = block.next();
        top = bottom;
    }
}

void MapfileEditor::gutterPressed(const QPoint& pos)
{
    const int line = lineAtY(pos.y());
    if (line <= 0) return;
    if (swatchRect(line).adjusted(-2, -2, 2, 2).contains(pos)) pickColour(line);
    else if (foldMarkerRect(line).adjusted(-2, -2, 2, 2).contains(pos)) setFolded(line, !isFolded(line));
}

void MapfileEditor::setDiagnostics(const Diagnostics& diagnostics, const QString& file)
{
    m_diagnostics.clear();
    for (const Diagnostic& d : diagnostics)
        if (d.pos.line > 0 && (d.pos.file.isEmpty() || file.isEmpty() || d.pos.file == file)) m_diagnostics << d;
    updateExtraSelections();
    m_gutter->update();
}

void MapfileEditor::cursorMoved()
{
    watchDocument();
    const QTextCursor cursor = textCursor();
    const QTextBlock block = cursor.block();
    if (!block.isVisible()) {
        if (const MapfileBlock* fold = foldedBlockHiding(block.blockNumber())) {
            if (m_navigating) {
                // Arrow keys step over a folded block as over one line.
                const bool down = block.blockNumber() + 1 > m_lastCursorLine;
                const QTextBlock after = document()->findBlockByNumber(fold->endLine + 1);
                const QTextBlock opener = document()->findBlockByNumber(fold->openLine);
                const int target = down && after.isValid() ? after.position() : opener.position() + opener.length() - 1;
                QTextCursor c = cursor;
                c.setPosition(target, cursor.hasSelection() ? QTextCursor::KeepAnchor : QTextCursor::MoveAnchor);
                setTextCursor(c);
                return;
            }
            // A jump (find, go to line, a diagnostic) into a folded block opens it.
            while (const MapfileBlock* f = foldedBlockHiding(block.blockNumber()))
                document()->findBlockByNumber(f->openLine).setUserData(nullptr);
            applyFolds();
            ensureCursorVisible();
        }
    }
    m_lastCursorLine = textCursor().blockNumber() + 1;
    updateExtraSelections();
}

void MapfileEditor::keyPressEvent(QKeyEvent* event)
{
    static const QList<int> moves = {Qt::Key_Up, Qt::Key_Down, Qt::Key_Left, Qt::Key_Right, Qt::Key_PageUp,
                                     Qt::Key_PageDown};
    if (m_completer->keyBefore(event)) return;
    m_navigating = moves.contains(event->key());
    QPlainTextEdit::keyPressEvent(event);
    m_navigating = false;
    m_completer->keyAfter(event);
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
    if (const std::optional<MapfileBlock> b = blockAtCursor()) {
        // The keyword and its END; an opener without END shows in red.
        auto mark = [&selections, closed = b->closed()](int position, int length, QTextDocument* doc) {
            QTextEdit::ExtraSelection s;
            s.format.setBackground(closed ? QColor(0xb9, 0xe4, 0xbc) : QColor(0xf4, 0xb6, 0xb6));
            s.format.setProperty(kBlockMatchProperty, true);
            s.cursor = QTextCursor(doc);
            s.cursor.setPosition(position);
            s.cursor.setPosition(position + length, QTextCursor::KeepAnchor);
            selections << s;
        };
        mark(b->openPos, b->openLength, document());
        if (b->closed()) mark(b->endPos, 3, document());
    }
    for (const Diagnostic& d : std::as_const(m_diagnostics)) {
        const QTextBlock block = document()->findBlockByNumber(d.pos.line - 1);
        if (!block.isValid()) continue;
        QTextEdit::ExtraSelection s;
        s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        s.format.setUnderlineColor(d.isError() ? QColor(Qt::red) : QColor(0xd0, 0x90, 0x00));
        s.format.setToolTip(d.message);
        // Underline the token at the column: a quoted string to its closing
        // quote, a word to the next space (the whole line without a column).
        const QString text = block.text();
        int start = std::clamp(indexOfColumn(text, d.pos.column), 0, int(std::max<qsizetype>(0, text.size() - 1)));
        int end = start;
        if (start < text.size() && (text[start] == QLatin1Char('"') || text[start] == QLatin1Char('\''))) {
            const qsizetype close = text.indexOf(text[start], start + 1);
            end = close < 0 ? int(text.size()) : int(close) + 1;
        } else {
            while (end < text.size() && !text[end].isSpace()) ++end;
        }
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
        const QString text = hoverTextAt(help->pos());
        if (!text.isEmpty()) {
            QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
        QToolTip::hideText();
    }
    return QPlainTextEdit::viewportEvent(event);
}

QString MapfileEditor::hoverTextAt(const QPoint& viewportPos) const
{
    const QTextCursor c = cursorForPosition(viewportPos);
    QStringList messages;
    for (const Diagnostic& d : std::as_const(m_diagnostics))
        if (d.pos.line == c.blockNumber() + 1) messages << d.message.toHtmlEscaped();
    if (!messages.isEmpty()) return messages.join(QStringLiteral("<br/>"));
    // Only over the text itself: past the end of a line there is no keyword.
    const QRect r = cursorRect(c);
    if (std::abs(r.center().x() - viewportPos.x()) > fontMetrics().averageCharWidth() * 2) return {};
    const QString text = toPlainText();
    const QByteArray utf8 = text.toUtf8();
    const int offset = utf8Offset(text, c.position());
    // A SYMBOL's name (in a STYLE, or a SYMBOL block's NAME): how it looks.
    QString preview;
    if (const MapDefPtr& map = m_completer->map()) {
        const auto [keyword, name] = referenceNameAt(utf8, offset);
        if (keyword == QLatin1String("SYMBOL")) preview = symbolPreviewHtml(*map, name);
    }
    const KeywordAt k = keywordAt(utf8, offset);
    const QString help = k.spec ? keywordHelpHtml(*k.spec, k.block) : QString();
    if (preview.isEmpty()) return help;
    return help.isEmpty() ? preview : preview + QStringLiteral("<br/>") + help;
}

void MapfileEditor::paintEvent(QPaintEvent* event)
{
    QPlainTextEdit::paintEvent(event);
    // A folded line ends in a "…" box, so that the hidden lines are not missed.
    QPainter p(viewport());
    p.setPen(palette().color(QPalette::PlaceholderText));
    const int h = fontMetrics().height();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        const QRectF r = blockBoundingGeometry(block).translated(contentOffset());
        if (r.top() > event->rect().bottom()) break;
        if (!block.isVisible() || !isFoldMark(block) || !block.layout() || block.layout()->lineCount() == 0) continue;
        const QTextLine last = block.layout()->lineAt(block.layout()->lineCount() - 1);
        const QRect box(qRound(r.left() + last.naturalTextWidth()) + 8, qRound(r.top()) + 1,
                        fontMetrics().horizontalAdvance(QStringLiteral(" … ")), h - 2);
        p.drawRoundedRect(box, 3, 3);
        p.drawText(box, Qt::AlignCenter, QStringLiteral("…"));
    }
}

void MapfileEditor::goTo(int line, int column)
{
    const QTextBlock block = document()->findBlockByNumber(std::max(0, line - 1));
    if (!block.isValid()) return;
    QTextCursor c(block);
    c.setPosition(block.position() + std::clamp(indexOfColumn(block.text(), column), 0, int(block.text().size())));
    setTextCursor(c);
    centerCursor();
    setFocus();
}

// --- blocks and folding ---

// QPlainTextEdit::setDocument is not virtual: the document is checked here.
void MapfileEditor::watchDocument()
{
    if (m_watched == document()) return;
    if (m_watched) disconnect(m_watched, &QTextDocument::contentsChange, this, nullptr);
    m_watched = document();
    connect(m_watched, &QTextDocument::contentsChange, this, &MapfileEditor::contentsChanged);
    m_lineCount = m_watched->blockCount();
    m_blocksDirty = true;
}

void MapfileEditor::contentsChanged(int from, int removed, int added)
{
    const int lines = document()->blockCount();
    if (document()->characterCount() <= kScanAtOnceChars || m_blocksDirty) {
        m_blocksDirty = true;
    } else if (removed != added || lines != m_lineCount) {
        // Move what follows the edit along; the scan after the pause corrects the rest.
        const int delta = added - removed, lineDelta = lines - m_lineCount;
        for (MapfileBlock& b : m_blocks) {
            if (b.openPos >= from + removed) {
                b.openPos += delta;
                b.openLine += lineDelta;
            }
            if (b.closed() && b.endPos >= from + removed) {
                b.endPos += delta;
                b.endLine += lineDelta;
            }
        }
        indexFoldable();
        m_rescan->start();
    } else {
        m_rescan->start();  // a replacement of the same length, or only formats
    }
    m_lineCount = lines;
}

void MapfileEditor::indexFoldable() const
{
    m_foldableByLine.clear();
    // The first block that opens on a line and spans lines is the one its marker folds.
    for (qsizetype i = 0; i < m_blocks.size(); ++i)
        if (m_blocks[i].spansLines() && !m_foldableByLine.contains(m_blocks[i].openLine))
            m_foldableByLine.insert(m_blocks[i].openLine, int(i));
}

const QList<MapfileBlock>& MapfileEditor::blocks() const
{
    if (m_blocksDirty || m_watched != document()) {
        m_blocks = scanMapfileBlocks(*document());
        indexFoldable();
        m_blocksDirty = false;
        m_rescan->stop();
    }
    return m_blocks;
}

std::optional<MapfileBlock> MapfileEditor::blockAtCursor() const
{
    const int p = textCursor().position();
    for (const MapfileBlock& b : blocks()) {
        if (p >= b.openPos && p <= b.openPos + b.openLength) return b;
        if (b.closed() && p >= b.endPos && p <= b.endPos + 3) return b;
    }
    return std::nullopt;
}

bool MapfileEditor::canFold(int line) const
{
    blocks();
    return m_foldableByLine.contains(line - 1);
}

bool MapfileEditor::isFolded(int line) const { return isFoldMark(document()->findBlockByNumber(line - 1)); }

const MapfileBlock* MapfileEditor::foldedBlockHiding(int line0) const
{
    const QList<MapfileBlock>& all = blocks();
    const MapfileBlock* outer = nullptr;
    for (auto it = m_foldableByLine.cbegin(); it != m_foldableByLine.cend(); ++it) {
        const MapfileBlock& b = all[it.value()];
        if (b.openLine < line0 && line0 <= b.endLine && isFolded(b.openLine + 1) && (!outer || b.openLine < outer->openLine))
            outer = &b;
    }
    return outer;
}

void MapfileEditor::setFolded(int line, bool folded)
{
    QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid() || (folded && !canFold(line)) || folded == isFolded(line)) return;
    if (folded) {
        const MapfileBlock& b = m_blocks[m_foldableByLine.value(line - 1)];
        block.setUserData(new FoldMark);
        m_hasFolds = true;
        // The cursor must not stay on a line that is about to be hidden.
        const int cursorLine = textCursor().blockNumber();
        if (cursorLine > b.openLine && cursorLine <= b.endLine) {
            QTextCursor c(block);
            c.movePosition(QTextCursor::EndOfBlock);
            setTextCursor(c);
        }
    } else {
        block.setUserData(nullptr);
    }
    applyFolds();
}

void MapfileEditor::toggleFoldAtCursor()
{
    const int line0 = textCursor().blockNumber();
    if (isFolded(line0 + 1)) {
        setFolded(line0 + 1, false);
        return;
    }
    // The innermost block spanning lines that holds the cursor's line.
    const QList<MapfileBlock>& all = blocks();
    int best = -1;
    for (auto it = m_foldableByLine.cbegin(); it != m_foldableByLine.cend(); ++it) {
        const MapfileBlock& b = all[it.value()];
        if (b.openLine <= line0 && line0 <= b.endLine && (best < 0 || b.openLine > best)) best = b.openLine;
    }
    if (best >= 0) setFolded(best + 1, true);
}

void MapfileEditor::unfoldAll()
{
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next())
        if (isFoldMark(b)) b.setUserData(nullptr);
    applyFolds();
}

void MapfileEditor::scheduleFolds()
{
    if (!m_hasFolds || m_foldsPending) return;
    m_foldsPending = true;
    // After the edit is complete (and the blocks can be scanned again).
    QTimer::singleShot(0, this, &MapfileEditor::applyFolds);
}

void MapfileEditor::applyFolds()
{
    m_foldsPending = false;
    const QList<MapfileBlock>& all = blocks();
    QTextDocument* doc = document();
    std::vector<char> hidden(size_t(doc->blockCount()), 0);
    for (auto it = m_foldableByLine.cbegin(); it != m_foldableByLine.cend(); ++it) {
        const MapfileBlock& b = all[it.value()];
        if (!isFolded(b.openLine + 1)) continue;
        for (int l = b.openLine + 1; l <= b.endLine && l < int(hidden.size()); ++l) hidden[size_t(l)] = 1;
    }
    int first = -1, last = -1, line = 0;
    bool anyFold = false;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next(), ++line) {
        // An edit that took the block's END away leaves nothing to fold.
        if (isFoldMark(b) && !m_foldableByLine.contains(line)) b.setUserData(nullptr);
        anyFold |= isFoldMark(b);
        const bool visible = !hidden[size_t(line)];
        if (b.isVisible() == visible) continue;
        b.setVisible(visible);
        if (first < 0) first = b.position();
        last = b.position() + b.length();
    }
    m_hasFolds = anyFold;
    if (first >= 0) {
        doc->markContentsDirty(first, std::min(last, doc->characterCount()) - first);
        ensureCursorVisible();
    }
    viewport()->update();
    m_gutter->update();
}

// --- fixes and colours ---

bool MapfileEditor::applyFix(const Diagnostic& d)
{
    if (!d.fix || d.pos.line <= 0 || d.pos.column <= 0) return false;
    const QTextBlock block = document()->findBlockByNumber(d.pos.line - 1);
    if (!block.isValid()) return false;
    const int start = indexOfColumn(block.text(), d.pos.column);
    const QString original = d.fix->original;
    if (block.text().mid(start, original.size()) != original) return false;  // edited since
    // Keep the author's case: a lower-case mapfile stays lower-case.
    const bool lower = original == original.toLower();
    QTextCursor c(document());
    c.setPosition(block.position() + start);
    c.setPosition(block.position() + start + int(original.size()), QTextCursor::KeepAnchor);
    c.insertText(lower ? d.fix->replacement.toLower() : d.fix->replacement);
    setTextCursor(c);
    return true;
}

bool MapfileEditor::applyFixAtCursor()
{
    const int line = textCursor().blockNumber() + 1;
    const int index = textCursor().positionInBlock();
    const Diagnostic* onLine = nullptr;
    for (const Diagnostic& d : std::as_const(m_diagnostics)) {
        if (!d.fix || d.pos.line != line) continue;
        const int start = indexOfColumn(textCursor().block().text(), d.pos.column);
        if (index >= start && index <= start + d.fix->original.size()) return applyFix(d);
        if (!onLine) onLine = &d;
    }
    return onLine && applyFix(*onLine);
}

bool MapfileEditor::pickColour(int line)
{
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    const std::optional<QColor> current = block.isValid() ? colourOnLine(block.text()) : std::nullopt;
    if (!current) return false;
    const QColor picked = m_colourPicker ? m_colourPicker(*current, this)
                                         : QColorDialog::getColor(*current, this, tr("Colour"));
    return picked.isValid() && setColourOnLine(line, picked);
}

bool MapfileEditor::setColourOnLine(int line, const QColor& colour)
{
    const QTextBlock block = document()->findBlockByNumber(line - 1);
    if (!block.isValid() || isReadOnly()) return false;
    const QRegularExpressionMatch m = matchColour(block.text());
    if (!m.hasMatch()) return false;
    QTextCursor c(document());
    c.setPosition(block.position() + int(m.capturedStart(1)));
    c.setPosition(block.position() + int(m.capturedEnd(3)), QTextCursor::KeepAnchor);
    c.insertText(QStringLiteral("%1 %2 %3").arg(colour.red()).arg(colour.green()).arg(colour.blue()));
    m_gutter->update();
    return true;
}

}  // namespace maptune
