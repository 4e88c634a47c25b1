// The longest event-loop stall of the workbench's map canvas while the demo
// map is re-rendered over and over (issue 5: target under 50 ms). Not part of
// the test suite: run build/bench/ui/bench_event_loop [SECONDS] [MAPFILE].
//
// A 1 ms timer ticks on the GUI thread; the gap between two ticks is how long
// the event loop could not answer. The canvas pans one step each time a
// render finishes, so a render is always in flight and every finished image
// is painted. Prints one JSON object.

#include "map_canvas.h"

#include "mapfile/map_loader.h"
#include "render/engine.h"

#include <QApplication>
#include <QEvent>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace maptune;

namespace {

// CPU time of the calling (GUI) thread: a long gap with little CPU in it was
// the scheduler (a busy machine), not work done on the event loop.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t i = std::min(values.size() - 1, size_t(p / 100.0 * double(values.size())));
    return values[i];
}

}  // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    initEngine();
    const QStringList args = app.arguments().mid(1);
    const double seconds = args.value(0, QStringLiteral("10")).toDouble();

    QTemporaryDir demo;
    QString mapPath = args.value(1);
    if (mapPath.isEmpty()) {
        QProcess generator;
        generator.setStandardOutputFile(QProcess::nullDevice());  // stdout is for the JSON
        generator.start(QStringLiteral(MAPTUNE_DEMO_DATA), {demo.path()});
        if (!generator.waitForFinished(120000) || generator.exitCode() != 0) {
            std::fprintf(stderr, "bench_event_loop: maptune-demo-data failed\n");
            return 1;
        }
        mapPath = demo.filePath(QStringLiteral("demo.map"));
    }
    const LoadResult load = loadMapFile(mapPath);
    if (!load.map) {
        std::fprintf(stderr, "bench_event_loop: cannot read %s\n", qPrintable(mapPath));
        return 1;
    }

    MapCanvas canvas;
    canvas.resize(1200, 800);
    canvas.show();
    canvas.setMap(load.map);

    // Pan a tenth of the width per finished render, five steps each way, so
    // the view stays on the data and every render draws something.
    int renders = 0, failures = 0;
    QObject::connect(&canvas, &MapCanvas::renderFailed, [&failures] { ++failures; });
    QObject::connect(&canvas, &MapCanvas::renderFinished, [&canvas, &renders] {
        const CanvasView v = canvas.view();
        const double dir = (renders / 5) % 2 == 0 ? 1 : -1;
        ++renders;
        canvas.setView({v.centre + QPointF(dir * 0.1 * canvas.width() * v.unitsPerPixel, 0), v.unitsPerPixel}, false);
    });

    // Paint events on the canvas prove every finished image reached the screen path.
    struct PaintCounter : QObject {
        int paints = 0;
        bool eventFilter(QObject*, QEvent* e) override
        {
            if (e->type() == QEvent::Paint) ++paints;
            return false;
        }
    } paintCounter;
    canvas.installEventFilter(&paintCounter);

    std::vector<double> gapsMs;
    gapsMs.reserve(size_t(seconds * 1200));
    QElapsedTimer clock;
    qint64 last = -1;
    double lastCpu = 0, maxGapCpuMs = 0, maxGapMs = 0;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    tick.setInterval(1);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const qint64 now = clock.nsecsElapsed();
        const double cpu = threadCpuMs();
        if (last >= 0) {
            const double gap = double(now - last) / 1e6;
            gapsMs.push_back(gap);
            if (gap > maxGapMs) {
                maxGapMs = gap;
                maxGapCpuMs = cpu - lastCpu;
            }
        }
        last = now;
        lastCpu = cpu;
    });
    // Measure after the first render so start-up (fonts, GDAL open) is not counted.
    int rendersBefore = 0, paintsBefore = 0;
    QObject::connect(&canvas, &MapCanvas::renderFinished, &tick, [&] {
        rendersBefore = renders;
        paintsBefore = paintCounter.paints;
        clock.start();
        tick.start();
        QTimer::singleShot(int(seconds * 1000), &app, &QApplication::quit);
    }, Qt::SingleShotConnection);
    app.exec();

    std::printf("{\"seconds\": %.1f, \"canvas\": \"%dx%d\", \"renders\": %d, \"paints\": %d, \"failures\": %d, \"ticks\": %zu, "
                "\"stall_max_ms\": %.2f, \"stall_max_cpu_ms\": %.2f, \"stall_p99_ms\": %.2f, \"stall_p50_ms\": %.2f}\n",
                seconds, canvas.width(), canvas.height(), renders - rendersBefore, paintCounter.paints - paintsBefore,
                failures, gapsMs.size(), maxGapMs, maxGapCpuMs, percentile(gapsMs, 99), percentile(gapsMs, 50));
    return failures == 0 ? 0 : 1;
}
