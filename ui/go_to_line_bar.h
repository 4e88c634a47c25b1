#pragma once
// Ctrl+L: a one-field bar that takes "line" or "line:column" and moves the
// editor's cursor there (Enter); Escape closes it.

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace maptune {

class GoToLineBar : public QWidget {
    Q_OBJECT
public:
    explicit GoToLineBar(QWidget* parent = nullptr);

    void setEditor(QPlainTextEdit* editor) { m_editor = editor; }
    void open();  // shows the bar, the field holding the cursor's line
    QLineEdit* field() const { return m_field; }

public Q_SLOTS:
    // Moves to the typed place and closes; false (the bar stays) when it is not a line of the text.
    bool go();

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QPlainTextEdit* m_editor = nullptr;
    QLineEdit* m_field;
    QLabel* m_range;
};

}  // namespace maptune
