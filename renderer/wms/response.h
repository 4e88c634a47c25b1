#pragma once
// An HTTP-like answer to a service request: status, header lines and body.
// Transports (CLI, HTTP server, FastCGI) only copy it out.

#include "trace/trace.h"

#include <QByteArray>
#include <QList>
#include <QString>

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

    // What a map request was about, as the operation validated it (for the
    // workbench's request log; transports need not parse the query again).
    struct Subject {
        QString layers;    // LAYERS as sent
        QString crs;       // CRS / SRS as sent
        int width = 0, height = 0;
    };
    std::optional<Subject> subject;

    QByteArray contentType() const
    {
        for (const auto& [k, v] : headers)
            if (k.compare("Content-Type", Qt::CaseInsensitive) == 0) return v;
        return {};
    }
    void setContentType(const QByteArray& type) { headers.prepend({"Content-Type", type}); }
};

}  // namespace maptune
