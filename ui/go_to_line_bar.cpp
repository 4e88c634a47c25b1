#include "go_to_line_bar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTextBlock>
#include <QToolButton>

namespace maptune {

GoToLineBar::GoToLineBar(QWidget* parent) : QWidget(parent), m_field(new QLineEdit), m_range(new QLabel)
{
    m_field->setPlaceholderText(tr("line[:column]"));
    auto* close = new QToolButton;
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close (Escape)"));
    close->setAutoRaise(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(new QLabel(tr("Go to line")));
    layout->addWidget(m_field, 1);
    layout->addWidget(m_range);
    layout->addWidget(close);
    connect(m_field, &QLineEdit::returnPressed, this, &GoToLineBar::go);
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        if (m_editor) m_editor->setFocus();
    });
    hide();
}

void GoToLineBar::open()
{
    if (!m_editor) return;
    m_range->setText(tr("of %1").arg(m_editor->blockCount()));
    m_field->setText(QString::number(m_editor->textCursor().blockNumber() + 1));
    show();
    m_field->setFocus();
    m_field->selectAll();
}

bool GoToLineBar::go()
{
    static const QRegularExpression place(QStringLiteral("^\\s*(\\d+)\\s*(?::\\s*(\\d+))?\\s*$"));
    const QRegularExpressionMatch m = place.match(m_field->text());
    if (!m_editor || !m.hasMatch()) return false;
    const QTextBlock block = m_editor->document()->findBlockByNumber(m.captured(1).toInt() - 1);
    if (!block.isValid()) {
        m_range->setText(tr("of %1: no such line").arg(m_editor->blockCount()));
        return false;
    }
    const int column = m.captured(2).isEmpty() ? 1 : std::max(1, m.captured(2).toInt());
    QTextCursor c(block);
    c.setPosition(block.position() + std::min(column - 1, int(block.text().size())));
    m_editor->setTextCursor(c);
    m_editor->centerCursor();
    hide();
    m_editor->setFocus();
    return true;
}

void GoToLineBar::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        if (m_editor) m_editor->setFocus();
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace maptune
