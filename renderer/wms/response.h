#pragma once
// An HTTP-like answer to a service request: status, header lines and body.
// Transports (CLI, HTTP server, FastCGI) only copy it out.

#include "trace/trace.h"

#include <QByteArray>
#include <QList>

#include <optional>
#include <utility>

namespace maptune {

struct Response {
    int status = 200;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;
    // The render trace of a GetMap (per-layer timings). The HTTP transports
    // turn it into Server-Timing and /metrics; it is not a header here so that
    // `maptune-cli request --headers` prints only what mapserv prints.
    std::optional<Trace> trace;

    QByteArray contentType() const
    {
        for (const auto& [k, v] : headers)
            if (k.compare("Content-Type", Qt::CaseInsensitive) == 0) return v;
        return {};
    }
    void setContentType(const QByteArray& type) { headers.prepend({"Content-Type", type}); }
};

}  // namespace maptune
