// Workbench tests: editing the mapfile from the layer list, as a user does
// it at 1000x700 -- a layer dragged onto another, STATUS from the context
// menu, a class duplicated, a style's colour picked and width typed in the
// style form. Each is one text edit that keeps the comments and one Undo.

#include "ui_test_support.h"

#include "layer_edit_actions.h"
#include "layer_list_model.h"
#include "main_window.h"
#include "map_document.h"
#include "editor_panel.h"
#include "mapfile_editor.h"
#include "mapfile_outline.h"
#include "style_form.h"

#include "render/engine.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QMimeData>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace maptune;
using namespace maptune::testing;

namespace {

const QByteArray kMap = "MAP\n"
                        "  SIZE 100 100\n"
                        "  EXTENT 0 0 100 100\n"
                        "  # red first\n"
                        "  LAYER\n"
                        "    NAME \"red\"\n"
                        "    TYPE POLYGON\n"
                        "    STATUS ON\n"
                        "    FEATURE WKT \"POLYGON((10 10, 40 10, 40 40, 10 40, 10 10))\" END\n"
                        "    CLASS\n"
                        "      NAME \"all\"  # the only class\n"
                        "      STYLE\n"
                        "        COLOR 255 0 0\n"
                        "      END\n"
                        "    END\n"
                        "  END\n"
                        "  LAYER\n"
                        "    NAME \"frame\"\n"
                        "    TYPE LINE\n"
                        "    STATUS ON\n"
                        "    FEATURE WKT \"LINESTRING(1 1, 99 1, 99 99)\" END\n"
                        "    CLASS\n"
                        "      STYLE COLOR 0 0 0 WIDTH 2 END\n"
                        "    END\n"
                        "  END\n"
                        "END\n";

struct Fixture {
    QTemporaryDir dir;
    MainWindow window;
    MapDocument* doc = window.document();

    bool open()
    {
        window.resize(1000, 700);
        window.show();
        if (!QTest::qWaitForWindowExposed(&window)) return false;
        const QString path = writeFile(dir.filePath(QStringLiteral("edit.map")), kMap);
        return window.openFile(path) && doc->lastGoodMap();
    }
    QByteArray text() const { return doc->text().toUtf8(); }
    void undo() { doc->textDocument()->undo(); }
    QAction* menuAction(QMenu* menu, const QString& text)
    {
        for (QAction* a : menu->findChildren<QAction*>())
            if (a->text().remove(QLatin1Char('&')) == text) return a;
        return nullptr;
    }
};

}  // namespace

class TestUiLayerEdit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void dragALayerOntoAnother()
    {
        Fixture f;
        QVERIFY(f.open());
        auto* model = qobject_cast<LayerListModel*>(f.window.layerView()->model());
        QVERIFY(model && model->rowCount() == 2);
        // What the view does on a drop: the dragged row's data dropped on the target row.
        std::unique_ptr<QMimeData> dragged(model->mimeData({model->index(1, 0)}));  // frame
        QVERIFY(dragged);
        QVERIFY(model->canDropMimeData(dragged.get(), Qt::MoveAction, -1, -1, model->index(0, 0)));
        model->dropMimeData(dragged.get(), Qt::MoveAction, -1, -1, model->index(0, 0));  // onto red
        const int red = kMap.indexOf("  # red first\n") + 14, frame = kMap.indexOf("  LAYER\n    NAME \"frame\"");
        const QByteArray expected = kMap.left(red) + kMap.mid(frame, kMap.lastIndexOf("  END\n") + 6 - frame) +
                                    kMap.mid(red, frame - red) + "END\n";
        QCOMPARE(f.text(), expected);
        f.undo();
        QCOMPARE(f.text(), kMap);
    }

    void statusFromTheContextMenu()
    {
        Fixture f;
        QVERIFY(f.open());
        std::unique_ptr<QMenu> menu(f.window.layerMenu(0));
        QAction* off = f.menuAction(menu.get(), QStringLiteral("OFF"));
        QVERIFY(off);
        off->trigger();
        QByteArray expected = kMap;
        expected.replace(kMap.indexOf("STATUS ON"), 9, "STATUS OFF");
        QCOMPARE(f.text(), expected);
        f.undo();
        QCOMPARE(f.text(), kMap);
    }

    void classesFromTheContextMenu()
    {
        Fixture f;
        QVERIFY(f.open());
        std::unique_ptr<QMenu> menu(f.window.layerMenu(1, 0));  // frame's class
        QAction* duplicate = f.menuAction(menu.get(), QStringLiteral("Duplicate Class"));
        QVERIFY(duplicate);
        duplicate->trigger();
        const QByteArray cls = "    CLASS\n      STYLE COLOR 0 0 0 WIDTH 2 END\n    END\n";
        QByteArray expected = kMap;
        expected.replace(cls, cls + cls);
        QCOMPARE(f.text(), expected);
        f.undo();
        QCOMPARE(f.text(), kMap);

        // A style of the class: duplicated on its own line, then undone.
        std::unique_ptr<QMenu> again(f.window.layerMenu(1, 0));
        QAction* duplicateStyle = f.menuAction(again.get(), QStringLiteral("Duplicate Style"));
        QVERIFY(duplicateStyle);
        duplicateStyle->trigger();
        expected = kMap;
        expected.replace("      STYLE COLOR 0 0 0 WIDTH 2 END\n", "      STYLE COLOR 0 0 0 WIDTH 2 END\n      STYLE COLOR 0 0 0 WIDTH 2 END\n");
        QCOMPARE(f.text(), expected);
        f.undo();
        QCOMPARE(f.text(), kMap);
    }

    void classesTheTextDoesNotHoldAreLeftAlone()
    {
        // Class-level COLOR makes a style the text has no STYLE block for:
        // editing by index would hit the wrong block, so nothing is edited.
        QTemporaryDir dir;
        const QByteArray legacy = "MAP\n  SIZE 10 10\n  EXTENT 0 0 10 10\n  LAYER\n    NAME \"p\"\n    TYPE POINT\n"
                                  "    STATUS ON\n    FEATURE POINTS 5 5 END END\n    CLASS\n      COLOR 255 0 0\n"
                                  "      STYLE\n        COLOR 0 0 255\n      END\n    END\n  END\nEND\n";
        MainWindow window;
        QVERIFY(window.openFile(writeFile(dir.filePath(QStringLiteral("legacy.map")), legacy)));
        QVERIFY(window.document()->lastGoodMap());
        std::unique_ptr<QMenu> menu(window.layerMenu(0, 0));
        QAction* removeStyle = nullptr;
        for (QAction* a : menu->findChildren<QAction*>())
            if (a->text() == QLatin1String("Remove Style")) removeStyle = a;
        QVERIFY(removeStyle);
        QSignalSpy said(window.layerEdits(), &LayerEditActions::message);
        removeStyle->trigger();
        QCOMPARE(window.document()->text().toUtf8(), legacy);
        QCOMPARE(said.size(), 1);
    }

    void theLayerListAndTheOutlineFollowEachOther()
    {
        Fixture f;
        QVERIFY(f.open());
        MapfileEditor* editor = f.window.editorPanel()->editor();
        MapfileOutline* outline = f.window.editorPanel()->outline();
        outline->rebuild();
        // The cursor in the frame LAYER: the layer list's current row is frame.
        editor->goTo(21, 5);
        QCOMPARE(f.window.layerView()->currentIndex().row(), 1);
        // Choosing red in the layer list selects its LAYER in the outline; the cursor stays.
        f.window.layerView()->setCurrentIndex(f.window.layerView()->model()->index(0, 0));
        QCOMPARE(outline->currentItem()->text(0), QStringLiteral("LAYER red"));
        QCOMPARE(editor->textCursor().blockNumber() + 1, 21);
    }

    void aColourPickAndAWidthAreOneUndoStep()
    {
        Fixture f;
        QVERIFY(f.open());
        f.window.layerEdits()->setColourPicker([](const QColor& initial, QWidget*) {
            return initial == QColor(255, 0, 0) ? QColor(10, 20, 30) : QColor();
        });
        f.window.layerEdits()->setFormDriver([](StyleForm& form) {
            QTest::mouseClick(form.colourButton(), Qt::LeftButton);
            form.widthBox()->setValue(4);
            return true;
        });
        std::unique_ptr<QMenu> menu(f.window.layerMenu(0, 0));
        QAction* edit = f.menuAction(menu.get(), QStringLiteral("Edit Style…"));
        QVERIFY(edit);
        edit->trigger();
        QByteArray expected = kMap;
        expected.replace("      STYLE\n        COLOR 255 0 0\n", "      STYLE\n        WIDTH 4\n        COLOR 10 20 30\n");
        QCOMPARE(f.text(), expected);
        f.undo();
        QCOMPARE(f.text(), kMap);
    }
};

QTEST_MAIN(TestUiLayerEdit)
#include "test_ui_layer_edit.moc"
