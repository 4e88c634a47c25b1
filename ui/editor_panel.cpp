#include "editor_panel.h"

#include "map_document.h"
#include "mapfile_editor.h"
#include "mapfile_highlighter.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QFile>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTextBlock>
#include <QSplitter>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace maptune {

EditorPanel::EditorPanel(MapDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_editor(new MapfileEditor), m_problems(new QTreeWidget),
      m_tabs(new QTabWidget), m_status(new QLabel)
{
    m_editor->setDocument(document->textDocument());
    new MapfileHighlighter(document->textDocument());

    auto* format = new QToolButton;
    format->setText(tr("Format"));
    format->setToolTip(tr("Tidy indentation, keyword case, quotes and spacing; comments and every value stay (Ctrl+Shift+F)"));
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
    auto goToProblem = [this](QTreeWidgetItem* item) {
        const QString file = item->data(2, Qt::UserRole).toString();
        if (!file.isEmpty()) {
            showIncluded(file, item->data(0, Qt::UserRole + 1).toInt(), item->data(1, Qt::UserRole).toInt());
            return;
        }
        m_tabs->setCurrentIndex(0);
        m_editor->goTo(item->data(0, Qt::UserRole).toInt(), item->data(1, Qt::UserRole).toInt());
    };
    connect(m_problems, &QTreeWidget::itemActivated, this, goToProblem);
    connect(m_problems, &QTreeWidget::itemClicked, this, goToProblem);

    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_editor, tr("mapfile"));
    connect(document, &MapDocument::pathChanged, this, [this](const QString& path) {
        m_tabs->setTabText(0, path.isEmpty() ? tr("untitled") : QFileInfo(path).fileName());
        m_tabs->setTabToolTip(0, path);
    });
    connect(document, &MapDocument::mapChanged, this,
            [this](MapDefPtr map) { setIncludedFiles(map ? map->includedFiles : QStringList()); });

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_tabs);
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
        item->setData(0, Qt::UserRole + 1, d.pos.line);
        if (!here) item->setData(2, Qt::UserRole, d.pos.file);
        item->setData(1, Qt::UserRole, d.pos.column);
        item->setForeground(0, d.isError() ? QColor(Qt::red) : QColor(0xb0, 0x70, 0x00));
        item->setToolTip(2, d.toString());
        (d.isError() ? errors : warnings)++;
    }
    m_status->setText(errors ? tr("%n error(s): the map shows the last good version", nullptr, errors)
                      : warnings ? tr("%n warning(s)", nullptr, warnings)
                                 : tr("no problems"));
}

void EditorPanel::setIncludedFiles(const QStringList& files)
{
    QStringList wanted;
    for (const QString& f : files) {
        const QString absolute = QFileInfo(f).absoluteFilePath();
        if (absolute != m_document->path() && !wanted.contains(absolute)) wanted << absolute;
    }
    for (int i = m_tabs->count() - 1; i >= 1; --i) {
        if (wanted.contains(m_tabs->tabToolTip(i))) continue;
        QWidget* w = m_tabs->widget(i);
        m_tabs->removeTab(i);
        w->deleteLater();
    }
    for (const QString& path : std::as_const(wanted)) {
        QPlainTextEdit* view = nullptr;
        for (int i = 1; i < m_tabs->count() && !view; ++i)
            if (m_tabs->tabToolTip(i) == path) view = qobject_cast<QPlainTextEdit*>(m_tabs->widget(i));
        if (!view) {
            view = new QPlainTextEdit;
            view->setReadOnly(true);
            view->setLineWrapMode(QPlainTextEdit::NoWrap);
            view->setFont(m_editor->font());
            new MapfileHighlighter(view->document());
            const int index = m_tabs->addTab(view, tr("%1 (read-only)").arg(QFileInfo(path).fileName()));
            m_tabs->setTabToolTip(index, path);
        }
        QFile file(path);
        const QString text = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll())
                                                            : tr("# cannot read %1: %2").arg(path, file.errorString());
        if (view->toPlainText() != text) view->setPlainText(text);
    }
}

QPlainTextEdit* EditorPanel::showIncluded(const QString& path, int line, int column)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    for (int i = 1; i < m_tabs->count(); ++i) {
        if (m_tabs->tabToolTip(i) != absolute) continue;
        auto* view = qobject_cast<QPlainTextEdit*>(m_tabs->widget(i));
        m_tabs->setCurrentIndex(i);
        if (view && line > 0) {
            QTextCursor c(view->document()->findBlockByNumber(line - 1));
            c.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, std::max(0, column - 1));
            view->setTextCursor(c);
            view->centerCursor();
        }
        return view;
    }
    return nullptr;
}

void EditorPanel::formatText()
{
    const Result<QString> canonical = m_document->formatted();
    if (!canonical) {
        QMessageBox::information(this, tr("Format"), canonical.message());
        return;
    }
    if (*canonical == m_document->text()) return;
    QTextCursor c(m_document->textDocument());
    c.beginEditBlock();
    c.select(QTextCursor::Document);
    c.insertText(*canonical);
    c.endEditBlock();
}

}  // namespace maptune
