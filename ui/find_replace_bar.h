#pragma once
// The editor's find and replace bar (Ctrl+F, Ctrl+H): plain text, optionally
// case-sensitive or whole words; Enter finds the next match, Shift+Enter the
// previous one, both wrap around the text; Escape closes. Replace All is one
// undo step.

#include <QTextDocument>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;

namespace maptune {

class FindReplaceBar : public QWidget {
    Q_OBJECT
public:
    explicit FindReplaceBar(QWidget* parent = nullptr);

    // The text searched; replacing needs it writable.
    void setEditor(QPlainTextEdit* editor);
    // Shows the bar with the find field focused (and filled from a one-line
    // selection); withReplace also shows the replace row.
    void open(bool withReplace);

    QLineEdit* findField() const { return m_find; }
    QLineEdit* replaceField() const { return m_replace; }
    QCheckBox* matchCase() const { return m_matchCase; }
    QLabel* status() const { return m_status; }

public Q_SLOTS:
    bool findNext();
    bool findPrevious();
    // Replaces the selected match and selects the next one.
    bool replaceCurrent();
    int replaceAll();  // how many were replaced

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    bool find(bool backward, bool fromSelectionStart = false);
    bool selectionIsMatch() const;
    int countMatches() const;
    QTextDocument::FindFlags flags(bool backward) const;
    void updateButtons();

    QPlainTextEdit* m_editor = nullptr;
    QLineEdit* m_find;
    QLineEdit* m_replace;
    QCheckBox* m_matchCase;
    QCheckBox* m_wholeWords;
    QLabel* m_status;
    QWidget* m_replaceRow;
    QToolButton* m_replaceOne;
    QToolButton* m_replaceAll;
};

}  // namespace maptune
