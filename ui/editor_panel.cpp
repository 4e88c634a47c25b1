#include "editor_panel.h"

#include "map_document.h"
#include "mapfile_editor.h"
#include "mapfile_highlighter.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QSplitter>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace maptune {

EditorPanel::EditorPanel(MapDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_editor(new MapfileEditor), m_problems(new QTreeWidget),
      m_status(new QLabel)
{
    m_editor->setDocument(document->textDocument());
    new MapfileHighlighter(document->textDocument());

    auto* format = new QToolButton;
    format->setText(tr("Format"));
    format->setToolTip(tr("Rewrite the mapfile in canonical form (Ctrl+Shift+F)"));
    connect(format, &QToolButton::clicked, this, &EditorPanel::formatText);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(format);
    bar->addWidget(m_status, 1);

    m_problems->setColumnCount(3);
    m_problems->setHeaderLabels({tr("Severity"), tr("Where"), tr("Message")});
    m_problems->setRootIsDecorated(false);
    m_problems->header()->setStretchLastSection(true);
    m_problems->setAlternatingRowColors(true);
    connect(m_problems, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        m_editor->goTo(item->data(0, Qt::UserRole).toInt(), item->data(1, Qt::UserRole).toInt());
    });
    connect(m_problems, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        m_editor->goTo(item->data(0, Qt::UserRole).toInt(), item->data(1, Qt::UserRole).toInt());
    });

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_editor);
    split->addWidget(m_problems);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(split);

    connect(document, &MapDocument::diagnosticsChanged, this, &EditorPanel::showDiagnostics);
    showDiagnostics(document->diagnostics());
}

void EditorPanel::showDiagnostics(const Diagnostics& diagnostics)
{
    m_editor->setDiagnostics(diagnostics, m_document->path());
    m_problems->clear();
    int errors = 0, warnings = 0;
    for (const Diagnostic& d : diagnostics) {
        const bool here = d.pos.file.isEmpty() || d.pos.file == m_document->path();
        const QString where = QStringLiteral("%1%2:%3")
                                  .arg(here ? QString() : QFileInfo(d.pos.file).fileName() + QLatin1Char(':'))
                                  .arg(d.pos.line)
                                  .arg(d.pos.column);
        const QString severity = d.isError() ? tr("error")
                                 : d.severity == Diagnostic::Severity::Warning ? tr("warning") : tr("note");
        auto* item = new QTreeWidgetItem(m_problems, {severity, where, d.message});
        item->setData(0, Qt::UserRole, here ? d.pos.line : 0);
        item->setData(1, Qt::UserRole, d.pos.column);
        item->setForeground(0, d.isError() ? QColor(Qt::red) : QColor(0xb0, 0x70, 0x00));
        item->setToolTip(2, d.toString());
        (d.isError() ? errors : warnings)++;
    }
    m_status->setText(errors ? tr("%n error(s): the map shows the last good version", nullptr, errors)
                      : warnings ? tr("%n warning(s)", nullptr, warnings)
                                 : tr("no problems"));
}

void EditorPanel::formatText()
{
    QString error;
    const QString canonical = m_document->formatted(&error);
    if (canonical.isEmpty()) {
        QMessageBox::information(this, tr("Format"), error);
        return;
    }
    if (canonical == m_document->text()) return;
    QTextCursor c(m_document->textDocument());
    c.beginEditBlock();
    c.select(QTextCursor::Document);
    c.insertText(canonical);
    c.endEditBlock();
}

}  // namespace maptune
