// maptune [MAPFILE]: the workbench. Wiring only; everything lives in ui/.
#include "benchmark_panel.h"
#include "benchmark_settings.h"
#include "benchmark_target_list.h"
#include "lut_panel.h"
#include "main_window.h"
#include "map_canvas.h"
#include "server_panel.h"

#include <QAction>

#include "render/engine.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace {

using maptune::MainWindow;

// Runs fn once, after the canvas's first finished render.
template <typename Fn>
void afterFirstRender(MainWindow& window, Fn fn)
{
    QObject::connect(window.canvas(), &maptune::MapCanvas::renderFinished, &window, fn, Qt::SingleShotConnection);
}

void serveAtStart(MainWindow& window, const QString& portText, const QString& host, bool raiseServer)
{
    bool ok = false;
    const int port = portText.toInt(&ok);
    maptune::ServerPanel* server = window.serverPanel();
    server->setHost(host);
    server->setPort(ok ? port : -1);
    if (!ok || port < 0 || port > 65535) {
        qWarning("maptune: --serve needs a port number, 0 to 65535");
    } else if (const maptune::Status started = server->start(); !started) {
        qWarning("maptune: cannot serve: %s", qPrintable(started.message()));
    } else {
        if (raiseServer) window.raiseDock(QStringLiteral("server"));
        fprintf(stdout, "maptune: serving %s\n", qPrintable(server->capabilitiesUrl()));
        fflush(stdout);
    }
}

void identifyAfterRender(MainWindow& window, const QString& xyText)
{
    const QStringList xy = xyText.split(QLatin1Char(','));
    bool okX = false, okY = false;
    const QPointF point(xy.value(0).toDouble(&okX), xy.value(1).toDouble(&okY));
    if (xy.size() != 2 || !okX || !okY) {
        qWarning("maptune: --identify needs X,Y");
        return;
    }
    afterFirstRender(window, [&window, point] {
        window.identifyAction()->setChecked(true);
        window.identifyAt(point);
    });
}

// The Benchmark panel's "this map" target for about `seconds` (up to three
// rounds), started once the map is drawn; prints the outcome on stdout. A
// benchmark that cannot start ends the program when nothing else would
// (quitOnFailure: a screenshot waits for it).
void benchAfterRender(MainWindow& window, int seconds, bool quitOnFailure)
{
    maptune::BenchmarkPanel* panel = window.benchmarkPanel();
    afterFirstRender(window, [&window, panel, seconds, quitOnFailure] {
        const int rounds = std::clamp(seconds / 3, 1, 3);
        panel->clearPreset();
        panel->targets()->setEmbeddedChecked(true);
        panel->settings()->setRounds(rounds);
        panel->settings()->setDurationS(std::max(1, seconds / rounds));
        if (!window.serverPanel()->isRunning()) window.serverPanel()->setPort(0);  // any free port
        window.raiseDock(QStringLiteral("benchmark"));
        const maptune::Status started = panel->run();
        if (started) return;
        qWarning("maptune: cannot run the benchmark: %s", qPrintable(started.message()));
        if (quitOnFailure) QApplication::exit(1);
    });
    QObject::connect(panel, &maptune::BenchmarkPanel::finished, &window, [panel] {
        fprintf(stdout, "maptune: benchmark: %s\n", qPrintable(panel->statusText()));
        fflush(stdout);
    });
}

// Saves the window as PNG and quits, delayMs after `signal` of `sender` (once).
template <typename Sender, typename Signal>
void screenshotAfter(MainWindow& window, Sender* sender, Signal signal, int delayMs, const QString& png)
{
    QObject::connect(sender, signal, &window, [&window, png, delayMs] {
        QTimer::singleShot(delayMs, &window, [&window, png] {
            const bool ok = window.grab().save(png);
            if (!ok) qWarning("maptune: cannot write %s", qPrintable(png));
            QApplication::exit(ok ? 0 : 1);
        });
    }, Qt::SingleShotConnection);
}

}  // namespace

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
                                                                         "timings, server, benchmark, rasterAdvisor"),
                                  QStringLiteral("NAME"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("save the window as PNG after the first render (with --bench: "
                                                       "when the benchmark is over), then quit"),
                                        QStringLiteral("PNG"));
    const QCommandLineOption serve(QStringLiteral("serve"),
                                   QStringLiteral("serve the map over WMS at start-up on PORT (0: any free port)"),
                                   QStringLiteral("PORT"));
    const QCommandLineOption bind(QStringLiteral("bind"), QStringLiteral("address --serve listens on (127.0.0.1)"),
                                  QStringLiteral("HOST"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption identify(QStringLiteral("identify"),
                                      QStringLiteral("after the first render, identify at map point X,Y (map CRS)"),
                                      QStringLiteral("X,Y"));
    const QCommandLineOption bench(QStringLiteral("bench"),
                                   QStringLiteral("after the first render, benchmark the map on the embedded WMS for "
                                                  "about SECONDS in the Benchmark panel (brought to the front)"),
                                   QStringLiteral("SECONDS"));
    const QCommandLineOption lutSplit(QStringLiteral("lut-split"),
                                      QStringLiteral("after the first render, show the LUT editor's before/after split "
                                                     "on the canvas"));
    parser.addOptions({dock, screenshot, serve, bind, identify, bench, lutSplit});
    parser.process(app);
    bool benchOk = true;
    const int benchSeconds = parser.isSet(bench) ? parser.value(bench).toInt(&benchOk) : 0;
    if (!benchOk || benchSeconds < 0 || (parser.isSet(bench) && benchSeconds == 0)) {
        fprintf(stderr, "maptune: --bench needs a number of seconds (1 or more)\n");
        return 2;
    }

    maptune::initEngine();
    MainWindow window;
    const QStringList args = parser.positionalArguments();
    const QString file = args.isEmpty() ? MainWindow::startupFile() : args.first();
    window.show();
    if (parser.isSet(dock) && !window.raiseDock(parser.value(dock)))
        qWarning("maptune: no panel named '%s'", qPrintable(parser.value(dock)));
    if (!file.isEmpty()) window.openFile(file);
    // An explicit --dock wins over the panels the other options bring forward.
    if (parser.isSet(serve)) serveAtStart(window, parser.value(serve), parser.value(bind), !parser.isSet(dock));
    if (parser.isSet(identify)) identifyAfterRender(window, parser.value(identify));
    if (parser.isSet(lutSplit)) {
        afterFirstRender(window, [&window] {
            window.raiseDock(QStringLiteral("lut"));
            window.lutPanel()->setCompareEnabled(true);
        });
    }
    if (benchSeconds > 0) benchAfterRender(window, benchSeconds, parser.isSet(screenshot));
    if (parser.isSet(screenshot)) {
        // For docs/screenshots: wait for the map (and the charts it feeds), grab, quit.
        if (benchSeconds > 0)
            screenshotAfter(window, window.benchmarkPanel(), &maptune::BenchmarkPanel::finished, 800, parser.value(screenshot));
        else
            screenshotAfter(window, window.canvas(), &maptune::MapCanvas::renderFinished, 1500, parser.value(screenshot));
    }
    return app.exec();
}
