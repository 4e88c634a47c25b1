// Workbench tests: the mapfile document and editor: live preview diagnostics, atomic saves,
// autosave and crash recovery, INCLUDE tabs.

#include "ui_test_support.h"

#include "editor_panel.h"
#include "layer_list_model.h"
#include "main_window.h"
#include "map_canvas.h"
#include "map_document.h"
#include "mapfile_editor.h"

#include "render/engine.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextCursor>
#include <QTimer>
#include <QToolButton>

#include <csignal>
#include <cstdio>

#include <sys/resource.h>
#include <unistd.h>

using namespace maptune;
using namespace maptune::testing;

class TestUiDocument : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void brokenEditKeepsLastGoodMap();
    void saveIsAtomicRoundTrip();
    void autosaveRecovery();
    void includeFilesOpenInTabs();
    void formatKeepsCommentsAndValues();
    void missingDataFileDrawsTheRest();
    void brokenFileHidesThePreviousMap();
    void failedSaveKeepsFileAndEdits_data();
    void failedSaveKeepsFileAndEdits();
    void killedSessionIsRecovered_data();
    void killedSessionIsRecovered();
};

namespace {

constexpr char kChildFlag[] = "--autosave-child";
constexpr char kTyped[] = "# typed before the crash";

// Answers the next modal message box with `button`; its text lands in *text.
void answerNextMessageBox(QMessageBox::StandardButton button, QString* text)
{
    auto* timer = new QTimer;
    timer->setInterval(20);
    QObject::connect(timer, &QTimer::timeout, [timer, button, text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || !box->button(button)) return;
        *text = box->text();
        timer->stop();
        timer->deleteLater();
        box->button(button)->click();
    });
    timer->start();
}

// The child process of killedSessionIsRecovered: a workbench session on
// `path` in which the user types a line into the editor. Once the autosave
// timer has written it, the child says "autosaved" and keeps working until the
// parent kills it.
int runAutosaveChild(int argc, char** argv, const QString& path)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setApplicationName(QStringLiteral("maptune-test"));
    initEngine();
    MainWindow window;
    window.document()->setAutosaveInterval(100);
    window.show();
    if (!window.openFile(path)) return 2;
    MapfileEditor* editor = window.editorPanel()->editor();
    editor->setFocus();
    editor->moveCursor(QTextCursor::Start);
    QTest::keyClicks(editor, QString::fromLatin1(kTyped));
    QTest::keyClick(editor, Qt::Key_Return);
    if (!window.document()->isModified()) return 3;
    const QString autosave = MapDocument::autosavePath(path);
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (!QFile::exists(autosave)) return;
        poll.stop();
        std::fputs("autosaved\n", stdout);
        std::fflush(stdout);
    });
    poll.start(20);
    return app.exec();
}

}  // namespace

void TestUiDocument::initTestCase()
{
    initEngine();
}

void TestUiDocument::brokenEditKeepsLastGoodMap()
{
    MapDocument doc;
    QSignalSpy maps(&doc, &MapDocument::mapChanged);
    doc.setText(QString::fromUtf8(kSquares));
    QCOMPARE(maps.count(), 1);
    const MapDefPtr good = doc.lastGoodMap();
    QVERIFY(good);
    QVERIFY(!hasErrors(doc.diagnostics()));

    // Misspell STYLE on line 12 (the red class's style), as a user would type it.
    QSignalSpy diagnostics(&doc, &MapDocument::diagnosticsChanged);
    doc.setPreviewDelay(20);
    QTextCursor c(doc.textDocument()->findBlockByNumber(11));
    const int col = int(c.block().text().indexOf(QLatin1String("STYLE")));
    QVERIFY(col > 0);
    c.setPosition(c.block().position() + col + 3);
    c.insertText(QStringLiteral("E"));  // STYELE
    QVERIFY(diagnostics.wait(2000));  // debounced live preview
    QVERIFY(hasErrors(doc.diagnostics()));
    bool atLine = false;
    for (const Diagnostic& d : doc.diagnostics()) atLine |= d.isError() && d.pos.line == 12;
    QVERIFY2(atLine, "an error points at line 12");
    QCOMPARE(doc.lastGoodMap(), good);
    QCOMPARE(maps.count(), 1);

    // Undo restores the good text: a new good map comes.
    doc.textDocument()->undo();
    QVERIFY(maps.wait(2000));
    QVERIFY(!hasErrors(doc.diagnostics()));
    QVERIFY(doc.lastGoodMap() != good);
}

void TestUiDocument::saveIsAtomicRoundTrip()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("squares.map"), kSquares);
    MapDocument doc;
    const Status opened = doc.open(path);
    QVERIFY2(opened, qPrintable(opened.message()));
    QVERIFY(!doc.isModified());
    QTextCursor c(doc.textDocument());
    c.insertText(QStringLiteral("# edited\n"));
    QVERIFY(doc.isModified());
    const Status saved = doc.save();
    QVERIFY2(saved, qPrintable(saved.message()));
    QVERIFY(!doc.isModified());
    QCOMPARE(readFile(path), QByteArray("# edited\n") + kSquares);
    // QSaveFile leaves no temporary files behind.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList({"squares.map"}));
    // A save into a folder that does not exist fails with a message and keeps the edits.
    c.insertText(QStringLiteral("# more\n"));
    const Status refused = doc.saveAs(dir.filePath("missing/x.map"));
    QVERIFY(!refused);
    QVERIFY(refused.message().contains("missing"));
    QVERIFY(doc.isModified());
    QCOMPARE(doc.path(), path);
}

void TestUiDocument::autosaveRecovery()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("squares.map"), kSquares);
    {
        MapDocument crashed;
        QVERIFY(crashed.open(path));
        QTextCursor c(crashed.textDocument());
        c.insertText(QStringLiteral("# unsaved\n"));
        QVERIFY(crashed.writeAutosave());
        // No clean shutdown: the autosave stays.
    }
    QCOMPARE(MapDocument::autosavePath(path), path + ".autosave");
    QVERIFY(MapDocument::hasRecovery(path));
    MapDocument doc;
    QVERIFY(doc.open(path));
    QVERIFY(doc.recover());
    QVERIFY(doc.isModified());
    QVERIFY(doc.text().startsWith("# unsaved\n"));
    QVERIFY(doc.lastGoodMap());
    // Saving makes the autosave obsolete.
    QVERIFY(doc.save());
    QVERIFY(!QFile::exists(path + ".autosave"));
    QVERIFY(!MapDocument::hasRecovery(path));
    // An autosave identical to the file is nothing to recover.
    writeFile(path + ".autosave", readFile(path));
    QVERIFY(!MapDocument::hasRecovery(path));
}

void TestUiDocument::includeFilesOpenInTabs()
{
    QTemporaryDir dir;
    const QByteArray layer = "LAYER\n  NAME \"inc\"\n  TYPE POINT\n  STATUS ON\n"
                             "  FEATURE POINTS 5 5 END END\n  CLASS STYLE COLOR 0 0 0 END END\nEND\n";
    writeFile(dir.filePath("layer.inc"), layer);
    const QString path = writeFile(dir.filePath("main.map"),
                                   "MAP\n  NAME \"main\"\n  SIZE 10 10\n  EXTENT 0 0 10 10\n  INCLUDE \"layer.inc\"\nEND\n");
    MapDocument doc;
    EditorPanel panel(&doc);
    const Status opened = doc.open(path);
    QVERIFY2(opened, qPrintable(opened.message()));
    QVERIFY(doc.lastGoodMap());
    QCOMPARE(panel.tabs()->count(), 2);
    QCOMPARE(panel.tabs()->tabText(0), QStringLiteral("main.map"));
    auto* included = qobject_cast<QPlainTextEdit*>(panel.tabs()->widget(1));
    QVERIFY(included);
    QVERIFY(included->isReadOnly());
    QCOMPARE(included->toPlainText(), QString::fromUtf8(layer));
    QCOMPARE(panel.showIncluded(dir.filePath("layer.inc"), 2), included);
    QCOMPARE(panel.tabs()->currentIndex(), 1);
    QCOMPARE(included->textCursor().blockNumber(), 1);
    // An edit that drops the INCLUDE closes its tab.
    doc.textDocument()->setPlainText("MAP\n  NAME \"main\"\n  SIZE 10 10\n  EXTENT 0 0 10 10\nEND\n");
    QVERIFY(doc.compileNow());
    QCOMPARE(panel.tabs()->count(), 1);
}

// The Format button as a user presses it: layout changes, comments and
// explicitly written defaults stay, one undo step brings the text back, and
// Save writes the formatted text.
void TestUiDocument::formatKeepsCommentsAndValues()
{
    QTemporaryDir dir;
    const QByteArray original = "# Roads of the demo.\n"
                                "map\n"
                                "name 'm'   # the name\n"
                                "size 10 10 extent 0 0 10 10\n"
                                "maxsize 4096\n"
                                "\n"
                                "layer name 'l' type point status off # hidden\n"
                                "feature points 5 5 end end\n"
                                "class style color 0 0 0 end end\n"
                                "end\n"
                                "end\n";
    const QString path = writeFile(dir.filePath("m.map"), original);
    MapDocument doc;
    EditorPanel panel(&doc);
    const Status opened = doc.open(path);
    QVERIFY2(opened, qPrintable(opened.message()));
    QToolButton* format = nullptr;
    for (auto* b : panel.findChildren<QToolButton*>())
        if (b->text() == QLatin1String("Format")) format = b;
    QVERIFY(format);
    QTest::mouseClick(format, Qt::LeftButton);
    const QString expected = QStringLiteral("# Roads of the demo.\n"
                                            "MAP\n"
                                            "  NAME \"m\" # the name\n"
                                            "  SIZE 10 10 EXTENT 0 0 10 10\n"
                                            "  MAXSIZE 4096\n"
                                            "\n"
                                            "  LAYER NAME \"l\" TYPE POINT STATUS OFF # hidden\n"
                                            "    FEATURE POINTS 5 5 END END\n"
                                            "    CLASS STYLE COLOR 0 0 0 END END\n"
                                            "  END\n"
                                            "END\n");
    QCOMPARE(doc.text(), expected);
    doc.textDocument()->undo();
    QCOMPARE(doc.text(), QString::fromUtf8(original));
    doc.textDocument()->redo();
    const Status saved = doc.save();
    QVERIFY2(saved, qPrintable(saved.message()));
    QCOMPARE(readFile(path), expected.toUtf8());
}

// One layer's data file is missing: the other layers draw, the canvas says
// which layer is missing and why, and the layer list marks it.
void TestUiDocument::missingDataFileDrawsTheRest()
{
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("m.map"),
                                   "MAP SIZE 100 100 EXTENT 0 0 100 100\n"
                                   "LAYER NAME 'square' TYPE POLYGON STATUS ON\n"
                                   " FEATURE POINTS 0 0 100 0 100 100 0 100 0 0 END END\n"
                                   " CLASS STYLE COLOR 255 0 0 END END END\n"
                                   "LAYER NAME 'gone' TYPE LINE STATUS ON DATA 'nowhere.shp'\n"
                                   " CLASS STYLE COLOR 0 0 0 END END END\n"
                                   "END\n");
    MainWindow window;
    window.resize(1000, 700);
    window.show();
    QSignalSpy rendered(window.canvas(), &MapCanvas::renderFinished);
    QVERIFY(window.openFile(path));
    QVERIFY(window.canvas()->map());  // the validator's "not found" does not block the preview
    QVERIFY(rendered.wait(10000));
    const QStringList errors = window.canvas()->layerErrors();
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors[0].contains("layer 'gone'") && errors[0].contains("nowhere"), qPrintable(errors[0]));
    const QImage shown = window.canvas()->grab().toImage();
    QCOMPARE(QColor(shown.pixel(shown.width() / 2, shown.height() / 2)), QColor(255, 0, 0));  // the square drew
    // The message band across the top is there (not the square's red).
    QVERIFY(QColor(shown.pixel(shown.width() / 2, 3)) != QColor(255, 0, 0));
    LayerListModel* layers = window.layerModel();
    bool marked = false;
    for (int row = 0; row < layers->rowCount(); ++row) {
        const QModelIndex name = layers->index(row, 0);
        if (name.data().toString() != QLatin1String("gone")) continue;
        marked = name.data(Qt::ToolTipRole).toString().contains("nowhere")
                 && name.data(Qt::ForegroundRole).value<QBrush>().color() == QColor(Qt::red);
    }
    QVERIFY(marked);
    // And the problem is listed where the editor shows problems.
    bool listed = false;
    for (const Diagnostic& d : window.document()->diagnostics()) listed = listed || d.message.contains("nowhere");
    QVERIFY(listed);
}

// Opening a file that does not parse clears the previous file's map and its
// include tabs: nothing of another file shows under this file's name.
void TestUiDocument::brokenFileHidesThePreviousMap()
{
    QTemporaryDir dir;
    writeFile(dir.filePath("layer.inc"), "LAYER NAME 'inc' TYPE POINT STATUS ON FEATURE POINTS 5 5 END END "
                                         "CLASS STYLE COLOR 0 0 0 END END END\n");
    const QString good = writeFile(dir.filePath("good.map"),
                                   "MAP SIZE 10 10 EXTENT 0 0 10 10\n  INCLUDE 'layer.inc'\nEND\n");
    const QString broken = writeFile(dir.filePath("broken.map"), "MAP SIZE 10 10 EXTENT 0 0 10 10\n  LAYER NAME \"x\n");
    MainWindow window;
    window.resize(1000, 700);
    QVERIFY(window.openFile(good));
    QVERIFY(window.canvas()->map());
    QCOMPARE(window.editorPanel()->tabs()->count(), 2);
    QCOMPARE(window.layerModel()->rowCount(), 1);
    QVERIFY(window.openFile(broken));
    QVERIFY(window.windowTitle().contains("broken.map"));
    QVERIFY(!window.canvas()->map());
    QVERIFY(!window.document()->lastGoodMap());
    QCOMPARE(window.layerModel()->rowCount(), 0);
    QCOMPARE(window.editorPanel()->tabs()->count(), 1);
    QVERIFY(hasErrors(window.document()->diagnostics()));
}

void TestUiDocument::failedSaveKeepsFileAndEdits_data()
{
    QTest::addColumn<QString>("failure");
    QTest::newRow("folder does not exist") << "missing folder";
    QTest::newRow("read-only folder") << "read-only";
    QTest::newRow("disk full") << "disk full";
}

void TestUiDocument::failedSaveKeepsFileAndEdits()
{
    QFETCH(QString, failure);
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("squares.map"), kSquares);
    MapDocument doc;
    EditorPanel panel(&doc);
    QVERIFY(doc.open(path));
    QTextCursor(doc.textDocument()).insertText(QStringLiteral("# kept in the editor\n"));
    const QString edited = panel.editor()->toPlainText();
    QVERIFY(edited.startsWith("# kept in the editor\n"));

    Status saved;
    if (failure == "missing folder") {
        saved = doc.saveAs(dir.filePath("missing/squares.map"));
    } else if (failure == "read-only") {
        QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner));
        const bool writable = ::access(QFile::encodeName(dir.path()).constData(), W_OK) == 0;
        if (writable) {  // root ignores permissions
            QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
            QSKIP("the folder stays writable for this user (root)");
        }
        saved = doc.save();
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    } else {
        // A full disk, simulated by a file size limit below the text's size:
        // write() fails with EFBIG as it would with ENOSPC.
        rlimit old{};
        QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
        rlimit tight = old;
        tight.rlim_cur = 64;
        const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
        QCOMPARE(setrlimit(RLIMIT_FSIZE, &tight), 0);
        saved = doc.save();
        setrlimit(RLIMIT_FSIZE, &old);
        std::signal(SIGXFSZ, oldHandler);
    }
    QVERIFY(!saved);
    QVERIFY(!saved.message().isEmpty());
    // The file on disk is the old one, whole; no temporary file is left behind.
    QCOMPARE(readFile(path), QByteArray(kSquares));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList({"squares.map"}));
    // The edit is still in the editor, unsaved, and the document keeps its file.
    QCOMPARE(panel.editor()->toPlainText(), edited);
    QVERIFY(doc.isModified());
    QCOMPARE(doc.path(), QFileInfo(path).absoluteFilePath());
}

void TestUiDocument::killedSessionIsRecovered_data()
{
    QTest::addColumn<bool>("recover");
    QTest::newRow("recover") << true;
    QTest::newRow("discard") << false;
}

void TestUiDocument::killedSessionIsRecovered()
{
    QFETCH(bool, recover);
    QTemporaryDir dir;
    const QString path = writeFile(dir.filePath("squares.map"), kSquares);
    const QString autosave = MapDocument::autosavePath(path);

    QProcess child;
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    child.setProcessEnvironment(env);
    child.start(QCoreApplication::applicationFilePath(), {kChildFlag, path});
    QVERIFY2(child.waitForStarted(10000), qPrintable(child.errorString()));
    QByteArray said;
    while (!said.contains("autosaved\n") && child.state() == QProcess::Running)
        if (child.waitForReadyRead(30000)) said += child.readAllStandardOutput();
        else break;
    QVERIFY2(said.contains("autosaved\n"), said.constData());

    // No closeEvent, no destructors, no chance to clean up.
    QCOMPARE(::kill(pid_t(child.processId()), SIGKILL), 0);
    QVERIFY(child.waitForFinished(10000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);
    QCOMPARE(child.exitCode(), int(SIGKILL));
    QCOMPARE(readFile(path), QByteArray(kSquares));  // the edit never reached the file
    QCOMPARE(readFile(autosave), QByteArray(kTyped) + '\n' + kSquares);

    // The next session opens the file and is offered the autosave.
    MainWindow window;
    QString question;
    answerNextMessageBox(recover ? QMessageBox::Yes : QMessageBox::Discard, &question);
    QVERIFY(window.openFile(path));
    QVERIFY2(question.contains("squares.map") && question.contains("unsaved edits"), qPrintable(question));
    const QString text = window.editorPanel()->editor()->toPlainText();
    if (recover) {
        QCOMPARE(text, QString::fromLatin1(kTyped) + '\n' + kSquares);
        QVERIFY(window.document()->isModified());
        QVERIFY(window.isWindowModified());
        QVERIFY(window.document()->lastGoodMap());
        // Recovered edits are one undo step away from the file's text.
        window.document()->textDocument()->undo();
        QCOMPARE(window.document()->text(), QString::fromLatin1(kSquares));
    } else {
        QCOMPARE(text, QString::fromLatin1(kSquares));
        QVERIFY(!window.document()->isModified());
        QVERIFY(!QFile::exists(autosave));
    }
    QCOMPARE(readFile(path), QByteArray(kSquares));
}

int main(int argc, char** argv)
{
    if (argc == 3 && qstrcmp(argv[1], kChildFlag) == 0)
        return runAutosaveChild(argc, argv, QString::fromLocal8Bit(argv[2]));
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setApplicationName(QStringLiteral("maptune-test"));
    TestUiDocument test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_ui_document.moc"
