// Workbench tests: the window's layout at the sizes people use (1000×700 and
// the default), View → Reset Layout, and Help.

#include "ui_test_support.h"

#include "help_dialog.h"
#include "main_window.h"
#include "map_canvas.h"

#include "render/engine.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTextBrowser>

using namespace maptune;
using namespace maptune::testing;

class TestUiLayout : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void mapKeepsHalfTheWindow_data();
    void mapKeepsHalfTheWindow();
    void firstLayoutFollowsTheWindowManager();
    void panelsAreNeverCutOff_data();
    void panelsAreNeverCutOff();
    void resetLayoutRestoresTheDocks();
    void helpListsShortcutsAndVersion();
};

namespace {

QDockWidget* dock(const MainWindow& window, const char* name)
{
    return window.findChild<QDockWidget*>(QString::fromLatin1(name) + QStringLiteral("Dock"));
}

void showAt(MainWindow& window, QSize size)
{
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCoreApplication::processEvents();
}

}  // namespace

void TestUiLayout::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    initEngine();
}

void TestUiLayout::init()
{
    QSettings().clear();  // each test starts as a first run: no saved layout
}

void TestUiLayout::mapKeepsHalfTheWindow_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("1000x700") << QSize(1000, 700);
    QTest::newRow("1400x860 (default)") << QSize(1400, 860);
    QTest::newRow("1600x1000") << QSize(1600, 1000);
}

void TestUiLayout::mapKeepsHalfTheWindow()
{
    QFETCH(QSize, size);
    MainWindow window;
    showAt(window, size);
    const QSize map = window.canvas()->size();
    QVERIFY2(map.width() >= size.width() / 2, qPrintable(QStringLiteral("map %1 px wide").arg(map.width())));
    QVERIFY2(map.height() >= size.height() / 2, qPrintable(QStringLiteral("map %1 px high").arg(map.height())));
    // Timings and Server side by side, both on screen.
    QDockWidget* timings = dock(window, "timings");
    QDockWidget* server = dock(window, "server");
    QVERIFY(!timings->visibleRegion().isEmpty());
    QVERIFY(!server->visibleRegion().isEmpty());
    QVERIFY(!timings->geometry().intersects(server->geometry()));
}

void TestUiLayout::firstLayoutFollowsTheWindowManager()
{
    // Shown at the default size, then given 1000×700 by the window manager
    // (or -geometry) a moment later: the first layout follows.
    MainWindow window;
    showAt(window, QSize(1400, 860));
    window.resize(1000, 700);
    QCoreApplication::processEvents();
    QVERIFY2(window.canvas()->width() >= 500, qPrintable(QString::number(window.canvas()->width())));
}

void TestUiLayout::panelsAreNeverCutOff_data()
{
    QTest::addColumn<QString>("name");
    for (const char* name : {"layers", "identify", "editor", "lut", "timings", "server", "benchmark", "rasterAdvisor"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestUiLayout::panelsAreNeverCutOff()
{
    // At 1000×700 a panel gets less room than its layout needs: it must
    // scroll, never squeeze its widgets below their minimum (which is where
    // buttons were cut off).
    QFETCH(QString, name);
    MainWindow window;
    showAt(window, QSize(1000, 700));
    QVERIFY(window.raiseDock(name));
    QCoreApplication::processEvents();
    auto* d = window.findChild<QDockWidget*>(name + QStringLiteral("Dock"));
    auto* scroll = qobject_cast<QScrollArea*>(d->widget());
    QVERIFY2(scroll, "the panel is not in a scroll area");
    QWidget* panel = scroll->widget();
    const QSize need = panel->minimumSizeHint();
    QVERIFY2(panel->width() >= need.width() && panel->height() >= need.height(),
             qPrintable(QStringLiteral("%1 is %2x%3, its layout needs %4x%5")
                            .arg(name).arg(panel->width()).arg(panel->height()).arg(need.width()).arg(need.height())));
    // What does not fit can be scrolled to.
    const QSize view = scroll->viewport()->size();
    if (panel->width() > view.width()) QVERIFY(scroll->horizontalScrollBar()->maximum() > 0);
    if (panel->height() > view.height()) QVERIFY(scroll->verticalScrollBar()->maximum() > 0);
}

void TestUiLayout::resetLayoutRestoresTheDocks()
{
    MainWindow window;
    showAt(window, QSize(1400, 860));
    QDockWidget* timings = dock(window, "timings");
    QDockWidget* layers = dock(window, "layers");
    const Qt::DockWidgetArea timingsArea = window.dockWidgetArea(timings);
    // The user closes one panel, floats another and makes the layer list huge.
    timings->close();
    dock(window, "server")->setFloating(true);
    window.resizeDocks({layers}, {900}, Qt::Horizontal);
    QCoreApplication::processEvents();
    QVERIFY(window.canvas()->width() < 700);

    QAction* reset = nullptr;
    for (QAction* a : window.menuActions())
        if (a->text() == QStringLiteral("Reset &Layout")) reset = a;
    QVERIFY2(reset, "View → Reset Layout is missing");
    reset->trigger();
    QCoreApplication::processEvents();
    QVERIFY(timings->isVisible());
    QCOMPARE(window.dockWidgetArea(timings), timingsArea);
    QVERIFY(!dock(window, "server")->isFloating());
    QVERIFY(window.canvas()->width() >= 700);
}

void TestUiLayout::helpListsShortcutsAndVersion()
{
    MainWindow window;
    const QList<QAction*> actions = window.menuActions();
    QAction* help = nullptr;
    for (QAction* a : actions)
        if (a->shortcut() == QKeySequence(QKeySequence::HelpContents)) help = a;
    QVERIFY2(help, "no Help action on F1");
    help->trigger();
    auto* dialog = window.findChild<HelpDialog*>(QStringLiteral("helpDialog"));
    QVERIFY(dialog);
    const QString text = dialog->browser()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("MapTune in five minutes")), "the manual is not in the page");
    // Every shortcut in the menus, with its action's name, and the version.
    int shortcuts = 0;
    for (const QAction* a : actions) {
        if (a->shortcut().isEmpty()) continue;
        ++shortcuts;
        QVERIFY2(text.contains(a->shortcut().toString(QKeySequence::NativeText)), qPrintable(a->text()));
    }
    QVERIFY(shortcuts >= 10);
    QVERIFY(text.contains(QStringLiteral("Format Mapfile")));  // "&Format Mapfile", mnemonic removed
    QVERIFY(text.contains(QStringLiteral("MapTune " MAPTUNE_VERSION)));
}

QTEST_MAIN(TestUiLayout)
#include "test_ui_layout.moc"
