#pragma once
// The Outline tab of the mapfile panel: the MAP / LAYER / CLASS / STYLE /
// LABEL blocks of the text as a tree (a LAYER shows its NAME), rebuilt after
// a pause in typing. Clicking an item moves the editor there; moving the
// cursor selects the innermost block around it and says which LAYER it is
// in (the main window selects that layer in the layer list, whose choice
// selects the LAYER here in turn).

#include <QTimer>
#include <QTreeWidget>

class QPlainTextEdit;

namespace maptune {

class MapfileOutline : public QTreeWidget {
    Q_OBJECT
public:
    explicit MapfileOutline(QPlainTextEdit* editor, QWidget* parent = nullptr);

    void rebuild();                 // now (tests); edits rebuild after a pause
    void followCursor();            // select the block around the cursor
    QTreeWidgetItem* itemAtLine(int line) const;   // innermost block containing the 1-based line
    // Selects the LAYER item of that name (the cursor stays); false when there is none.
    bool selectLayer(const QString& name);

Q_SIGNALS:
    void lineChosen(int line);      // the user picked an item
    void layerAtCursor(const QString& name);   // the cursor moved into another LAYER ("" : none)

private:
    QPlainTextEdit* m_editor;
    QTimer m_rebuild;
    bool m_following = false;
    QString m_cursorLayer;
};

}  // namespace maptune
