// maptune [MAPFILE]: the workbench. Wiring only; everything lives in ui/.
#include "main_window.h"
#include "map_canvas.h"

#include "render/engine.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

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
    const QCommandLineOption dock(QStringLiteral("dock"), QStringLiteral("bring a panel to the front: layers, editor, lut, "
                                                                         "timings, server"), QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("save the window as PNG after the first render, then quit"),
                                        QStringLiteral("PNG"));
    parser.addOptions({dock, screenshot});
    parser.process(app);

    maptune::initEngine();
    maptune::MainWindow window;
    const QStringList args = parser.positionalArguments();
    const QString file = args.isEmpty() ? maptune::MainWindow::startupFile() : args.first();
    window.show();
    if (parser.isSet(dock) && !window.raiseDock(parser.value(dock)))
        qWarning("maptune: no panel named '%s'", qPrintable(parser.value(dock)));
    if (!file.isEmpty()) window.openFile(file);
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
