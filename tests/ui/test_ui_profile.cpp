// Workbench tests: View ▸ Profile This View as a user runs it at 1000x700.
// One render of the view, drawn as a timeline per layer; the layers by time;
// the lint findings of the slow layers first.

#include "ui_test_support.h"

#include "main_window.h"
#include "map_canvas.h"
#include "profile_view.h"

#include "render/engine.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace maptune;
using namespace maptune::testing;

class TestUiProfile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void profileThisView()
    {
        QTemporaryDir dir;
        // The squares with DEBUG left on in the red layer: a lint finding about it.
        QByteArray map = kSquares;
        map.replace("    NAME \"red\"\n", "    NAME \"red\"\n    DEBUG 1\n");
        const QString path = writeFile(dir.filePath(QStringLiteral("squares.map")), map);
        MainWindow window;
        window.resize(1000, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(path));
        QTRY_VERIFY_WITH_TIMEOUT(!window.canvas()->isRendering() && !window.canvas()->image().isNull(), 10000);

        QAction* action = menuAction(window, QStringLiteral("Profile This View"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+P")));
        ProfileView* profile = window.profileView();
        QSignalSpy profiled(profile, &ProfileView::profiled);
        QSignalSpy findings(profile, &ProfileView::findingsShown);
        action->trigger();
        QVERIFY(profiled.wait(10000) || profiled.size() == 1);
        QDockWidget* dock = window.findChild<QDockWidget*>(QStringLiteral("profileDock"));
        QVERIFY(dock && dock->isVisible() && !dock->visibleRegion().isEmpty());

        const QStringList bars = profile->bars();
        for (const char* bar : {"red: draw", "frame: draw", "red: read", "encode: encode"})
            QVERIFY2(bars.contains(QLatin1String(bar)), qPrintable(bars.join(", ")));
        QVERIFY2(!bars.join(' ').contains(QLatin1String("blue")), "a layer that is off draws no bar");
        QCOMPARE(profile->layers()->topLevelItemCount(), 2);
        const double first = profile->layers()->topLevelItem(0)->text(1).toDouble();
        const double second = profile->layers()->topLevelItem(1)->text(1).toDouble();
        QVERIFY(first >= second);  // slowest first

        QVERIFY(findings.wait(10000) || findings.size() == 1);
        QTreeWidget* list = profile->findings();
        bool debugOfRed = false;
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            debugOfRed = debugOfRed || (list->topLevelItem(i)->text(0) == QLatin1String("MT104") &&
                                        list->topLevelItem(i)->text(2).contains(QLatin1String("layer 'red'")));
        QVERIFY(debugOfRed);
    }
};

QTEST_MAIN(TestUiProfile)
#include "test_ui_profile.moc"
