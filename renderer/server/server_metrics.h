#pragma once
// The counters behind /metrics, in Prometheus text exposition format 0.0.4:
// requests by map, WMS request type and status, a latency histogram, per-layer
// render times from the render traces, database times, the PostgreSQL pool
// state, overload and time-limit rejections and map reloads. Thread-safe.
// Label values are bounded: map names are served maps, request types are the
// known WMS operations or "other".

#include "server/map_registry.h"
#include "trace/trace.h"

#include <QByteArray>
#include <QString>

#include <array>
#include <atomic>
#include <map>
#include <mutex>
#include <tuple>

namespace maptune {

class ServerMetrics : public TraceSink {
public:
    // "GetMap", "GetCapabilities", ... for known operations (any case, MapServer
    // aliases "map", "capabilities", "feature_info"), else "other".
    static QString requestType(const QString& requestParam);

    void requestFinished(const QString& map, const QString& type, int status, double seconds);
    void traceFinished(const QString& map, const Trace& trace) override;
    void overloaded() { m_overloads++; }
    void timedOut() { m_timeouts++; }
    void inFlightChanged(int delta) { m_inFlight += delta; }
    int inFlight() const { return m_inFlight.load(); }

    // registry: reload state per map (may be null).
    QByteArray prometheusText(const MapRegistry* registry) const;

    static constexpr std::array<double, 12> latencyBuckets{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                           0.1,   0.25,   0.5,   1,    2.5,   10};

private:
    struct Histogram {
        std::array<quint64, latencyBuckets.size()> buckets{};
        quint64 count = 0;
        double sum = 0;
        void observe(double seconds);
    };
    struct LayerTimes {
        Histogram total;
        double openS = 0, readS = 0, drawS = 0, lutS = 0, labelS = 0, computeS = 0;
        QString computePhase;  // the layer's computed phase (density, contour, ...)
        quint64 features = 0, pixels = 0, errors = 0, labelsTried = 0, labelsPlaced = 0;
    };
    struct DbTimes {
        double poolWaitS = 0, connectS = 0, queryS = 0, fetchS = 0;
        quint64 calls = 0, rows = 0, bytes = 0, errors = 0;
    };

    mutable std::mutex m_mutex;
    std::map<std::tuple<QString, QString, int>, quint64> m_requests;  // map, type, status
    std::map<std::pair<QString, QString>, Histogram> m_latency;        // map, type
    std::map<std::pair<QString, QString>, LayerTimes> m_layers;        // map, layer
    std::map<std::pair<QString, QString>, DbTimes> m_db;               // map, layer
    std::map<QString, Histogram> m_encode;                             // map
    std::atomic<quint64> m_overloads{0};
    std::atomic<quint64> m_timeouts{0};
    std::atomic<int> m_inFlight{0};
};

}  // namespace maptune
