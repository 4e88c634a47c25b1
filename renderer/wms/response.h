#pragma once
// An HTTP-like answer to a service request: status, header lines and body.
// Transports (CLI, HTTP server, FastCGI) only copy it out.

#include <QByteArray>
#include <QList>

#include <utility>

namespace maptune {

struct Response {
    int status = 200;
    QList<std::pair<QByteArray, QByteArray>> headers;
    QByteArray body;

    QByteArray contentType() const
    {
        for (const auto& [k, v] : headers)
            if (k.compare("Content-Type", Qt::CaseInsensitive) == 0) return v;
        return {};
    }
    void setContentType(const QByteArray& type) { headers.prepend({"Content-Type", type}); }
};

}  // namespace maptune
