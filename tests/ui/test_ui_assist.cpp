// Workbench tests: what the editor knows about MapServer, as a user meets
// it with the keyboard and mouse. Completion at the cursor's block (typed
// and on Ctrl+Space, accepted with Return, undone in one step), the values
// of a keyword and the map's symbols, hover help from the keyword schema,
// and a lint finding's quick fix from the problems list.

#include "ui_test_support.h"

#include "editor_panel.h"
#include "lint_runner.h"
#include "map_document.h"
#include "mapfile_completer.h"
#include "mapfile_editor.h"
#include "mapfile_outline.h"

#include "render/engine.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCompleter>
#include <QTemporaryDir>
#include <QImage>
#include <QRegularExpression>
#include <QTest>
#include <QTextBlock>
#include <QToolButton>
#include <QTreeWidget>

using namespace maptune;
using namespace maptune::testing;

namespace {

constexpr char kMap[] = "MAP\n"                                    // 1
                        "  NAME \"t\"\n"                           // 2
                        "  EXTENT 0 0 10 10\n"                     // 3
                        "  SIZE 100 100\n"                         // 4
                        "  SYMBOL\n"                               // 5
                        "    NAME \"circle\"\n"                    // 6
                        "    TYPE ELLIPSE\n"                       // 7
                        "    POINTS 1 1 END\n"                     // 8
                        "  END\n"                                  // 9
                        "  LAYER\n"                                // 10
                        "    NAME \"pts\"\n"                       // 11
                        "    TYPE POINT\n"                         // 12
                        "    STATUS ON\n"                          // 13
                        "    FEATURE POINTS 5 5 END END\n"         // 14
                        "    CLASS\n"                              // 15
                        "      STYLE\n"                            // 16
                        "        WIDTH 2\n"                        // 17
                        "      END\n"                              // 18
                        "    END\n"                                // 19
                        "  END\n"                                  // 20
                        "END\n";                                   // 21

struct Fixture {
    MapDocument doc;
    EditorPanel panel{&doc};
    MapfileEditor* editor = panel.editor();

    bool show(const QString& text, const QString& path = {})
    {
        doc.setText(text, path);
        doc.compileNow();
        panel.resize(1000, 700);
        panel.show();
        QApplication::setActiveWindow(&panel);
        if (!QTest::qWaitForWindowActive(&panel)) return false;
        editor->setFocus();
        return true;
    }
    // An empty new line after `line` (1-based), indented, with the cursor at its end.
    void openLineAfter(int line, const QString& indent)
    {
        QTextCursor c(editor->document()->findBlockByNumber(line - 1));
        c.movePosition(QTextCursor::EndOfBlock);
        editor->setTextCursor(c);
        QTest::keyClick(editor, Qt::Key_Return);
        QTest::keyClicks(editor, indent);
    }
    QString lineText(int line) const { return editor->document()->findBlockByNumber(line - 1).text(); }
};

}  // namespace

class TestUiAssist : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void typingAKeywordOffersTheBlocksKeywords()
    {
        Fixture f;
        QVERIFY(f.show(kMap));
        f.openLineAfter(13, QStringLiteral("    "));   // in the LAYER
        QTest::keyClicks(f.editor, QStringLiteral("CL"));
        QVERIFY(f.editor->completer()->isPopupVisible());
        const QStringList offered = f.editor->completer()->visibleCompletions();
        QVERIFY2(offered.contains(QLatin1String("CLASS")) && offered.contains(QLatin1String("CLASSITEM")),
                 qPrintable(offered.join(' ')));
        for (const QString& k : offered) QVERIFY2(k.startsWith(QLatin1String("CL")), qPrintable(k));
        QTest::keyClicks(f.editor, QStringLiteral("ASSI"));
        QCOMPARE(f.editor->completer()->visibleCompletions(), QStringList{QStringLiteral("CLASSITEM")});
        QTest::keyClick(f.editor, Qt::Key_Return);
        QCOMPARE(f.lineText(14), QStringLiteral("    CLASSITEM"));
        QVERIFY(!f.editor->completer()->isPopupVisible());
    }

    void ctrlSpaceInAStyleOffersStyleKeywords()
    {
        Fixture f;
        QVERIFY(f.show(kMap));
        f.openLineAfter(17, QStringLiteral("        "));  // in the STYLE
        QTest::keyClick(f.editor, Qt::Key_Space, Qt::ControlModifier);
        QVERIFY(f.editor->completer()->isPopupVisible());
        const QStringList offered = f.editor->completer()->visibleCompletions();
        QVERIFY(offered.contains(QLatin1String("COLOR")) && offered.contains(QLatin1String("OUTLINECOLOR")));
        QVERIFY(offered.contains(QLatin1String("END")));
        QVERIFY(!offered.contains(QLatin1String("DATA")) && !offered.contains(QLatin1String("EXTENT")));
        QTest::keyClick(f.editor, Qt::Key_Escape);
        QVERIFY(!f.editor->completer()->isPopupVisible());
    }

    void aSpaceAfterAnEnumKeywordOffersItsValues()
    {
        Fixture f;
        QVERIFY(f.show(kMap));
        f.openLineAfter(19, QStringLiteral("    "));   // in the LAYER, after its CLASS
        QTest::keyClicks(f.editor, QStringLiteral("POSTLABELCACHE"));
        QTest::keyClick(f.editor, Qt::Key_Escape);
        QTest::keyClicks(f.editor, QStringLiteral(" "));
        // A boolean's TRUE/FALSE come on Ctrl+Space...
        QTest::keyClick(f.editor, Qt::Key_Space, Qt::ControlModifier);
        QStringList offered = f.editor->completer()->visibleCompletions();
        QVERIFY2(offered.contains(QLatin1String("TRUE")) && offered.contains(QLatin1String("FALSE")),
                 qPrintable(offered.join(' ')));
        QTest::keyClick(f.editor, Qt::Key_Escape);

        // ...an enum's values do, as soon as the space is typed.
        f.openLineAfter(20, QStringLiteral("    "));
        QTest::keyClicks(f.editor, QStringLiteral("STATUS"));
        QTest::keyClick(f.editor, Qt::Key_Escape);
        QTest::keyClicks(f.editor, QStringLiteral(" "));
        QVERIFY(f.editor->completer()->isPopupVisible());
        offered = f.editor->completer()->visibleCompletions();
        QVERIFY2(offered.contains(QLatin1String("ON")) && offered.contains(QLatin1String("OFF")), qPrintable(offered.join(' ')));
        QTest::keyClick(f.editor, Qt::Key_Down);
        QTest::keyClick(f.editor, Qt::Key_Return);
        QCOMPARE(f.lineText(21), QStringLiteral("    STATUS ") + offered.at(1));
    }

    void aStylesSymbolOffersTheMapsSymbolsAndUndoesInOneStep()
    {
        Fixture f;
        QVERIFY(f.show(kMap));
        f.openLineAfter(17, QStringLiteral("        "));
        QTest::keyClicks(f.editor, QStringLiteral("SYMBOL "));
        const QString typed = f.editor->toPlainText();
        QTest::keyClick(f.editor, Qt::Key_Space, Qt::ControlModifier);
        QCOMPARE(f.editor->completer()->visibleCompletions(), QStringList{QStringLiteral("\"circle\"")});
        QTest::keyClick(f.editor, Qt::Key_Return);
        QCOMPARE(f.lineText(18), QStringLiteral("        SYMBOL \"circle\""));
        f.editor->undo();
        QCOMPARE(f.editor->toPlainText(), typed);
    }

    void hoverShowsTheKeywordsHelp()
    {
        Fixture f;
        QVERIFY(f.show(kMap));
        QTextCursor c(f.editor->document()->findBlockByNumber(16));  // "        WIDTH 2"
        c.setPosition(c.block().position() + 10);
        const QPoint at = f.editor->cursorRect(c).center();
        const QString help = f.editor->hoverTextAt(at);
        QVERIFY2(help.contains(QLatin1String("<b>WIDTH</b>")) && help.contains(QLatin1String("STYLE")), qPrintable(help));
        QVERIFY(help.contains(QLatin1String("<p>")));  // the description
        // Past the end of the line there is nothing to explain.
        const QPoint far(f.editor->viewport()->width() - 5, at.y());
        QVERIFY(f.editor->hoverTextAt(far).isEmpty());

        // A symbol's name shows the symbol, drawn as the legend draws it.
        QTextCursor name(f.editor->document()->findBlockByNumber(5));  // '    NAME "circle"'
        name.setPosition(name.block().position() + 12);
        const QString symbol = f.editor->hoverTextAt(f.editor->cursorRect(name).center());
        const QRegularExpressionMatch png =
            QRegularExpression(QStringLiteral("data:image/png;base64,([A-Za-z0-9+/=]+)")).match(symbol);
        QVERIFY2(png.hasMatch(), qPrintable(symbol.left(200)));
        const QImage image = QImage::fromData(QByteArray::fromBase64(png.captured(1).toLatin1()), "PNG");
        QVERIFY(!image.isNull());
        int dark = 0;  // the circle (an unfilled ELLIPSE: its outline) in the style's colour
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) dark += qGray(image.pixel(x, y)) < 100;
        QVERIFY2(dark > 10, qPrintable(QString::number(dark)));
        QCOMPARE(QColor(image.pixel(1, 1)), QColor(Qt::white));
    }

    void f12FollowsAnIncludeAndASymbolAndShiftF12ListsItsUses()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("layers.inc")),
                  "LAYER\n  NAME \"inc\"\n  TYPE POINT\n  FEATURE POINTS 1 1 END END\n"
                  "  CLASS\n    STYLE\n      SYMBOL \"dot\"\n    END\n  END\nEND\n");
        const QString path = dir.filePath(QStringLiteral("nav.map"));
        const QString text = QStringLiteral("MAP\n"                              // 1
                                            "  EXTENT 0 0 10 10\n"               // 2
                                            "  SIZE 100 100\n"                   // 3
                                            "  SYMBOL\n"                         // 4
                                            "    NAME \"dot\"\n"               // 5
                                            "    TYPE ELLIPSE\n"                 // 6
                                            "    POINTS 1 1 END\n"               // 7
                                            "  END\n"                            // 8
                                            "  INCLUDE \"layers.inc\"\n"       // 9
                                            "  LAYER\n"                          // 10
                                            "    NAME \"pts\"\n"               // 11
                                            "    TYPE POINT\n"                   // 12
                                            "    FEATURE POINTS 5 5 END END\n"   // 13
                                            "    CLASS\n"                        // 14
                                            "      STYLE\n"                      // 15
                                            "        SYMBOL \"dot\"\n"         // 16
                                            "      END\n"                        // 17
                                            "    END\n"                          // 18
                                            "  END\n"                            // 19
                                            "END\n");                            // 20
        writeFile(path, text.toUtf8());
        Fixture f;
        QVERIFY(f.show(text, path));
        auto putCursor = [&](int line, int column) {
            QTextCursor c(f.editor->document()->findBlockByNumber(line - 1));
            c.setPosition(c.block().position() + column - 1);
            f.editor->setTextCursor(c);
        };

        // F12 on the INCLUDE opens the included file's tab at its top.
        putCursor(9, 14);
        QTest::keyClick(f.editor, Qt::Key_F12);
        QVERIFY(f.panel.tabs()->currentIndex() > 0);
        QCOMPARE(f.panel.tabs()->tabToolTip(f.panel.tabs()->currentIndex()), dir.filePath(QStringLiteral("layers.inc")));

        // F12 on a STYLE's SYMBOL goes to the SYMBOL block.
        f.panel.tabs()->setCurrentIndex(0);
        f.editor->setFocus();
        putCursor(16, 18);
        QTest::keyClick(f.editor, Qt::Key_F12);
        QCOMPARE(f.editor->textCursor().blockNumber() + 1, 4);

        // Shift+F12 on the symbol's NAME lists its use in this file.
        putCursor(5, 12);
        QTest::keyClick(f.editor, Qt::Key_F12, Qt::ShiftModifier);
        QCOMPARE(f.panel.bottomTabs()->currentWidget(), f.panel.references());
        QCOMPARE(f.panel.references()->topLevelItemCount(), 1);
        QCOMPARE(f.panel.references()->topLevelItem(0)->text(0), QStringLiteral("16:16"));
        QTest::mouseClick(f.panel.references()->viewport(), Qt::LeftButton, {},
                          f.panel.references()->visualItemRect(f.panel.references()->topLevelItem(0)).center());
        QCOMPARE(f.editor->textCursor().blockNumber() + 1, 16);

        // The outline follows the cursor, and a click on it moves the cursor.
        MapfileOutline* outline = f.panel.outline();
        outline->rebuild();
        QCOMPARE(outline->currentItem()->text(0), QStringLiteral("STYLE"));
        QTreeWidgetItem* layer = outline->itemAtLine(11);
        QVERIFY(layer);
        QCOMPARE(layer->text(0), QStringLiteral("LAYER pts"));
        f.panel.bottomTabs()->setCurrentWidget(outline);
        QTest::mouseClick(outline->viewport(), Qt::LeftButton, {}, outline->visualItemRect(layer).center());
        QCOMPARE(f.editor->textCursor().blockNumber() + 1, 10);
    }

    void aLintQuickFixIsOneEditAndOneUndo()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("pg.map"));
        const QString text = QStringLiteral("MAP\n"
                                            "  EXTENT 0 0 10 10\n"
                                            "  SIZE 100 100\n"
                                            "  LAYER\n"
                                            "    NAME \"roads\"\n"
                                            "    TYPE LINE\n"
                                            "    STATUS ON\n"
                                            "    CONNECTIONTYPE POSTGIS\n"
                                            "    CONNECTION \"service=gis\"\n"
                                            "    DATA \"geom from roads using unique gid using srid=4326\"\n"
                                            "  END\n"
                                            "END\n");
        Fixture f;
        QVERIFY(f.show(text, path));
        f.panel.lint()->lintNow();
        QTreeWidget* problems = f.panel.problems();
        QTreeWidgetItem* finding = nullptr;
        for (int i = 0; i < problems->topLevelItemCount(); ++i)
            if (problems->topLevelItem(i)->text(EditorPanel::MessageCol).startsWith(QLatin1String("[MT103]")))
                finding = problems->topLevelItem(i);
        QVERIFY(finding);
        QCOMPARE(finding->text(EditorPanel::WhereCol), QStringLiteral("4:3"));
        auto* fix = qobject_cast<QToolButton*>(problems->itemWidget(finding, EditorPanel::FixCol));
        QVERIFY(fix);
        QTest::mouseClick(fix, Qt::LeftButton);
        QCOMPARE(f.lineText(9), QStringLiteral("    PROCESSING \"CLOSE_CONNECTION=DEFER\""));
        QCOMPARE(f.lineText(8), QStringLiteral("    CONNECTIONTYPE POSTGIS"));
        QCOMPARE(f.editor->toPlainText().count(QLatin1Char('\n')), text.count(QLatin1Char('\n')) + 1);
        f.editor->undo();
        QCOMPARE(f.editor->toPlainText(), text);
    }
};

QTEST_MAIN(TestUiAssist)
#include "test_ui_assist.moc"
