#pragma once
// The mapfile editor dock's content: the editor on the MapDocument's text,
// a Format button and the clickable problems list.

#include "mapfile/diagnostic.h"

#include <QWidget>

class QLabel;
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

public Q_SLOTS:
    // Replaces the text with the canonical form, as one undoable step.
    void formatText();

private:
    void showDiagnostics(const Diagnostics& diagnostics);

    MapDocument* m_document;
    MapfileEditor* m_editor;
    QTreeWidget* m_problems;
    QLabel* m_status;
};

}  // namespace maptune
