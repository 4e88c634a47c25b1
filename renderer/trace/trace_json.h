#pragma once
// One request's trace as JSON: the answer to &MAPTUNE_PROFILE=json
// (DESIGN.md) and what the workbench's "Profile this view" draws. Times are
// milliseconds from the start of the render; each layer's phases follow
// each other from its start (open, read -- with its database calls: pool
// wait, connect, query, fetch -- then draw), the label cache and the
// encoder come after the last layer.

#include "trace/trace.h"

#include <QByteArray>
#include <QJsonObject>

namespace maptune {

QJsonObject traceToJsonObject(const Trace& trace);
QByteArray traceToJson(const Trace& trace);

}  // namespace maptune
