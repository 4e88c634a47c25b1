#pragma once
// Limits and sizes shared by the HTTP and FastCGI transports.

#include <QString>

#include <cstddef>

namespace maptune {

struct ServerOptions {
    QString host = QStringLiteral("127.0.0.1");
    int port = 8080;                    // 0: any free port (see HttpServer::port())
    int workers = 0;                    // requests rendering at once; 0: one per core
    int queueFactor = 4;                // admitted (rendering + waiting) <= workers * queueFactor
    int timeLimitMs = 30000;            // per request, queueing included; then cancelled
    std::size_t maxUriLength = 8192;    // longer request targets: 414
    std::size_t maxBodyBytes = 65536;   // larger bodies: 413
    int keepAliveTimeoutS = 5;
    int keepAliveMaxCount = 100;        // requests per connection
    int reloadIntervalMs = 1000;        // mapfile change polling; 0: never reload
    bool allowProfile = false;          // &MAPTUNE_PROFILE=json from any client, not only loopback

    int effectiveWorkers() const;
    int maxAdmitted() const { return effectiveWorkers() * (queueFactor < 1 ? 1 : queueFactor); }
};

}  // namespace maptune
