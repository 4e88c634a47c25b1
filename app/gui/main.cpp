// maptune [MAPFILE]: the workbench. Wiring only; everything lives in ui/.
#include "main_window.h"

#include "render/engine.h"

#include <QApplication>
#include <QCommandLineParser>

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
    parser.process(app);

    maptune::initEngine();
    maptune::MainWindow window;
    const QStringList args = parser.positionalArguments();
    const QString file = args.isEmpty() ? maptune::MainWindow::startupFile() : args.first();
    window.show();
    if (!file.isEmpty()) window.openFile(file);
    return app.exec();
}
