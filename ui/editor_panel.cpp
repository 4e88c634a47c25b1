#include "editor_panel.h"

#include "lint_runner.h"
#include "mapfile_outline.h"
#include "mapfile_completer.h"

#include "mapfile/syntax/mapfile_navigation.h"

#include "find_replace_bar.h"
#include "go_to_line_bar.h"
#include "map_document.h"
#include "mapfile_editor.h"
#include "mapfile_highlighter.h"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QFile>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTextBlock>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace maptune {

namespace {

// Where a problem is, on its item's first column.
constexpr int kLineRole = Qt::UserRole;
constexpr int kColumnRole = Qt::UserRole + 1;
constexpr int kFileRole = Qt::UserRole + 2;  // set when it is in an included file
constexpr int kRuleRole = Qt::UserRole + 3;  // a lint finding: its rule id

// QTreeView wraps text when painting but sizes rows as if it did not: the
// message column's height is measured at the column's width here.
class WrappingDelegate : public QStyledItemDelegate {
public:
    WrappingDelegate(QTreeView* view, int column) : QStyledItemDelegate(view), m_view(view), m_column(column) {}

    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QSize size = QStyledItemDelegate::sizeHint(option, index);
        if (index.column() != m_column) return size;
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QStyle* style = m_view->style();
        const int margin = (style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1) * 2;
        const int width = std::max(20, m_view->header()->sectionSize(m_column) - margin);
        const QRect text = opt.fontMetrics.boundingRect(QRect(0, 0, width, 0), Qt::AlignLeft | Qt::TextWordWrap, opt.text);
        size.setHeight(std::max(size.height(), text.height() + 4));
        return size;
    }

private:
    QTreeView* m_view;
    int m_column;
};

}  // namespace

EditorPanel::EditorPanel(MapDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_editor(new MapfileEditor), m_problems(new QTreeWidget),
      m_tabs(new QTabWidget), m_status(new QLabel), m_findBar(new FindReplaceBar), m_goToLine(new GoToLineBar),
      m_lint(new LintRunner(document, this)), m_outline(new MapfileOutline(m_editor)), m_references(new QTreeWidget),
      m_bottomTabs(new QTabWidget)
{
    m_editor->setDocument(document->textDocument());
    m_outline->rebuild();
    new MapfileHighlighter(document->textDocument());

    auto* format = new QToolButton;
    format->setText(tr("Format"));
    format->setToolTip(tr("Tidy indentation, keyword case, quotes and spacing; comments and every value stay (Ctrl+Shift+F)"));
    connect(format, &QToolButton::clicked, this, &EditorPanel::formatText);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(format);
    bar->addWidget(m_status, 1);

    setUpProblems();

    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_editor, tr("mapfile"));
    connect(document, &MapDocument::pathChanged, this, [this](const QString& path) {
        m_tabs->setTabText(0, path.isEmpty() ? tr("untitled") : QFileInfo(path).fileName());
        m_tabs->setTabToolTip(0, path);
    });
    connect(document, &MapDocument::mapChanged, this,
            [this](MapDefPtr map) {
                setIncludedFiles(map ? map->includedFiles : QStringList());
                m_editor->completer()->setMap(map);
            });
    // Find and go to line work on the tab in front (the included files too).
    m_findBar->setEditor(m_editor);
    m_goToLine->setEditor(m_editor);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        m_findBar->setEditor(currentView());
        m_goToLine->setEditor(currentView());
    });

    auto* editorPane = new QWidget;
    auto* editorLayout = new QVBoxLayout(editorPane);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(m_tabs, 1);
    editorLayout->addWidget(m_findBar);
    editorLayout->addWidget(m_goToLine);

    m_references->setHeaderLabels({tr("Where"), tr("In")});
    m_references->setRootIsDecorated(false);
    connect(m_references, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        m_tabs->setCurrentIndex(0);
        m_editor->goTo(item->data(0, kLineRole).toInt(), item->data(0, kColumnRole).toInt());
    });
    connect(m_outline, &MapfileOutline::lineChosen, this, [this](int line) {
        m_tabs->setCurrentIndex(0);
        m_editor->goTo(line, 1);
    });
    m_bottomTabs->addTab(m_problems, tr("Problems"));
    m_bottomTabs->addTab(m_outline, tr("Outline"));
    m_bottomTabs->addTab(m_references, tr("References"));
    m_bottomTabs->setDocumentMode(true);

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(editorPane);
    split->addWidget(m_bottomTabs);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(bar);
    layout->addWidget(split);

    createActions();
    connect(document, &MapDocument::diagnosticsChanged, this, &EditorPanel::showDiagnostics);
    connect(m_lint, &LintRunner::findingsChanged, this, [this] { showDiagnostics(m_document->diagnostics()); });
    showDiagnostics(document->diagnostics());
}

void EditorPanel::setUpProblems()
{
    m_problems->setColumnCount(4);
    m_problems->setHeaderLabels({tr("Severity"), tr("Where"), tr("Fix"), tr("Message")});
    m_problems->setRootIsDecorated(false);
    m_problems->header()->setStretchLastSection(true);
    // Only the message needs room: the other columns fit their contents.
    for (int column : {SeverityCol, WhereCol, FixCol})
        m_problems->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_problems->setAlternatingRowColors(true);
    // Long messages (a path, what to do next) wrap instead of being cut off.
    m_problems->setWordWrap(true);
    m_problems->setUniformRowHeights(false);
    m_problems->setTextElideMode(Qt::ElideNone);
    m_problems->setItemDelegate(new WrappingDelegate(m_problems, MessageCol));
    // The tree, not `this`: the header also resizes while the panel is being destroyed.
    QTreeWidget* problems = m_problems;
    connect(m_problems->header(), &QHeaderView::sectionResized, m_problems, [problems] { problems->doItemsLayout(); });
    auto goToProblem = [this](QTreeWidgetItem* item) {
        const QString file = item->data(SeverityCol, kFileRole).toString();
        const int line = item->data(SeverityCol, kLineRole).toInt();
        const int column = item->data(SeverityCol, kColumnRole).toInt();
        if (!file.isEmpty()) {
            showIncluded(file, line, column);
            return;
        }
        m_tabs->setCurrentIndex(0);
        if (line > 0) m_editor->goTo(line, column);
    };
    connect(m_problems, &QTreeWidget::itemActivated, this, goToProblem);
    connect(m_problems, &QTreeWidget::itemClicked, this, goToProblem);
}

void EditorPanel::createActions()
{
    auto add = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* action = new QAction(text, this);
        action->setShortcut(key);
        // Like Undo/Redo: the keys act while the panel has focus.
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        m_actions << action;
        return action;
    };
    auto* separator = new QAction(this);
    separator->setSeparator(true);
    m_actions << separator;
    add(tr("&Find…"), QKeySequence(tr("Ctrl+F")), [this] { m_findBar->open(false); });
    add(tr("Find and &Replace…"), QKeySequence(tr("Ctrl+H")), [this] {
        m_tabs->setCurrentIndex(0);  // the included files are read-only
        m_findBar->open(true);
    });
    add(tr("Find &Next"), QKeySequence(tr("F3")), [this] {
        if (m_findBar->findField()->text().isEmpty()) m_findBar->open(false);
        else m_findBar->findNext();
    });
    add(tr("Find Pre&vious"), QKeySequence(tr("Shift+F3")), [this] {
        if (m_findBar->findField()->text().isEmpty()) m_findBar->open(false);
        else m_findBar->findPrevious();
    });
    add(tr("&Go to Line…"), QKeySequence(tr("Ctrl+L")), [this] { m_goToLine->open(); });
    // Letters, not brackets: Ctrl+Shift+[ is not typeable on every layout.
    add(tr("Fold/Unfold &Block"), QKeySequence(tr("Ctrl+Shift+B")), [this] {
        m_tabs->setCurrentIndex(0);
        m_editor->toggleFoldAtCursor();
    });
    add(tr("Unfold &All"), QKeySequence(), [this] { m_editor->unfoldAll(); });
    add(tr("Go to &Definition"), QKeySequence(tr("F12")), [this] { goToDefinition(); });
    add(tr("Find Re&ferences"), QKeySequence(tr("Shift+F12")), [this] { findReferences(); });
    add(tr("Apply Suggested F&ix"), QKeySequence(tr("Ctrl+.")), [this] {
        m_tabs->setCurrentIndex(0);
        if (!m_editor->applyFixAtCursor()) m_status->setText(tr("no suggested fix at the cursor"));
    });
}

QPlainTextEdit* EditorPanel::currentView() const
{
    auto* view = qobject_cast<QPlainTextEdit*>(m_tabs->currentWidget());
    return view ? view : m_editor;
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
        auto* item = new QTreeWidgetItem(m_problems, {severity, where, QString(), d.message});
        item->setData(SeverityCol, kLineRole, d.pos.line);
        item->setData(SeverityCol, kColumnRole, d.pos.column);
        if (!here) item->setData(SeverityCol, kFileRole, d.pos.file);
        item->setForeground(SeverityCol, d.isError() ? QColor(Qt::red) : QColor(0xb0, 0x70, 0x00));
        for (int column = 0; column < m_problems->columnCount(); ++column) item->setToolTip(column, d.toString());
        if (here && d.fix) {
            auto* fix = new QToolButton;
            fix->setText(tr("→ %1").arg(d.fix->replacement));
            fix->setToolTip(tr("Replace '%1' with '%2'").arg(d.fix->original, d.fix->replacement));
            fix->setAutoRaise(true);
            connect(fix, &QToolButton::clicked, this, [this, d] {
                m_tabs->setCurrentIndex(0);
                if (!m_editor->applyFix(d)) m_status->setText(tr("the text changed there: the fix no longer applies"));
            });
            m_problems->setItemWidget(item, FixCol, fix);
        }
        (d.isError() ? errors : warnings)++;
    }
    showLintFindings();
    const int lint = int(m_lint->findings().size());
    const QString lintText = lint ? tr(", %n lint finding(s)", nullptr, lint) : QString();
    m_status->setText(errors ? tr("%n error(s): the map shows the last good version", nullptr, errors) + lintText
                      : warnings ? tr("%n warning(s)", nullptr, warnings) + lintText
                      : lint     ? tr("%n lint finding(s)", nullptr, lint)
                                 : tr("no problems"));
}

void EditorPanel::showLintFindings()
{
    for (const LintFinding& f : m_lint->findings()) {
        const LintRule* rule = lintRule(f.ruleId);
        const bool here = f.pos.file.isEmpty() || f.pos.file == m_document->path();
        const QString where = QStringLiteral("%1%2:%3")
                                  .arg(here ? QString() : QFileInfo(f.pos.file).fileName() + QLatin1Char(':'))
                                  .arg(f.pos.line)
                                  .arg(f.pos.column);
        auto* item = new QTreeWidgetItem(m_problems, {severityName(f.severity), where, QString(),
                                                      QStringLiteral("[%1] %2").arg(f.ruleId, f.message)});
        item->setData(SeverityCol, kLineRole, f.pos.line);
        item->setData(SeverityCol, kColumnRole, f.pos.column);
        item->setData(SeverityCol, kRuleRole, f.ruleId);
        if (!here) item->setData(SeverityCol, kFileRole, f.pos.file);
        item->setForeground(SeverityCol, f.severity == LintSeverity::Error     ? QColor(Qt::red)
                                         : f.severity == LintSeverity::Warning ? QColor(0xb0, 0x70, 0x00)
                                                                               : QColor(0x30, 0x60, 0xa0));
        const QString help = rule ? QStringLiteral("%1 (%2)\n\n%3\n\nFix: %4")
                                        .arg(rule->summary, rule->name, rule->explanation, rule->fix)
                                  : f.message;
        for (int column = 0; column < m_problems->columnCount(); ++column) item->setToolTip(column, help);
        if (!f.edit) continue;
        auto* fix = new QToolButton;
        fix->setText(tr("Fix"));
        fix->setToolTip(f.edit->title);
        fix->setAutoRaise(true);
        connect(fix, &QToolButton::clicked, this, [this, f] {
            m_tabs->setCurrentIndex(0);
            if (!m_lint->applyEdit(f)) m_status->setText(tr("the text changed since the lint: wait for the next one"));
        });
        m_problems->setItemWidget(item, FixCol, fix);
    }
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
        if (!view) view = addReadOnlyTab(path);
        QFile file(path);
        const QString text = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll())
                                                            : tr("# cannot read %1: %2").arg(path, file.errorString());
        if (view->toPlainText() != text) view->setPlainText(text);
    }
}

QPlainTextEdit* EditorPanel::addReadOnlyTab(const QString& path)
{
    auto* view = new QPlainTextEdit;
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(m_editor->font());
    new MapfileHighlighter(view->document());
    const int index = m_tabs->addTab(view, tr("%1 (read-only)").arg(QFileInfo(path).fileName()));
    m_tabs->setTabToolTip(index, path);
    return view;
}

bool EditorPanel::goToDefinition()
{
    const QString text = m_editor->toPlainText();
    const int offset = utf8Offset(text, m_editor->textCursor().position());
    const NavigationTarget target = definitionAt(text.toUtf8(), offset, m_document->path());
    if (!target.found()) {
        m_status->setText(tr("nothing to go to at the cursor"));
        return false;
    }
    if (target.file == QFileInfo(m_document->path()).absoluteFilePath()) {
        m_editor->goTo(target.line, target.column);
        return true;
    }
    if (showIncluded(target.file, target.line, target.column)) return true;
    // Text files open read-only beside the mapfile; data files are named, not opened.
    static const QStringList textSuffixes = {QStringLiteral("map"), QStringLiteral("sym"), QStringLiteral("txt"),
                                             QStringLiteral("html"), QStringLiteral("htm"), QStringLiteral("xml"),
                                             QStringLiteral("json"), QStringLiteral("inc"), QStringLiteral("js")};
    const bool isText = textSuffixes.contains(QFileInfo(target.file).suffix().toLower());
    if (!target.exists || !isText) {
        m_status->setText(tr("%1: %2%3").arg(target.what, target.file,
                                             target.exists ? tr(" (a data file: not opened here)") : tr(" (missing)")));
        return false;
    }
    QFile file(target.file);
    if (!file.open(QIODevice::ReadOnly)) return false;
    QPlainTextEdit* view = addReadOnlyTab(target.file);
    view->setPlainText(QString::fromUtf8(file.readAll()));
    return showIncluded(target.file, target.line, target.column) != nullptr;
}

int EditorPanel::findReferences()
{
    const QString text = m_editor->toPlainText();
    const int offset = utf8Offset(text, m_editor->textCursor().position());
    const auto [keyword, name] = referenceNameAt(text.toUtf8(), offset);
    if (name.isEmpty()) {
        m_status->setText(tr("put the cursor on a SYMBOL or FONT name to find its uses"));
        return -1;
    }
    m_references->clear();
    const QList<Reference> uses = referencesTo(text.toUtf8(), m_document->path(), keyword, name);
    for (const Reference& r : uses) {
        auto* item = new QTreeWidgetItem(m_references, {QStringLiteral("%1:%2").arg(r.pos.line).arg(r.pos.column), r.block});
        item->setData(0, kLineRole, r.pos.line);
        item->setData(0, kColumnRole, r.pos.column);
    }
    m_bottomTabs->setCurrentWidget(m_references);
    m_status->setText(tr("%1 '%2': %n use(s)", nullptr, int(uses.size())).arg(keyword, name));
    return int(uses.size());
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
