// maptune [MAPFILE]: the workbench. Wiring only; everything lives in ui/.
#include "main_window.h"
#include "map_canvas.h"
#include "server_panel.h"

#include <QAction>

#include "render/engine.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("MapTune"));
    QApplication::setApplicationName(QStringLiteral("maptune"));
    QApplication::setApplicationVersion(QStringLiteral(MAPTUNE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("MapTune workbench: view, edit and tune MapServer mapfiles"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("MAPFILE"), QStringLiteral("the mapfile to open"));
    const QCommandLineOption dock(QStringLiteral("dock"), QStringLiteral("bring a panel to the front: layers, editor, lut, identify, "
                                                                         "timings, server"), QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("save the window as PNG after the first render, then quit"),
                                        QStringLiteral("PNG"));
    const QCommandLineOption serve(QStringLiteral("serve"),
                                   QStringLiteral("serve the map over WMS at start-up on PORT (0: any free port)"),
                                   QStringLiteral("PORT"));
    const QCommandLineOption bind(QStringLiteral("bind"), QStringLiteral("address --serve listens on (127.0.0.1)"),
                                  QStringLiteral("HOST"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption identify(QStringLiteral("identify"),
                                      QStringLiteral("after the first render, identify at map point X,Y (map CRS)"),
                                      QStringLiteral("X,Y"));
    parser.addOptions({dock, screenshot, serve, bind, identify});
    parser.process(app);

    maptune::initEngine();
    maptune::MainWindow window;
    const QStringList args = parser.positionalArguments();
    const QString file = args.isEmpty() ? maptune::MainWindow::startupFile() : args.first();
    window.show();
    if (parser.isSet(dock) && !window.raiseDock(parser.value(dock)))
        qWarning("maptune: no panel named '%s'", qPrintable(parser.value(dock)));
    if (!file.isEmpty()) window.openFile(file);
    if (parser.isSet(serve)) {
        bool ok = false;
        const int port = parser.value(serve).toInt(&ok);
        maptune::ServerPanel* server = window.serverPanel();
        QString error;
        server->setHost(parser.value(bind));
        server->setPort(ok ? port : -1);
        if (!ok || port < 0 || port > 65535) {
            qWarning("maptune: --serve needs a port number, 0 to 65535");
        } else if (!server->start(&error)) {
            qWarning("maptune: cannot serve: %s", qPrintable(error));
        } else {
            if (!parser.isSet(dock)) window.raiseDock(QStringLiteral("server"));  // an explicit --dock wins
            fprintf(stdout, "maptune: serving %s\n", qPrintable(server->capabilitiesUrl()));
            fflush(stdout);
        }
    }
    if (parser.isSet(identify)) {
        const QStringList xy = parser.value(identify).split(QLatin1Char(','));
        bool okX = false, okY = false;
        const QPointF point(xy.value(0).toDouble(&okX), xy.value(1).toDouble(&okY));
        if (xy.size() != 2 || !okX || !okY) {
            qWarning("maptune: --identify needs X,Y");
        } else {
            QObject::connect(window.canvas(), &maptune::MapCanvas::renderFinished, &window, [&window, point] {
                window.identifyAction()->setChecked(true);
                window.identifyAt(point);
            }, Qt::SingleShotConnection);
        }
    }
    if (parser.isSet(screenshot)) {
        // For docs/screenshots: wait for the map (and the charts it feeds), grab, quit.
        const QString png = parser.value(screenshot);
        QObject::connect(window.canvas(), &maptune::MapCanvas::renderFinished, &window, [&window, png] {
            QTimer::singleShot(1500, &window, [&window, png] {
                const bool ok = window.grab().save(png);
                if (!ok) qWarning("maptune: cannot write %s", qPrintable(png));
                QApplication::exit(ok ? 0 : 1);
            });
        }, Qt::SingleShotConnection);
    }
    return app.exec();
}
