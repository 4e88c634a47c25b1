#pragma once
// Help → MapTune Help: the short manual shipped in the resources, the
// keyboard shortcuts of the window's actions (read from the actions, so the
// list cannot drift from the menus) and the version.

#include <QDialog>
#include <QList>

class QAction;
class QTextBrowser;

namespace maptune {

class HelpDialog : public QDialog {
    Q_OBJECT
public:
    HelpDialog(const QList<QAction*>& actions, QWidget* parent = nullptr);

    // The whole page: manual, shortcuts table, version.
    static QString html(const QList<QAction*>& actions);
    // "Ctrl+O  Open…" rows: every action with a shortcut, menu order, mnemonics removed.
    static QString shortcutsTable(const QList<QAction*>& actions);

    QTextBrowser* browser() const { return m_browser; }

private:
    QTextBrowser* m_browser;
};

}  // namespace maptune
