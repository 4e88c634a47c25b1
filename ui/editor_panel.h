#pragma once
// The mapfile editor dock's content: the editor on the MapDocument's text,
// a Format button and the clickable problems list. Files the map reads
// through INCLUDE (and SYMBOLSET/FONTSET) open in read-only tabs beside it.

#include "mapfile/diagnostic.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTreeWidget;

namespace maptune {

class MapDocument;
class MapfileEditor;

class EditorPanel : public QWidget {
    Q_OBJECT
public:
    EditorPanel(MapDocument* document, QWidget* parent = nullptr);

    MapfileEditor* editor() const { return m_editor; }
    QTreeWidget* problems() const { return m_problems; }
    QTabWidget* tabs() const { return m_tabs; }
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

    MapDocument* m_document;
    MapfileEditor* m_editor;
    QTreeWidget* m_problems;
    QTabWidget* m_tabs;
    QLabel* m_status;
};

}  // namespace maptune
