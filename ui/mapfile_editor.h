#pragma once
// The mapfile text editor: line numbers, colour swatches (click one to pick
// a colour) and fold markers in the gutter; current-line highlight; the
// KEYWORD ... END pair under the cursor highlighted; blocks folded to their
// first line; diagnostics underlined at their line and column (tool tip
// shows the message), with their "did you mean" fix one call away. Undo and
// redo come with QPlainTextEdit. Completion comes from MapfileCompleter;
// hovering a keyword shows its entry of the keyword schema.

#include "mapfile/diagnostic.h"
#include "mapfile_blocks.h"

#include <QHash>
#include <QPlainTextEdit>
#include <QPointer>

#include <functional>
#include <optional>


namespace maptune {

class MapfileCompleter;

// The byte offset into text.toUtf8() of a character position: the engine's
// syntax functions count bytes, the editor counts UTF-16 units.
inline int utf8Offset(const QString& text, int position) { return int(text.left(position).toUtf8().size()); }

class MapfileEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    // Asks for a colour, starting from `initial`; an invalid colour means cancelled.
    using ColourPicker = std::function<QColor(const QColor& initial, QWidget* parent)>;

    explicit MapfileEditor(QWidget* parent = nullptr);

    // Diagnostics whose file is `file` (or empty) are marked in the text.
    void setDiagnostics(const Diagnostics& diagnostics, const QString& file);
    void goTo(int line, int column);

    MapfileCompleter* completer() const { return m_completer; }
    // The hover text at a viewport point: diagnostics of its line, else the
    // help of the keyword under it; "" when there is nothing to say.
    QString hoverTextAt(const QPoint& viewportPos) const;

    // Replaces the token a diagnostic's fix names, as one undoable step;
    // false when it has no fix or the text there changed since.
    bool applyFix(const Diagnostic& diagnostic);
    // The fix of the diagnostic at the cursor's token (or line).
    bool applyFixAtCursor();

    // Blocks of the current text (recomputed after edits), and the one whose
    // opening keyword or END the cursor is on.
    const QList<MapfileBlock>& blocks() const;
    std::optional<MapfileBlock> blockAtCursor() const;

    // Folding: a folded block shows only its first line. Lines are 1-based.
    bool canFold(int line) const;  // the line opens a block that spans lines
    bool isFolded(int line) const;
    void setFolded(int line, bool folded);
    void toggleFoldAtCursor();     // the innermost foldable block around the cursor
    void unfoldAll();

    // Colour swatches: the picker defaults to QColorDialog; tests inject one.
    void setColourPicker(ColourPicker picker) { m_colourPicker = std::move(picker); }
    bool pickColour(int line);
    // Writes "r g b" over the colour triple of the line (alpha, if written, stays).
    bool setColourOnLine(int line, const QColor& colour);

    // The gutter and where its parts are, in its coordinates (empty when not shown).
    QWidget* gutter() const { return m_gutter; }
    QRect swatchRect(int line) const;
    QRect foldMarkerRect(int line) const;
    int gutterWidth() const;
    void paintGutter(QPaintEvent* event);
    void gutterPressed(const QPoint& pos);

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool viewportEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void cursorMoved();
    void updateExtraSelections();
    void updateGutter(const QRect& rect, int dy);
    void applyFolds();
    void scheduleFolds();
    void watchDocument();
    void contentsChanged(int from, int removed, int added);
    void indexFoldable() const;
    QRect lineRect(int line) const;  // viewport coordinates; empty when not shown
    int lineAtY(int y) const;        // 1-based; 0 below the text
    const MapfileBlock* foldedBlockHiding(int line0) const;

    QWidget* m_gutter;
    MapfileCompleter* m_completer;
    Diagnostics m_diagnostics;
    ColourPicker m_colourPicker;
    mutable QList<MapfileBlock> m_blocks;
    mutable QHash<int, int> m_foldableByLine;  // 0-based line -> index in m_blocks
    mutable bool m_blocksDirty = true;
    // A long text is re-scanned after a pause in typing; until then the
    // blocks after an edit are moved along with the text.
    QTimer* m_rescan;
    QPointer<QTextDocument> m_watched;  // the replaced document may be gone
    int m_lineCount = 0;
    bool m_hasFolds = false;
    bool m_foldsPending = false;
    bool m_navigating = false;  // a cursor key is moving the cursor: step over folds
    int m_lastCursorLine = 0;
};

}  // namespace maptune
