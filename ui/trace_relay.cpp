#include "trace_relay.h"

namespace maptune {

TraceRelay::TraceRelay(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<maptune::Trace>();
}

void TraceRelay::traceFinished(const QString& mapName, const Trace& trace)
{
    // Emitted from the worker: receivers on the GUI thread get a queued copy.
    Q_EMIT traceReady(mapName, trace);
}

}  // namespace maptune
