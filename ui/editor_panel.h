#pragma once
// The mapfile editor dock's content: the editor on the MapDocument's text,
// a Format button, find/replace and go-to-line bars, and the clickable
// problems list (every diagnostic of the parser and the validator, each at
// its line:column, with a Fix button where the parser has a suggestion),
// followed by the lint findings (rule id, explanation, and a quick fix where
// the rule has one edit to offer), an Outline of the blocks and the
// References of a symbol or font, in tabs below the editor. F12 goes to the
// definition of what the cursor is on.
// Files the map reads through INCLUDE (and SYMBOLSET/FONTSET) open in
// read-only tabs beside it.

#include "mapfile/diagnostic.h"

#include <QList>
#include <QWidget>

class QAction;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTreeWidget;

namespace maptune {

class FindReplaceBar;
class GoToLineBar;
class LintRunner;
class MapDocument;
class MapfileOutline;
class MapfileEditor;

class EditorPanel : public QWidget {
    Q_OBJECT
public:
    // Columns of problems().
    enum Column { SeverityCol, WhereCol, FixCol, MessageCol };

    EditorPanel(MapDocument* document, QWidget* parent = nullptr);

    MapfileEditor* editor() const { return m_editor; }
    QTreeWidget* problems() const { return m_problems; }
    QTabWidget* tabs() const { return m_tabs; }
    FindReplaceBar* findBar() const { return m_findBar; }
    GoToLineBar* goToLineBar() const { return m_goToLine; }
    LintRunner* lint() const { return m_lint; }
    MapfileOutline* outline() const { return m_outline; }
    QTreeWidget* references() const { return m_references; }
    QTabWidget* bottomTabs() const { return m_bottomTabs; }

    // F12: the file or block the token at the cursor names (INCLUDE, SYMBOLSET,
    // FONTSET, TEMPLATE and DATA files; a SYMBOL's block; a FONT's FONTSET line).
    // False (and a status message) when there is nothing to go to.
    bool goToDefinition();
    // Shift+F12: every use of the SYMBOL or FONT name at the cursor, listed in
    // the References tab; -1 when the cursor is on neither.
    int findReferences();
    // Find, Replace, Find Next/Previous, Go to Line, folding and Apply Fix,
    // with their shortcuts (active while the panel has focus), starting with
    // a separator: for the main window's Edit menu.
    QList<QAction*> editActions() const { return m_actions; }
    // Shows these files in read-only tabs (the document's own file is skipped);
    // tabs of files no longer included close, the others re-read their file.
    void setIncludedFiles(const QStringList& files);
    // The tab showing `path`, opened at line/column (1-based); null when not included.
    QPlainTextEdit* showIncluded(const QString& path, int line = 0, int column = 0);

public Q_SLOTS:
    // Replaces the text with the canonical form, as one undoable step.
    void formatText();

private:
    void showDiagnostics(const Diagnostics& diagnostics);
    void showLintFindings();
    void setUpProblems();
    void createActions();
    QPlainTextEdit* currentView() const;
    QPlainTextEdit* addReadOnlyTab(const QString& path);

    MapDocument* m_document;
    MapfileEditor* m_editor;
    QTreeWidget* m_problems;
    QTabWidget* m_tabs;
    QLabel* m_status;
    FindReplaceBar* m_findBar;
    GoToLineBar* m_goToLine;
    LintRunner* m_lint;
    MapfileOutline* m_outline;
    QTreeWidget* m_references;
    QTabWidget* m_bottomTabs;
    QList<QAction*> m_actions;
};

}  // namespace maptune
