// Workbench tests at 1000x700: View ▸ Copy as mapserv URL and File ▸ Open
// Request…, as a user does them: copy the view, paste it into the dialog,
// send, see the image; a GetCapabilities URL shows its XML; a URL naming
// another mapfile is answered by the open map.

#include "ui_test_support.h"

#include "image_difference.h"
#include "main_window.h"
#include "map_canvas.h"
#include "request_actions.h"
#include "request_replay_dialog.h"
#include "server_panel.h"

#include "render/engine.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace maptune;
using namespace maptune::testing;

namespace {

// Types `url` into the open dialog and clicks Send; waits for the answer.
bool ask(RequestReplayDialog* dialog, const QString& url)
{
    auto* edit = dialog->findChild<QLineEdit*>(QStringLiteral("requestUrl"));
    auto* send = dialog->findChild<QPushButton*>(QStringLiteral("sendRequest"));
    if (!edit || !send) return false;
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, url);
    QSignalSpy answered(dialog, &RequestReplayDialog::answered);
    QTest::mouseClick(send, Qt::LeftButton);
    return answered.wait(10000) || answered.size() == 1;
}

}  // namespace

class TestUiRequests : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { initEngine(); }

    void copyThenReplay()
    {
        QTemporaryDir dir;
        const QString path = writeFile(dir.filePath(QStringLiteral("squares.map")), servedSquares());
        MainWindow window;
        window.resize(1000, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(path));
        QTRY_VERIFY_WITH_TIMEOUT(!window.canvas()->isRendering() && !window.canvas()->image().isNull(), 10000);

        // Copy as mapserv URL: mapserv's CGI with this mapfile while no server runs.
        QAction* copy = menuAction(window, QStringLiteral("Copy as mapserv URL"));
        QVERIFY(copy);
        copy->trigger();
        const QString url = QApplication::clipboard()->text();
        QVERIFY2(url.startsWith(RequestActions::mapservCgiBase() + QStringLiteral("?map=") + QFileInfo(path).absoluteFilePath()),
                 qPrintable(url));
        QVERIFY(url.contains(QStringLiteral("&mode=map&mapext=")));
        const QSize canvasSize = window.canvas()->size();
        QVERIFY2(url.contains(QStringLiteral("&mapsize=%1+%2").arg(canvasSize.width()).arg(canvasSize.height())), qPrintable(url));

        // Open Request…: the copied URL is offered; Send draws the canvas's view.
        QAction* open = menuAction(window, QStringLiteral("Open Request…"));
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+O")));
        open->trigger();
        RequestReplayDialog* dialog = window.requestActions()->dialog();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("requestUrl"))->text(), url);
        QVERIFY(ask(dialog, url));
        QVERIFY2(dialog->statusText().startsWith(QStringLiteral("200 · image/png")), qPrintable(dialog->statusText()));
        const QImage answer = dialog->shownImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(answer.size(), canvasSize);
        QCOMPARE(answer, window.canvas()->image().convertToFormat(QImage::Format_RGB32));

        // An SVG answer is drawn: the same squares within antialiasing.
        QVERIFY(ask(dialog, url + QStringLiteral("&map.imagetype=svg")));
        QVERIFY2(dialog->statusText().startsWith(QStringLiteral("200 · image/svg+xml")), qPrintable(dialog->statusText()));
        const QImage drawn = dialog->shownImage().convertToFormat(QImage::Format_RGB32);
        QCOMPARE(drawn.size(), canvasSize);
        QVERIFY2(test::differingPixels(drawn, window.canvas()->image().convertToFormat(QImage::Format_RGB32), 64) < 0.01,
                 "the SVG answer differs from the canvas in more than 1 % of its pixels");

        // XML answers show as text; a map= naming another file changes nothing.
        QVERIFY(ask(dialog, QStringLiteral("http://elsewhere/mapserv?map=/etc/passwd&SERVICE=WMS&VERSION=1.3.0&REQUEST=GetCapabilities")));
        QVERIFY(dialog->shownImage().isNull());
        QVERIFY2(dialog->shownText().contains(QStringLiteral("<WMS_Capabilities")), qPrintable(dialog->shownText().left(200)));
        QVERIFY(dialog->shownText().contains(QStringLiteral("<Name>red</Name>")));
        QVERIFY(!dialog->shownText().contains(QStringLiteral("root:")));
        // A URL that asks nothing says so and sends nothing.
        auto* edit = dialog->findChild<QLineEdit*>(QStringLiteral("requestUrl"));
        edit->setText(QStringLiteral("http://h/mapserv?map=x.map"));
        dialog->send();
        QVERIFY(dialog->statusText().contains(QStringLiteral("asks nothing but a map")));

        // With the embedded server running the copy is its own URL, which it answers.
        QVERIFY(window.serverPanel()->start());
        copy->trigger();
        const QString served = QApplication::clipboard()->text();
        QVERIFY2(served.startsWith(window.serverPanel()->baseUrl() + QStringLiteral("?mode=map&")), qPrintable(served));
        window.serverPanel()->stop();
    }
};

QTEST_MAIN(TestUiRequests)
#include "test_ui_requests.moc"
