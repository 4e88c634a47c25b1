#pragma once
// The GUI side of the engine's TraceSink: called on rendering threads, it
// re-emits each trace as a queued signal so that charts update on the GUI
// thread and never hold up a render.

#include "trace/trace.h"

#include <QObject>

namespace maptune {

class TraceRelay : public QObject, public TraceSink {
    Q_OBJECT
public:
    explicit TraceRelay(QObject* parent = nullptr);
    void traceFinished(const QString& mapName, const Trace& trace) override;

Q_SIGNALS:
    void traceReady(const QString& mapName, const maptune::Trace& trace);
};

}  // namespace maptune

