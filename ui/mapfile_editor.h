#pragma once
// The mapfile text editor: line numbers with colour swatches in the gutter,
// current-line highlight, diagnostics underlined at their line and column
// (tool tip shows the message). Undo/redo come with QPlainTextEdit.

#include "mapfile/diagnostic.h"

#include <QPlainTextEdit>

namespace maptune {

class MapfileEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit MapfileEditor(QWidget* parent = nullptr);

    // Diagnostics whose file is `file` (or empty) are marked in the text.
    void setDiagnostics(const Diagnostics& diagnostics, const QString& file);
    void goTo(int line, int column);
    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    void updateExtraSelections();
    void updateGutter(const QRect& rect, int dy);

    QWidget* m_gutter;
    Diagnostics m_diagnostics;
};

}  // namespace maptune
