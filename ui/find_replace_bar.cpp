#include "find_replace_bar.h"

#include <QCheckBox>
#include <QBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>

namespace maptune {

namespace {

QToolButton* button(const QString& text, const QString& tip)
{
    auto* b = new QToolButton;
    b->setText(text);
    b->setToolTip(tip);
    return b;
}

}  // namespace

FindReplaceBar::FindReplaceBar(QWidget* parent)
    : QWidget(parent), m_find(new QLineEdit), m_replace(new QLineEdit), m_matchCase(new QCheckBox(tr("Match case"))),
      m_wholeWords(new QCheckBox(tr("Words"))), m_status(new QLabel), m_replaceRow(new QWidget),
      m_replaceOne(button(tr("Replace"), tr("Replace this match and find the next"))),
      m_replaceAll(button(tr("Replace All"), tr("Replace every match (one undo step)")))
{
    m_find->setPlaceholderText(tr("Find"));
    m_find->setClearButtonEnabled(true);
    m_find->installEventFilter(this);
    m_replace->setPlaceholderText(tr("Replace with"));
    m_replace->installEventFilter(this);
    m_wholeWords->setToolTip(tr("Whole words only"));
    m_status->setMinimumWidth(m_status->fontMetrics().horizontalAdvance(tr("%n match(es), wrapped", nullptr, 999)));
    auto* next = button(tr("Next"), tr("Find the next match (Enter, F3)"));
    auto* previous = button(tr("Previous"), tr("Find the previous match (Shift+Enter, Shift+F3)"));
    auto* close = button(QStringLiteral("✕"), tr("Close (Escape)"));
    close->setAutoRaise(true);

    auto* findRow = new QHBoxLayout;
    findRow->setContentsMargins(0, 0, 0, 0);
    findRow->addWidget(m_find, 1);
    findRow->addWidget(previous);
    findRow->addWidget(next);
    findRow->addWidget(m_matchCase);
    findRow->addWidget(m_wholeWords);
    findRow->addWidget(m_status);
    findRow->addWidget(close);
    auto* replaceRow = new QHBoxLayout(m_replaceRow);
    replaceRow->setContentsMargins(0, 0, 0, 0);
    replaceRow->addWidget(m_replace, 1);
    replaceRow->addWidget(m_replaceOne);
    replaceRow->addWidget(m_replaceAll);
    replaceRow->addStretch(0);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    layout->addLayout(findRow);
    layout->addWidget(m_replaceRow);

    connect(next, &QToolButton::clicked, this, &FindReplaceBar::findNext);
    connect(previous, &QToolButton::clicked, this, &FindReplaceBar::findPrevious);
    connect(m_replaceOne, &QToolButton::clicked, this, &FindReplaceBar::replaceCurrent);
    connect(m_replaceAll, &QToolButton::clicked, this, &FindReplaceBar::replaceAll);
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        if (m_editor) m_editor->setFocus();
    });
    // Find as you type, from where the current match starts.
    connect(m_find, &QLineEdit::textEdited, this, [this] { find(false, true); });
    connect(m_matchCase, &QCheckBox::toggled, this, [this] { find(false, true); });
    connect(m_wholeWords, &QCheckBox::toggled, this, [this] { find(false, true); });
    hide();
}

void FindReplaceBar::setEditor(QPlainTextEdit* editor)
{
    m_editor = editor;
    updateButtons();
}

void FindReplaceBar::open(bool withReplace)
{
    m_replaceRow->setVisible(withReplace);
    if (m_editor) {
        const QString selected = m_editor->textCursor().selectedText();
        if (!selected.isEmpty() && !selected.contains(QChar::ParagraphSeparator)) m_find->setText(selected);
    }
    updateButtons();
    show();
    m_find->setFocus();
    m_find->selectAll();
}

void FindReplaceBar::updateButtons()
{
    const bool writable = m_editor && !m_editor->isReadOnly();
    m_replaceOne->setEnabled(writable);
    m_replaceAll->setEnabled(writable);
    m_replace->setEnabled(writable);
}

QTextDocument::FindFlags FindReplaceBar::flags(bool backward) const
{
    QTextDocument::FindFlags f;
    if (backward) f |= QTextDocument::FindBackward;
    if (m_matchCase->isChecked()) f |= QTextDocument::FindCaseSensitively;
    if (m_wholeWords->isChecked()) f |= QTextDocument::FindWholeWords;
    return f;
}

int FindReplaceBar::countMatches() const
{
    int n = 0;
    const auto f = flags(false);
    for (QTextCursor c = m_editor->document()->find(m_find->text(), 0, f); !c.isNull() && n < 10000;
         c = m_editor->document()->find(m_find->text(), c, f))
        ++n;
    return n;
}

bool FindReplaceBar::find(bool backward, bool fromSelectionStart)
{
    if (!m_editor) return false;
    const QString text = m_find->text();
    if (text.isEmpty()) {
        m_status->clear();
        return false;
    }
    QTextCursor start = m_editor->textCursor();
    if (fromSelectionStart) start.setPosition(start.selectionStart());
    const auto f = flags(backward);
    QTextDocument* doc = m_editor->document();
    QTextCursor found = doc->find(text, start, f);
    bool wrapped = false;
    if (found.isNull()) {
        QTextCursor edge(doc);
        edge.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        found = doc->find(text, edge, f);
        wrapped = !found.isNull();
    }
    if (found.isNull()) {
        m_status->setText(tr("not found"));
        return false;
    }
    m_editor->setTextCursor(found);
    m_editor->ensureCursorVisible();
    const int total = countMatches();
    m_status->setText(wrapped ? tr("%n match(es), wrapped", nullptr, total) : tr("%n match(es)", nullptr, total));
    return true;
}

bool FindReplaceBar::findNext() { return find(false); }
bool FindReplaceBar::findPrevious() { return find(true); }

bool FindReplaceBar::selectionIsMatch() const
{
    const QTextCursor c = m_editor->textCursor();
    if (!c.hasSelection()) return false;
    // The selection is a match when searching from its start finds it again.
    QTextCursor from(m_editor->document());
    from.setPosition(c.selectionStart());
    const QTextCursor again = m_editor->document()->find(m_find->text(), from, flags(false));
    return !again.isNull() && again.selectionStart() == c.selectionStart() && again.selectionEnd() == c.selectionEnd();
}

bool FindReplaceBar::replaceCurrent()
{
    if (!m_editor || m_editor->isReadOnly() || m_find->text().isEmpty()) return false;
    if (selectionIsMatch()) {
        QTextCursor c = m_editor->textCursor();
        c.insertText(m_replace->text());
        m_editor->setTextCursor(c);
    }
    return findNext();
}

int FindReplaceBar::replaceAll()
{
    if (!m_editor || m_editor->isReadOnly() || m_find->text().isEmpty()) return 0;
    QTextDocument* doc = m_editor->document();
    const auto f = flags(false);
    QTextCursor edit(doc);
    edit.beginEditBlock();
    int n = 0;
    for (QTextCursor c = doc->find(m_find->text(), 0, f); !c.isNull(); c = doc->find(m_find->text(), c, f)) {
        c.insertText(m_replace->text());  // c now sits after the replacement: no match inside it again
        ++n;
    }
    edit.endEditBlock();
    m_status->setText(tr("%n replaced", nullptr, n));
    return n;
}

bool FindReplaceBar::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (watched == m_replace) replaceCurrent();
            else if (key->modifiers() & Qt::ShiftModifier) findPrevious();
            else findNext();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void FindReplaceBar::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        if (m_editor) m_editor->setFocus();
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace maptune
