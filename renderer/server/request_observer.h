#pragma once
// A listener for every WMS request a ServiceRouter answered (the workbench's
// live request log and charts). Called on the connection thread once the
// response is ready, before its bytes go out: implementations must be
// thread-safe and quick (copy and queue; never render or block).

#include "trace/trace.h"

#include <QString>

#include <optional>

namespace maptune {

struct ServedRequest {
    qint64 finishedMs = 0;     // wall clock, ms since the Unix epoch
    QString map;
    QString type;              // ServerMetrics::requestType(): "GetMap", ..., "other"
    QString layers;            // the LAYERS parameter as sent
    QString crs;               // CRS or SRS as sent
    int width = 0, height = 0; // WIDTH, HEIGHT when numeric
    int status = 0;
    double ms = 0;             // queueing included
    qint64 bytes = 0;          // response body size
    std::optional<Trace> trace;
};

class RequestObserver {
public:
    virtual ~RequestObserver() = default;
    virtual void requestServed(const ServedRequest& request) = 0;
};

}  // namespace maptune
