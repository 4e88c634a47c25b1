#pragma once
// Timings of one render: per layer (open, read, draw, lut, label) and per
// database call, plus encode and total. Names match DESIGN.md so that
// /metrics, Server-Timing, the GUI and `render --timings` agree.

#include <QList>
#include <QString>

#include <chrono>
#include <cstdint>

namespace maptune {

// One database round trip set for a layer (PostGIS).
struct DbTrace {
    QString layer;
    QString sql;                // the statement text, parameters shown separately
    QStringList params;
    double poolWaitMs = 0;
    double connectMs = 0;       // 0 when an idle pooled connection was reused
    double queryMs = 0;         // until the first row (or the error) arrived
    // Reading and decoding the rows, as the renderer pulls them: every wait
    // for the server timed, the decoding of one row in eight scaled to all.
    double fetchMs = 0;
    qint64 rows = 0;
    qint64 bytes = 0;
    // Rows taken from the row cache instead of decoded (pg_row_cache.h), and
    // rows left out because they changed between the tuple ids and the fetch.
    qint64 cachedRows = 0;
    qint64 changedRows = 0;
    bool newConnection = false;
    bool prepared = false;      // run as a statement prepared once on its connection
    QString error;
};

struct LayerTrace {
    QString layer;
    double startMs = 0;         // from the start of the render (layers draw one after another)
    double openMs = 0;
    double readMs = 0;
    double drawMs = 0;
    double lutMs = 0;
    double labelMs = 0;
    double computeMs = 0;       // a surface or geometry computed from the data (computePhase names it)
    QString computePhase;       // "density", "idw", "contour", ...
    double totalMs = 0;
    qint64 features = 0;
    qint64 pixels = 0;
    qint64 labelsTried = 0;     // label placements the cache tested (each AUTO position counts)
    qint64 labelsPlaced = 0;
    bool skipped = false;       // out of scale range or not requested
    QString error;              // the layer failed; others still drew
    QList<DbTrace> db;
};

struct Trace {
    QList<LayerTrace> layers;
    double labelMs = 0;         // label cache drawn after all layers
    double encodeMs = 0;
    double totalMs = 0;
    qint64 bytes = 0;           // encoded size

    double dbMs() const;
    // "layer;desc="roads";dur=12.3, db;desc="roads";dur=4.1, encode;dur=3.2, total;dur=21.0"
    QString serverTiming() const;
    // Human-readable table for `maptune-cli render --timings`.
    QString table() const;
};

// Observer of finished renders: GUI charts, /metrics, logs. Called from the
// rendering thread: implementations must be thread-safe and quick.
class TraceSink {
public:
    virtual ~TraceSink() = default;
    virtual void traceFinished(const QString& mapName, const Trace& trace) = 0;
};

// Monotonic stopwatch in milliseconds with microsecond resolution.
class Stopwatch {
public:
    Stopwatch() : m_start(std::chrono::steady_clock::now()) {}
    double elapsedMs() const
    {
        auto d = std::chrono::steady_clock::now() - m_start;
        return std::chrono::duration_cast<std::chrono::microseconds>(d).count() / 1000.0;
    }
    double restartMs()
    {
        double ms = elapsedMs();
        m_start = std::chrono::steady_clock::now();
        return ms;
    }

private:
    std::chrono::steady_clock::time_point m_start;
};

}  // namespace maptune
